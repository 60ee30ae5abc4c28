"""`botarena GAME starter LANG`: every game's starter in Python, C++ and Java is written,
built (by the tournament's build step) and plays a whole game against built-in bots without
a fault; the command's messages, refusals and Ants' older `starter FILE` form."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from botarena.core.starters import file_name

TOOLS = {"python": (), "cpp": ("g++",), "java": ("javac", "java")}
# game, role, the seats (BOT marks the starter's), options, the end reasons of a whole game
GAMES = [
    ("amazes", None, ["BOT", "builtin:amazes/explorer"], [], {"turns", "sudden_death"}),
    (
        "falldown",
        None,
        ["BOT", "builtin:falldown/hunter", "builtin:falldown/random", "builtin:falldown/random"],
        ["-o", "turns=400"],
        {"turns", "survivor"},
    ),
    (
        "ants",
        None,
        ["BOT", "builtin:ants/random"],
        ["-o", "turns=60"],
        {"turn limit reached", "lone survivor", "food not being gathered", "rank stabilized"},
    ),
    (
        "labyrinth",
        "adventurers",
        ["BOT", "builtin:labyrinth/static"],
        ["-o", "max_rounds=2"],
        {"round_cap", "turns"},
    ),
    (
        "labyrinth",
        "master",
        ["builtin:labyrinth/wallfollower", "BOT"],
        ["-o", "max_rounds=2"],
        {"round_cap", "turns"},
    ),
]
STEMS = {"adventurers": "adventurers", "master": "master", None: "bot"}


def botarena(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )


@pytest.mark.slow
@pytest.mark.parametrize("language", ["python", "cpp", "java"])
@pytest.mark.parametrize(
    ("game", "role", "seats", "options", "ends"),
    GAMES,
    ids=[f"{game}-{role or 'bot'}" for game, role, *_ in GAMES],
)
def test_starter_builds_and_plays_a_whole_game(
    tmp_path, game, role, seats, options, ends, language
):
    missing = [tool for tool in TOOLS[language] if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed")
    from botarena.tournament.build import build_bot

    role_args = ["--role", role] if role else []
    made = botarena(game, "starter", language, "-o", str(tmp_path / "src"), *role_args)
    assert made.returncode == 0, made.stderr
    source = tmp_path / "src" / file_name(STEMS[role], language)
    assert made.stdout.splitlines()[0] == f"wrote {source}"
    spec = build_bot(source, tmp_path / "cache", name="starter")
    bots = [spec if seat == "BOT" else seat for seat in seats]
    played = botarena("play", game, *bots, "--seed", "5", *options, "--json")
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert [player["status"] for player in result["players"]] == ["ok"] * len(seats), result
    assert [player["faults"] for player in result["players"]] == [0] * len(seats)
    assert result["end_reason"] in ends


@pytest.mark.slow
def test_the_printed_commands_build_and_play(tmp_path):
    """What the command prints, run as printed from the folder it was run in."""
    made = botarena("amazes", "starter", "cpp", "-o", "mine", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    assert lines == [
        "wrote mine/bot.cpp",
        "build: g++ -O2 -o mine/bot mine/bot.cpp",
        "play:  botarena play amazes mine/bot builtin:amazes/explorer",
    ]
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    subprocess.run(shlex.split(lines[1].removeprefix("build: ")), cwd=tmp_path, check=True)
    play = shlex.split(lines[2].removeprefix("play:  "))[1:]
    result = json.loads(botarena(*play, "--json", cwd=tmp_path).stdout)
    assert result["players"][0]["status"] == "ok"


def test_messages_and_refusals(tmp_path):
    made = botarena("labyrinth", "starter", "java", "--role", "master", cwd=tmp_path)
    assert made.stdout.splitlines() == [
        "wrote Master.java",
        "build: javac -d . Master.java",
        "play:  botarena play labyrinth builtin:labyrinth/cartographer 'java -cp . Master'",
    ]
    assert (tmp_path / "Master.java").read_text().count("public class Master") == 1
    again = botarena("labyrinth", "starter", "java", "--role", "master", cwd=tmp_path)
    assert (again.returncode, again.stderr) == (
        2,
        "botarena: error: Master.java: already exists; not overwriting it\n",
    )
    wrong = botarena("falldown", "starter", "rust", cwd=tmp_path)
    assert (wrong.returncode, wrong.stderr) == (
        2,
        "botarena: error: unknown language 'rust'; choose python, cpp or java\n",
    )
    role = botarena("amazes", "starter", "python", "--role", "master", cwd=tmp_path)
    assert (role.returncode, role.stderr) == (
        2,
        "botarena: error: unknown role 'master'; amazes has bot\n",
    )


def test_ants_older_form_still_writes_the_python_starter(tmp_path):
    """`botarena ants starter FILE.py` as before; `ants starter python` writes the same bot."""
    old = botarena("ants", "starter", str(tmp_path / "mine.py"))
    assert old.returncode == 0, old.stderr
    new = botarena("ants", "starter", "python", "-o", str(tmp_path))
    assert new.returncode == 0, new.stderr
    assert (tmp_path / "mine.py").read_text() == (tmp_path / "bot.py").read_text()
