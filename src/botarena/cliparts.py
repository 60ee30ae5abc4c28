"""What every command line of botarena shares (the top-level one, the tournament's, the
viewer's, compare's): a user error in one line, and `-o KEY=VALUE` options.

It sits below every command module, so none of them imports another's command line (the
layers of pyproject's import contracts).
"""

from __future__ import annotations

import sys
from typing import NoReturn

import typer


def fail(message: str) -> NoReturn:
    """A user error: one line on stderr, exit code 2."""
    print(f"botarena: error: {message}", file=sys.stderr)
    raise typer.Exit(2)


def parse_options(pairs: list[str]) -> dict[str, str]:
    """`KEY=VALUE` strings to a dict; a pair without `=` is a user error."""
    options = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            fail(f"option {pair!r} is not KEY=VALUE")
        options[key.strip()] = value.strip()
    return options
