"""The proof that a game is a plug-in: examples/connect4, a package written only against the
documented contract (docs/new-game.md), is found, played by process bots in any language,
run in a tournament, verified and shown by the viewer with its own renderer.

The suite installs nothing: CI installs the example (`pip install -e examples/connect4` in
.ci/run); elsewhere these tests skip until it is installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from botarena.core.entrypoints import entries

pytestmark = pytest.mark.skipif(
    "connect4" not in entries(),
    reason="examples/connect4 is not installed (pip install -e examples/connect4)",
)

# Shell bots: read the header and the 6 board rows, answer always the same column.
ALWAYS = "sh -c 'while read h; do for i in 1 2 3 4 5 6; do read r; done; echo {}; done'"


def botarena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "200"},
    )


def test_it_is_listed_with_its_package(tmp_path: Path) -> None:
    run = botarena("games", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    row = next(line for line in run.stdout.splitlines() if "connect4" in line)
    cells = [cell.strip() for cell in row.split("│")[1:6]]
    assert cells == ["connect4", "Connect Four", "2", "sequential", "botarena_connect4 1.0.0"]


def test_shell_bots_play_it_and_the_replay_verifies(tmp_path: Path) -> None:
    """X always in column 0, O always in column 1: X's fourth disc makes four down, at the
    seventh move of the game."""
    replay = tmp_path / "c4.json.gz"
    run = botarena(
        "play",
        "connect4",
        ALWAYS.format(0),
        ALWAYS.format(1),
        "--seed",
        "1",
        "--json",
        "--replay",
        str(replay),
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert (result["turns"], result["end_reason"]) == (7, "four in a row")
    assert [(p["score"], p["rank"], p["status"]) for p in result["players"]] == [
        (2, 1, "ok"),
        (0, 2, "ok"),
    ]
    assert botarena("verify", str(replay), cwd=tmp_path).returncode == 0


def test_a_move_into_a_full_column_forfeits(tmp_path: Path) -> None:
    """Both in column 0: six discs fill it, X's seventh move there is invalid, X forfeits."""
    run = botarena(
        "play",
        "connect4",
        ALWAYS.format(0),
        ALWAYS.format(0),
        "--seed",
        "1",
        "--json",
        cwd=tmp_path,
    )
    result = json.loads(run.stdout)
    assert (result["turns"], result["end_reason"]) == (6, "forfeit")
    assert [(p["score"], p["status"]) for p in result["players"]] == [(0, "invalid"), (2, "ok")]


@pytest.mark.slow  # seconds on 2 cores
def test_a_python_process_bot_and_a_tournament(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    first = f"first={sys.executable} -m botarena_connect4.bots.first"
    made = botarena(
        "tournament",
        "new",
        "c4",
        "--game",
        "connect4",
        "--bot",
        first,
        "--bot",
        "builtin:connect4/random",
        "--games-per-pair",
        "2",
        "--seed",
        "3",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    assert "4 games scheduled" in made.stdout
    assert (
        botarena("tournament", "run", "c4", "--workers", "1", "--db", db, cwd=tmp_path).returncode
        == 0
    )
    standings = json.loads(
        botarena("tournament", "standings", "c4", "--json", "--db", db, cwd=tmp_path).stdout
    )
    assert sorted((row["bot"], row["games"]) for row in standings) == [
        ("first", 4),
        ("random", 4),
    ]
    assert sum(row["wins"] + row["draws"] / 2 for row in standings) == 4


def test_the_viewer_uses_its_own_renderer(tmp_path: Path) -> None:
    from importlib import resources

    from starlette.requests import Request

    from botarena.web.server import renderer
    from botarena.web.viewdoc import page

    own = resources.files("botarena_connect4").joinpath("renderer.js").read_text()
    served = renderer(Request({"type": "http", "path_params": {"game": "connect4"}}))
    assert (served.status_code, served.body.decode()) == (200, own)
    assert '<script src="static/games/connect4.js"></script>' in page({"url": "x"}, inline=False)
    replay = tmp_path / "c4.json.gz"
    botarena(
        "play",
        "connect4",
        "builtin:connect4/first",
        "builtin:connect4/random",
        "--seed",
        "2",
        "--replay",
        str(replay),
        cwd=tmp_path,
    )
    html = tmp_path / "c4.html"
    run = botarena("view", str(replay), "--html", str(html), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert html.stat().st_size > 1000


@pytest.mark.slow  # seconds on 2 cores
def test_a_ladder_of_process_bots(tmp_path: Path) -> None:
    """A ladder knows nothing of the game: the plug-in's bots are matched, seated and rated
    like any other's."""
    db = f"sqlite:///{tmp_path / 'l.db'}"
    made = botarena(
        "tournament", "new", "c4", "--game", "connect4", "--schedule", "ladder",
        "--bot", f"first={sys.executable} -m botarena_connect4.bots.first",
        "--bot", "builtin:connect4/random", "--bot", "again=builtin:connect4/random",
        "--db", db, cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    run = botarena("tournament", "run", "c4", "--games", "6", "--workers", "1", "--db", db,
                   cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    standings = json.loads(
        botarena("tournament", "standings", "c4", "--json", "--db", db, cwd=tmp_path).stdout
    )
    assert sorted(row["bot"] for row in standings) == ["again", "first", "random"]
    assert sum(row["games"] for row in standings) == 12  # 6 games of 2 seats
    games = json.loads(botarena("tournament", "games", "c4", "--json", "--db", db,
                                cwd=tmp_path).stdout)  # fmt: skip
    assert len(games) == 6 and {g["status"] for g in games} == {"done"}
