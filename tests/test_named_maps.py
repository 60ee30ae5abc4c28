"""The official maps ship with botarena and are named `GAME:NAME` wherever a map file is
accepted (play, the Python API, tournaments); `botarena GAME maps` lists them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import botarena
from botarena.core.rules import GameError
from botarena.games import get_game
from testdata import AMAZES_MAZES


def botarena_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_amazes_lists_the_ten_official_mazes() -> None:
    listed = json.loads(botarena_cli("amazes", "maps", "--json").stdout)
    assert [row["map"] for row in listed] == [f"amazes:maze{n:02d}" for n in range(1, 11)]
    assert {(row["players"], row["size"]) for row in listed} == {(2, "25x25")}


def test_ants_lists_the_302_maps_of_2011_by_name_and_folder_where_a_name_is_taken_twice():
    listed = {row["map"]: row for row in json.loads(botarena_cli("ants", "maps", "--json").stdout)}
    assert len(listed) == 302
    # the headers of the official files: rows, cols, players
    assert listed["ants:maze_04p_01"] == {"map": "ants:maze_04p_01", "players": 4, "size": "60x90"}
    assert listed["ants:maze_04p_02"]["size"] == "72x72"  # maze/ comes first
    assert listed["ants:multi_hill_maze/maze_04p_02"]["size"] == "120x120"
    assert listed["ants:tutorial1"]["players"] == 2


def test_a_named_maze_is_the_official_file() -> None:
    amazes = get_game("amazes")
    assert (
        amazes.read_map("amazes:maze03").walls
        == amazes.load_map(str(AMAZES_MAZES / "maze03.txt")).walls
    )


@pytest.mark.slow
def test_play_and_the_python_api_take_a_map_name() -> None:
    run = botarena_cli(
        "play",
        "ants",
        *["builtin:ants/hold"] * 4,
        "--map",
        "ants:maze_04p_01",
        "-o",
        "turns=5",
        "--json",
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["turns"] == 5
    bots = ["builtin:amazes/random", "builtin:amazes/explorer"]
    by_name = botarena.play("amazes", bots, map="amazes:maze03", seed=1)
    by_path = botarena.play("amazes", bots, map=AMAZES_MAZES / "maze03.txt", seed=1)
    elsewhere = botarena.play("amazes", bots, seed=1)  # a maze drawn from the seed
    assert (by_name.turns, by_name.scores) == (by_path.turns, by_path.scores)
    assert (by_name.turns, by_name.scores) != (elsewhere.turns, elsewhere.scores)


@pytest.mark.parametrize(
    ("game", "spec", "message"),
    [
        (
            "amazes",
            "amazes:maze33",
            "--map amazes:maze33: no official map named 'maze33' (botarena amazes maps lists them)",
        ),
        (
            "amazes",
            "ants:maze03",
            "--map ants:maze03: no such file, and not one of amazes's"
            " maps (botarena amazes maps lists them)",
        ),
    ],
)
def test_a_wrong_name_is_one_line_naming_it(game: str, spec: str, message: str) -> None:
    with pytest.raises(GameError) as caught:
        get_game(game).read_map(spec)
    assert str(caught.value) == message
    run = botarena_cli("play", game, *[f"builtin:{game}/random"] * 2, "--map", spec)
    assert (run.returncode, run.stderr.strip()) == (2, f"botarena: error: {message}")


@pytest.mark.slow
def test_a_tournament_takes_map_names(tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    new = botarena_cli(
        "tournament",
        "new",
        "t",
        "--game",
        "ants",
        "--db",
        db,
        *[arg for n in range(4) for arg in ("--bot", f"b{n}=builtin:ants/hold")],
        "--maps",
        "ants:maze_04p_01",
        "-o",
        "turns=3",
        cwd=tmp_path,  # its replays go to ./replays
    )
    assert new.returncode == 0, new.stderr
    run = subprocess.run(
        [sys.executable, "-m", "botarena", "tournament", "run", "t", "--db", db, "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    games = json.loads(botarena_cli("tournament", "games", "t", "--db", db, "--json").stdout)
    assert games and all(game["status"] == "done" for game in games)
