"""The 2011 engine's own replays: botarena's rules must reproduce every one of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from botarena.games.ants import replay2011
from botarena.games.ants.mapfile import load_map
from botarena.games.ants.rules import AntsState
from testdata import ANTS_GOLDEN, ants_maps

GOLDEN = sorted(str(path) for path in ANTS_GOLDEN.glob("*.gz"))
MAPS = ants_maps()
MAP_OF = {"maze_04p_02": "multi_hill_maze/maze_04p_02.map"}


def test_all_seven_golden_replays_are_present() -> None:
    assert len(GOLDEN) == 7


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: Path(p).name.split(".")[0])
def test_check_replay_passes(path: str) -> None:
    ok, message = replay2011.check_replay(path)
    assert ok, message


def _map_file(path: str) -> Path:
    name = Path(path).name.split("_s")[0]
    if name in MAP_OF:
        return MAPS / MAP_OF[name]
    return next(MAPS.glob(f"*/{name}.map"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: Path(p).name.split(".")[0])
def test_seeded_food_equals_the_2011_engine(path: str, monkeypatch) -> None:
    """With the engine seed and the official map, botarena's own random food (not the
    replay's) is the 2011 engine's, food item for food item."""
    document = replay2011.read_2011(path)
    data = document["replaydata"]
    ants_map = load_map(str(_map_file(path)))
    original = AntsState.__init__

    def seeded(self, seed, options, _map, food_script=None, spawn_script=None):
        options = dict(
            options,
            food_rate=(5, 11),
            food_turn=(19, 37),
            food_start=(75, 175),
            food_visible=(3, 5),
        )
        original(self, seed, options, ants_map)

    monkeypatch.setattr(AntsState, "__init__", seeded)
    state = replay2011.resimulate(document)
    ours = replay2011.replay_data(state)
    assert (ours["food_rate"], ours["food_turn"], ours["food_start"]) == (
        data["food_rate"],
        data["food_turn"],
        data["food_start"],
    )
    assert ours["food"] == data["food"]
    assert ours["ants"] == data["ants"]
    assert ours["map"]["data"] == data["map"]["data"]
    assert replay2011.compare(document, state) is None


@pytest.mark.slow
def test_cli_exit_codes(tmp_path: Path) -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "check-replay", GOLDEN[0]],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    broken = tmp_path / "broken.replay"
    broken.write_text("{not json")
    bad = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "check-replay", str(broken)],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "broken.replay" in bad.stderr
    import gzip
    import json

    document = json.loads(gzip.decompress(Path(GOLDEN[0]).read_bytes()))
    del document["replaydata"]["ants"]
    broken.write_text(json.dumps(document))
    missing = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "check-replay", str(broken)],
        capture_output=True,
        text=True,
    )
    assert (missing.returncode, missing.stderr) == (
        2,
        f"botarena: error: {broken}: malformed 2011 replay: replaydata:"
        " Object missing required field `ants`\n",
    )
    export = subprocess.run(
        [
            sys.executable,
            "-m",
            "botarena",
            "ants",
            "export-replay",
            GOLDEN[0],
            str(tmp_path / "out.replay"),
        ],
        capture_output=True,
        text=True,
    )
    assert export.returncode == 2 and export.stderr.count("\n") == 1
    assert "not a botarena replay" in export.stderr


def test_a_tampered_replay_fails_at_the_first_difference(tmp_path: Path) -> None:
    import gzip
    import json

    path = next(p for p in GOLDEN if "tutorial1" in p)
    document = json.loads(gzip.decompress(Path(path).read_bytes()))
    document["replaydata"]["scores"][1][20] += 1
    document["replaydata"]["hills"][0][3] = 30
    tampered = tmp_path / "t.replay"
    tampered.write_text(json.dumps(document))
    ok, message = replay2011.check_replay(tampered)
    assert not ok
    assert "first difference at turn 20" in message and "score of player 1" in message
    result = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "check-replay", str(tampered)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
