"""`verify` is a verifier: any change to a replay's result or header (seed, options, map)
answers 1 (differs) or 2 (not a replay the rules accept), never 0; a malformed document is
exit 2 with one line naming the field."""

from __future__ import annotations

import copy
import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import botarena
from botarena.core.replay import ReplayError, load, save, verify

GAMES = {
    "amazes": (["builtin:amazes/random", "builtin:amazes/random"], {"turns": 12}),
    "ants": (["builtin:ants/greedy", "builtin:ants/random"], {"turns": 8}),
    "falldown": (["builtin:falldown/random"] * 3 + ["builtin:falldown/hunter"], {"turns": 16}),
    "labyrinth": (
        ["builtin:labyrinth/wallfollower", "builtin:labyrinth/static"],
        {"max_rounds": 1},
    ),
}


@pytest.fixture(scope="module")
def replays(tmp_path_factory) -> dict[str, dict[str, Any]]:
    """One short recorded game per game, as `load` reads it back."""
    folder = tmp_path_factory.mktemp("replays")
    documents = {}
    for game, (bots, options) in GAMES.items():
        path = folder / f"{game}.json.gz"
        botarena.play(game, bots, seed=7, replay=path, **options)
        documents[game] = load(path)
        assert verify(documents[game]).ok
    return documents


def answer(document: Any, tmp_path: Path) -> int:
    """The exit code `botarena verify` gives for `document`, computed in-process as the
    command does (0 ok, 1 differs, 2 unreadable) after a save/load round trip."""
    path = tmp_path / "mutated.json"
    path.write_text(json.dumps(document))
    try:
        verdict = verify(load(path))
    except (ReplayError, ValueError) as exc:
        assert "\n" not in str(exc)
        return 2
    return 0 if verdict.ok else 1


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside `value` (dict keys and list indices)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)

# what `verify` attests: the result, and the header's inputs (game, rules, seed, options, the
# game's header with the map, the initial frame, the handshake's faults)
ATTESTED = (
    "result",
    "game",
    "rules_version",
    "seed",
    "options",
    "header",
    "initial_frame",
    "handshake_faults",
)


@pytest.mark.slow
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_change_to_the_result_or_header_is_never_ok(replays, tmp_path, data) -> None:
    game = data.draw(st.sampled_from(sorted(replays)))
    original = replays[game]
    document = copy.deepcopy(original)
    top = data.draw(st.sampled_from(ATTESTED))
    path = data.draw(st.sampled_from(paths(document[top], (top,))))
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    how = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if how == "delete" and isinstance(parent, dict | list) and len(path) > 1:
        del parent[path[-1]]
    elif how == "add" and isinstance(parent[path[-1]], dict | list):
        target = parent[path[-1]]
        if isinstance(target, dict):
            target[data.draw(st.text(min_size=1, max_size=5))] = data.draw(JSON_VALUES)
        else:
            target.append(data.draw(JSON_VALUES))
    else:
        parent[path[-1]] = data.draw(JSON_VALUES)
    if json.dumps(document, sort_keys=True) == json.dumps(original, sort_keys=True):
        return  # the draw changed nothing
    header = document.get("header")
    label = header.get("map_name") if isinstance(header, dict) else None
    if (
        path == ("header", "map_name")
        and isinstance(label, str)
        and not label.startswith("builtin:")
    ):
        return  # a user's map file name is a label (docs/limits.md)
    assert answer(document, tmp_path) in (1, 2)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        (("result", "players", 0, "rank"), 5),
        (("result", "players", 1, "status"), "crashed"),
        (("result", "players", 0, "faults"), 3),
        (("result", "turns"), -4),
        (("result", "players", 0, "time_ms"), 99999.0),
        (("result", "players", 0, "bot"), "x"),
        (("result", "end_reason"), "resign"),
        (("result", "seed"), 8),
    ],
)
def test_an_edited_result_differs(replays, tmp_path, field, value) -> None:
    for game, original in replays.items():
        document = copy.deepcopy(original)
        parent = document
        for key in field[:-1]:
            parent = parent[key]
        parent[field[-1]] = value
        assert answer(document, tmp_path) == 1, game


@pytest.mark.parametrize(
    ("seed", "words"),
    [
        ("abc", "seed 'abc' is not a whole number"),
        (None, "seed None is not a whole number"),
        (1.5, "seed 1.5 is not a whole number"),
        (-1, "seed -1 is outside 0 to 2**63-1"),
        (10**100, "is outside 0 to 2**63-1"),
        (True, "seed True is not a whole number"),
    ],
)
def test_a_seed_play_would_refuse_is_unreadable(replays, tmp_path, seed, words) -> None:
    document = copy.deepcopy(replays["amazes"])
    document["seed"] = seed
    path = tmp_path / "r.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ReplayError, match="cannot rebuild the game: ") as caught:
        verify(load(path))
    assert words in str(caught.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"bogus": 1}, "unknown option 'bogus' for amazes (known: turns, budget_ms, clock)"),
        ({"turns": -5}, "option turns: -5 is below the minimum 1"),
        (
            {"turns": 10**30},
            "option turns: 1000000000000000000000000000000 is above the maximum 10000",
        ),
        ({"turns": "abc"}, "option turns: 'abc' is not valid (expected a whole number)"),
        ({"turns": 12.0}, "option turns: '12.0' is not valid (expected a whole number)"),
        ({"turns": True}, "option turns: 'True' is not valid (expected a whole number)"),
    ],
)
def test_options_go_through_plays_checks(replays, tmp_path, change, message) -> None:
    document = copy.deepcopy(replays["amazes"])
    document["options"].update(change)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ReplayError) as caught:
        verify(load(path))
    assert str(caught.value) == f"cannot rebuild the game: {message}"


