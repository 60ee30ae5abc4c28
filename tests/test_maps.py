"""Shipped official maps: `--map GAME:NAME` in play, the API, tournaments; `botarena GAME maps`."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import botarena
from botarena.core import maps
from botarena.core.replay import load
from botarena.core.rules import GameError

CLI = [sys.executable, "-m", "botarena"]
MAZE03_SHA256 = "3cd2e5cb46cb820afa95a07733ddaa7780d7f9292ac9c0f436bab8be089a784a"
"""sha256 of maze03.txt as CodeCup published it with the Amazes rules (2010)."""
MAZE_04P_01_SHA256 = "b80d56016f43d110f2bfb3612f4697c10682d65edadf647d05f70ec03aea6b85"
"""sha256 of maps/maze/maze_04p_01.map of the 2011 contest's map repository."""
HOLD4 = ["builtin:ants/hold"] * 4


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_the_official_sets_are_shipped_whole_and_unchanged() -> None:
    amazes = maps.official_maps("amazes")
    assert list(amazes) == [f"maze{n:02d}" for n in range(1, 11)]
    digest = hashlib.sha256(amazes["maze03"].path.read_bytes()).hexdigest()
    assert digest == MAZE03_SHA256
    ants = maps.official_maps("ants")
    assert len(ants) == 302
    assert hashlib.sha256(ants["maze_04p_01"].path.read_bytes()).hexdigest() == (
        MAZE_04P_01_SHA256)
    # the one stem two folders share is named by folder, the others by stem alone
    assert [name for name in ants if "/" in name] == ["maze/maze_04p_02",
                                                      "multi_hill_maze/maze_04p_02"]
    assert maps.official_maps("falldown") == {} == maps.official_maps("labyrinth")


@pytest.mark.slow
def test_maps_command_lists_name_players_and_size() -> None:
    listed = run("ants", "maps")
    assert listed.returncode == 0
    rows = {line.split()[0]: line.split()[1:] for line in listed.stdout.splitlines()[1:-1]}
    assert len(rows) == 302
    assert rows["maze_04p_01"] == ["4", "60x90"]  # the file's `players 4`, `rows 60`, `cols 90`
    assert rows["tutorial1"] == ["2", "43x39"]
    amazes = run("amazes", "maps").stdout.splitlines()
    assert amazes[0].split() == ["name", "players", "size"]
    assert [line.split() for line in amazes[1:-1]] == [[f"maze{n:02d}", "2", "25x25"]
                                                        for n in range(1, 11)]
    for game in ("falldown", "labyrinth"):
        none = run(game, "maps")
        assert none.returncode == 0 and none.stdout.startswith(f"{game} ships no maps")


def test_a_named_maze_plays_exactly_as_its_file(tmp_path: Path) -> None:
    path = maps.official_maps("amazes")["maze03"].path
    games = {}
    for label, value in (("name", "amazes:maze03"), ("file", str(path))):
        replay = tmp_path / f"{label}.json"
        done = run("play", "amazes", "builtin:amazes/explorer", "builtin:amazes/random",
                   "--seed", "5", "--map", value, "--replay", str(replay), "--json")
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        result.pop("replay")
        for player in result["players"]:
            player.pop("time_ms")
        games[label] = (result, load(replay)["header"]["maze"])
    assert games["name"] == games["file"]
    assert games["name"][1] == path.read_text()  # the replay carries the official art


def test_python_api_takes_names() -> None:
    result = botarena.play("ants", HOLD4, map="ants:maze_04p_01", seed=1, turns=3)
    assert len(result.players) == 4 and result.turns == 3
    with pytest.raises(GameError, match=r"^ants:maze_04p_01 is a 4-player map, 2 bots given"):
        botarena.play("ants", HOLD4[:2], map="ants:maze_04p_01", seed=1)
    state = botarena.new_state("ants", map="ants:maze_04p_01", seats=4)
    assert (state.map.rows, state.map.cols) == (60, 90)


@pytest.mark.parametrize(("value", "message"), [
    ("amazes:maze11", "amazes:maze11: no such amazes map (`botarena amazes maps` lists them)"),
    ("ants:maze03", "ants:maze03: a map of ants, not of amazes"),
])
def test_unknown_names_fail_in_one_line(value: str, message: str) -> None:
    done = run("play", "amazes", "builtin:amazes/random", "builtin:amazes/random", "--map", value)
    assert (done.returncode, done.stderr) == (2, f"botarena: error: {message}\n")


def test_a_shared_stem_names_both_maps() -> None:
    with pytest.raises(GameError, match="2 maps have this name: ants:maze/maze_04p_02,"
                                        " ants:multi_hill_maze/maze_04p_02"):
        maps.resolve("ants", "ants:maze_04p_02")
    assert maps.resolve("ants", "ants:multi_hill_maze/maze_04p_02").endswith(
        "multi_hill_maze/maze_04p_02.map")


def test_an_existing_path_with_a_colon_is_a_path(tmp_path: Path) -> None:
    odd = tmp_path / "amazes:maze03"
    odd.write_text("not a maze\n")
    done = run("play", "amazes", "builtin:amazes/random", "builtin:amazes/random",
               "--map", "amazes:maze03", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("botarena: error: amazes:maze03:")
    assert "no such" not in done.stderr  # it read the file, not the shipped maze


@pytest.mark.slow
def test_tournament_keeps_the_name_and_plays_the_map(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    made = run("tournament", "new", "cup", "--game", "ants", *[
        arg for bot in ("hold", "random", "greedy", "swarm")
        for arg in ("--bot", f"builtin:ants/{bot}")], "--maps", "ants:maze_04p_01",
        "-o", "turns=2", "--db", db, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    played = run("tournament", "run", "cup", "--workers", "1", "--db", db, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    games = json.loads(run("tournament", "games", "cup", "--json", "--db", db,
                           cwd=tmp_path).stdout)
    assert len(games) == 4  # one table of four, in its four seat rotations
    for game in games:
        header = load(tmp_path / game["replay"])["header"]
        assert header["map_name"] == "ants:maze_04p_01"
        assert header["map"].splitlines()[:3] == ["rows 60", "cols 90", "players 4"]
