"""Which words name a role game's roles (core/roles.py): one rule for the command line,
the site's uploads and the starters' file names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from botarena.core.roles import role_named
from botarena.games import get_game
from botarena.tournament.manage import parse_bot_option

LABYRINTH = ["adventurers", "maze master"]


@pytest.mark.parametrize(
    "word",
    ["maze master", "Maze Master", "maze-master", "MAZE_MASTER", "mazemaster", "master", " Master"],
)
def test_every_spelling_of_the_maze_master_names_it(word: str) -> None:
    assert role_named(word, LABYRINTH) == "maze master"


@pytest.mark.parametrize("word", ["maze", "masters", "adventurer", "", "  ", "-", "bot"])
def test_a_word_naming_no_role_names_none(word: str) -> None:
    assert role_named(word, LABYRINTH) is None


def test_a_last_word_two_roles_end_with_names_neither() -> None:
    roles = ["red master", "blue master"]
    assert role_named("master", roles) is None
    assert role_named("Blue-Master", roles) == "blue master"


words = st.lists(st.text("abcdefghij", min_size=1, max_size=6), min_size=1, max_size=3)


@given(words, st.data())
def test_any_case_and_any_joiner_for_the_spaces_name_the_role(
    parts: list[str], data: st.DataObject
) -> None:
    role = " ".join(parts)
    joined = parts[0]
    for part in parts[1:]:
        joined += data.draw(st.sampled_from(["", " ", "-", "_", "  "])) + part
    spelled = "".join(c.upper() if data.draw(st.booleans()) else c for c in joined)
    assert role_named(spelled, [role, "zzzzzzz"]) == role


def test_the_command_line_takes_the_same_words_as_the_site() -> None:
    rules = get_game("labyrinth")
    for prefix in ("master", "Maze_Master", "maze-master"):
        request = parse_bot_option(rules, f"{prefix}:w=builtin:labyrinth/warden")
        assert (request.role, request.name, request.spec) == (
            "maze master",
            "w",
            "builtin:labyrinth/warden",
        )
    plain = parse_bot_option(rules, "builtin:labyrinth/warden")
    assert (plain.role, plain.spec) == (None, "builtin:labyrinth/warden")