def test_a_missing_option_is_unreadable(replays, tmp_path) -> None:
    document = copy.deepcopy(replays["amazes"])
    del document["options"]["budget_ms"]
    assert answer(document, tmp_path) == 2


def test_ants_options_nan_and_range_ends_are_refused(replays, tmp_path) -> None:
    for change in (
        {"cutoff_percent": "nan"},
        {"food_turn": [0, 1]},
        {"food_rate": -1},
        {"food_visible": [-3, 5]},
    ):
        document = copy.deepcopy(replays["ants"])
        document["options"].update(change)
        assert answer(document, tmp_path) == 2, change


def malformed(document: dict[str, Any], field: str) -> None:
    """Apply one of the malformed-document cases the issue lists."""
    act = document["steps"][0]["acts"][0]
    if field == "reply is a number":
        act.pop("packed", None)
        act["reply"] = 5
    elif field == "fault is null":
        act["fault"] = None
    elif field == "reply missing":
        act.pop("reply", None)
        act.pop("packed", None)
    elif field == "frame missing":
        del document["steps"][0]["frame"]
    elif field == "steps a string":
        document["steps"] = "abc"
    elif field == "a step a number":
        document["steps"][0] = 3
    elif field == "result a string":
        document["result"] = "won"
    elif field == "header a list":
        document["header"] = []
    elif field == "schema_version a string":
        document["schema_version"] = "1"


MALFORMED = {
    "reply is a number": "malformed replay: steps[0].acts[0].reply: Expected `str`, got `int`",
    "fault is null": "malformed replay: steps[0].acts[0].fault: Expected `array`, got `null`",
    "reply missing": "malformed replay: steps[0].acts[0] needs exactly one of 'reply' and 'packed'",
    "frame missing": "malformed replay: steps[0]: Object missing required field `frame`",
    "steps a string": "malformed replay: steps: Expected `array`, got `str`",
    "a step a number": "malformed replay: steps[0]: Expected `object`, got `int`",
    "result a string": "malformed replay: result: Expected `object`, got `str`",
    "header a list": "malformed replay: header: Expected `object`, got `array`",
    "schema_version a string": "malformed replay: schema_version '1' is not a whole number",
}


@pytest.mark.parametrize("field", sorted(MALFORMED))
def test_malformed_documents_exit_2_naming_the_field(replays, tmp_path, field) -> None:
    document = copy.deepcopy(replays["amazes"])
    malformed(document, field)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    done = subprocess.run(
        [sys.executable, "-m", "botarena", "verify", str(path)], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "",
        f"botarena: error: {path}: {MALFORMED[field]}\n",
    )


def test_a_corrupt_packed_ants_reply_is_unreadable(replays, tmp_path) -> None:
    document = copy.deepcopy(replays["ants"])
    packed = [act for step in document["steps"] for act in step["acts"] if "packed" in act]
    assert packed, "the Ants replay packs its orders"
    packed[0]["packed"] = "nnnn/9,x"
    path = tmp_path / "bad.json.gz"
    save(document, path)
    with pytest.raises(ReplayError, match="does not unpack"):
        verify(load(path))


@pytest.mark.slow
def test_deep_nesting_and_huge_inflation_are_refused_in_bounded_memory(tmp_path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(ReplayError, match="nests arrays or objects more than 64 deep"):
        load(deep)
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * (300 << 20), compresslevel=9))
    with pytest.raises(ReplayError, match="inflates to more than 256 MiB"):
        load(bomb)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_edited_seed_shows_in_what_the_rules_draw_from_it(replays, tmp_path, game) -> None:
    """The seed edited where it stands twice (`seed`, `result.seed`): the map, starts and
    everything else the rules draw from the seed are drawn again and compared (#25); leaving
    out the header's `map_from` does not take the seed's check away."""
    document = copy.deepcopy(replays[game])
    assert document["header"]["map_from"] == "seed"
    for edited in (document, document["result"]):
        edited["seed"] = 8
    assert answer(document, tmp_path) == 1
    if game == "amazes":
        assert "seed 8" in verify(document).message
    del document["header"]["map_from"]
    assert answer(document, tmp_path) == 1


def test_a_game_on_a_given_map_verifies_from_its_header(tmp_path) -> None:
    path = tmp_path / "maze03.json.gz"
    botarena.play(
        "amazes", ["builtin:amazes/random"] * 2, seed=5, replay=path, map="amazes:maze03",
        turns=12,
    )  # fmt: skip
    document = load(path)
    assert document["header"]["map_from"] == "given"
    assert verify(document).ok
    document["header"]["map_from"] = "seed"  # claimed drawn from the seed: it is not
    assert answer(document, tmp_path) == 1
