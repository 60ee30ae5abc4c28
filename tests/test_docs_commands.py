"""Every shell command in README.md and docs/ runs as written (the ```sh blocks, in order).

Each document's commands run in a fresh folder of their own with the installed package, one
after the other (a later command may read what an earlier one wrote). The docs write a user's
own bot as one of `PLACEHOLDERS`; the test runs the game's built-in bot as a process in its
place. The files the docs take as given (an engine's result, a saved page) are `FIXTURES`.
What a test cannot run (an install, servers, the network, a browser) is listed in `NOT_RUN`.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from testdata import ANTS_GOLDEN, DATA, falldown_golden

ROOT = Path(__file__).resolve().parent.parent
DOCS = [
    ROOT / "README.md",
    *sorted(
        doc for doc in (ROOT / "docs").rglob("*.md") if not {"rules", "research"} & set(doc.parts)
    ),
]
"""The docs a user reads: docs/rules/ and docs/research/ hold the contests' texts and notes
on their original engines (whose commands run those engines), kept as they were."""
FENCE = re.compile(r"^```(\S*)\n(.*?)^```", re.S | re.M)
LANGUAGES = {"sh", "text", "json", "python", "toml", "js"}
"""A fence names its language; `sh` blocks are commands that run, `text` is anything else."""

PLACEHOLDERS = re.compile(r"\./(mybot-v2|mybot-v1|mybot|my_bot|late-bot)(?![\w.-])")
PROCESS_BOTS = {
    "amazes": "explorer",
    "falldown": "hunter",
    "ants": "greedy",
    "labyrinth": "cartographer",
}
"""The built-in bot a placeholder stands for in each game (run as a process)."""
NAMES_BOTS = ("botarena play ", "botarena tournament new ", "botarena tournament add-bot ")
"""Commands whose bots take `NAME=SPEC` (`compare` and `update-bot` take a bare SPEC)."""

POSTS = ROOT / "src" / "botarena" / "games" / "labyrinth" / "posts"
SCRAPE = DATA / "labyrinth_scrape"
FIXTURES = {
    "result.json": lambda: falldown_golden() / "attack_heavy" / "bookmaker.json",
    "0.replay.gz": lambda: ANTS_GOLDEN / "tutorial1_s1_Hunter-Greedy.replay.gz",
    "adventurers.md": lambda: POSTS / "cartographer.md",
    "master.md": lambda: POSTS / "warden.md",
    "post.md": lambda: POSTS / "wallfollower.md",
    "answers.json": lambda: SCRAPE / "answers-page1.json",
    "answers-1.json": lambda: SCRAPE / "answers-page1.json",
    "answers-2.json": lambda: SCRAPE / "answers-page2.json",
    "question.html": lambda: SCRAPE / "question-page.html",
}
"""A file the docs name as the user's own -> the real one of its kind the test uses."""

NOT_RUN = {
    "python3 -m venv .venv": "installs the package: what .ci/run does from a fresh clone",
    "--dask tcp://": "needs a Dask cluster",
    "dask scheduler": "starts a cluster's server",
    "dask worker": "starts a cluster's worker",
    "--watch": "opens the viewer in a browser and serves until it is closed",
    "--url ": "reads the network",
    "python bench/run.py": "a benchmark of the repository, minutes long",
    "botarena demo": "45 s of every game: tests/test_tournament_demo.py runs it and reads it",
}
"""A substring of a command -> why the test does not run it."""

COMPARE = "botarena compare "
COMPARE_CAP = 4
"""A `compare` without `--games` plays until its SPRT decides, up to 2000 games (208 for a
strong bot, two minutes), and one with `--games N` plays them all (a 12-game Falldown
compare took 32 s): the test caps both at this many, as the command runs as written
either way."""
GAMES_COUNT = re.compile(r"--games (\d+)")

EXITS = {"labyrinth scrape": 1}
"""A substring of a command -> the exit status its documentation promises for the test's
files (the sample answers include rejected ones: scrape exits 1, docs/games/labyrinth.md)."""


def blocks(doc: Path) -> list[tuple[str, str]]:
    """(language, body) of every fenced block of `doc`."""
    return [(match.group(1), match.group(2)) for match in FENCE.finditer(doc.read_text())]


