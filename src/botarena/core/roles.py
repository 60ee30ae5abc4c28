"""How a person's word names one of a role game's roles: one rule for the command line
(`--bot ROLE:SPEC`, a bots file's `role`), the contest site's uploads and the starters'
file names, so that a spelling one accepts the others accept too."""

from __future__ import annotations

import re
from collections.abc import Sequence


def _squeezed(text: str) -> str:
    return re.sub(r"[\s_-]+", "", text).casefold()


def role_named(word: str, roles: Sequence[str]) -> str | None:
    """The one of `roles` that `word` names: the role in any case, with hyphens,
    underscores or nothing for its spaces (`Night Guard`, `night-guard`, `NIGHT_GUARD`,
    `nightguard` for the role `night guard`), or its last word alone when no other role
    ends so (`guard`, as a role game's starters may be named); None when it names none."""
    squeezed = _squeezed(word)
    if not squeezed:
        return None
    for role in roles:
        if _squeezed(role) == squeezed:
            return role
    ending = [role for role in roles if role.split() and _squeezed(role.split()[-1]) == squeezed]
    return ending[0] if len(ending) == 1 else None