def commands(body: str) -> list[str]:
    """The commands of an `sh` block: a line, with its `\\` continuations, or a `for` loop
    through its `done`."""
    found: list[str] = []
    current: list[str] = []
    for line in body.splitlines():
        if not current and not line.strip():
            continue
        current.append(line)
        if line.endswith("\\") or (current[0].startswith("for ") and line.strip() != "done"):
            continue
        found.append("\n".join(current))
        current = []
    assert not current, f"an unfinished command: {current}"
    return found


def substituted(command: str, game: str | None) -> str:
    """`command` with each placeholder bot replaced by `game`'s built-in bot as a process (and
    a compare's games capped)."""
    if command.startswith(COMPARE):
        if "--games" not in command:
            command = f"{COMPARE}--games {COMPARE_CAP} {command[len(COMPARE) :]}"
        command = GAMES_COUNT.sub(lambda m: f"--games {min(int(m[1]), COMPARE_CAP)}", command)
    if not PLACEHOLDERS.search(command):
        return command
    assert game, f"a placeholder bot before any game is named: {command}"
    bot = shlex.quote(f"{sys.executable} -m botarena.games.{game}.bots.{PROCESS_BOTS[game]}")

    def named(match: re.Match[str]) -> str:  # under the placeholder's name, as a user's bot
        after_name = match.start() > 0 and command[match.start() - 1] == "="
        return bot if after_name or not command.startswith(NAMES_BOTS) else f"{match[1]}={bot}"

    return PLACEHOLDERS.sub(named, command)


def test_every_fence_names_its_language() -> None:
    untagged = [
        f"{doc.relative_to(ROOT)}: {body.splitlines()[0] if body else ''}"
        for doc in DOCS
        for language, body in blocks(doc)
        if language not in LANGUAGES
    ]
    assert untagged == []


def test_commands_are_found_whole() -> None:
    body = "a \\\n  b\nfor x in 1; do\n    echo $x\ndone\n\nc  # note\n"
    assert commands(body) == ["a \\\n  b", "for x in 1; do\n    echo $x\ndone", "c  # note"]
    assert substituted("botarena compare a b --game amazes", None) == (
        "botarena compare --games 4 a b --game amazes"
    )
    assert substituted("botarena compare a b --games 40 --sprt 0,10", None) == (
        "botarena compare a b --games 4 --sprt 0,10"
    )
    assert substituted("botarena tournament run ladder --games 40", None) == (
        "botarena tournament run ladder --games 40"
    )
    assert substituted("botarena play amazes ./mybot ./mybot-v2 mine=./my_bot", "amazes") == (
        "botarena play amazes mybot={0} mybot-v2={0} mine={0}".format(
            shlex.quote(f"{sys.executable} -m botarena.games.amazes.bots.explorer")
        )
    )


RUNNABLE = [doc for doc in DOCS if any(language == "sh" for language, _ in blocks(doc))]


@pytest.mark.slow
@pytest.mark.parametrize("doc", RUNNABLE, ids=[str(d.relative_to(ROOT)) for d in RUNNABLE])
def test_documented_commands_run(doc: Path, tmp_path: Path) -> None:
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap (bwrap) is not installed: process bots need the sandbox")
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "BOTARENA_PROGRESS_SECONDS": "60",
    }
    game = None
    for name, source in FIXTURES.items():
        shutil.copy(source(), tmp_path / name)
    for language, body in blocks(doc):
        if language != "sh":
            continue
        for command in commands(body):
            named = re.search(r"(?:botarena play|--game) (\w+)", command)
            game = named.group(1) if named else game
            if any(marker in command for marker in NOT_RUN):
                continue
            program = command.split()[0]
            if shutil.which(program, path=env["PATH"]) is None and program != "for":
                pytest.skip(f"{program} is not installed ({doc.relative_to(ROOT)}: {command})")
            run = subprocess.run(
                ["bash", "-c", substituted(command, game)],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
                stdin=subprocess.DEVNULL,
            )
            expected = next((code for part, code in EXITS.items() if part in command), 0)
            assert run.returncode == expected, (
                f"{doc.relative_to(ROOT)}: {command}\n"
                f"exit {run.returncode}\n{run.stdout[-2000:]}"
                f"\n{run.stderr[-2000:]}"
            )
