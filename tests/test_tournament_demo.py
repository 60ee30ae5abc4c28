"""`botarena demo` end to end in an empty folder: four tournaments, their standings, replays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from botarena.tournament.demo import tournaments

pytestmark = pytest.mark.slow

OWN = ("demo-amazes", "demo-ants", "demo-falldown", "demo-labyrinth")
"""botarena's own games' demos; installed plug-ins (examples/connect4 in CI) add theirs."""


def botarena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
    )


def test_the_demo_plays_each_game_and_prints_standings(tmp_path: Path) -> None:
    run = botarena("demo", "--workers", "2", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    for game in ("amazes", "ants", "falldown", "labyrinth"):
        assert f"demo-{game} · {game}" in run.stdout
    assert "botarena tournament standings demo-amazes --db sqlite:///botarena-demo.db" in run.stdout
    # the commands to copy stay whole, however narrow the output (80 columns off a terminal)
    new = [line for line in run.stdout.splitlines() if "botarena tournament new NAME" in line]
    assert len(new) == 1 and new[0].endswith(" --bot ./mybot   (docs/tournaments.md)")
    assert (tmp_path / "botarena-demo.db").is_file()
    replays = {p.parent.name: 0 for p in (tmp_path / "replays").glob("*/*.json.gz")}
    for path in (tmp_path / "replays").glob("*/*.json.gz"):
        replays[path.parent.name] += 1
    # amazes: 2 bots x 2 seatings x 2; ants: 3 rotations of 3; falldown: 4 rotations of 4;
    # labyrinth: 2 adventurers x 2 maze masters
    own = {name: count for name, count in replays.items() if name in OWN}  # plug-ins aside
    assert own == {"demo-amazes": 4, "demo-ants": 3, "demo-falldown": 4, "demo-labyrinth": 4}
    db = "sqlite:///botarena-demo.db"
    standings = json.loads(
        botarena(
            "tournament", "standings", "demo-labyrinth", "--json", "--db", db, cwd=tmp_path
        ).stdout
    )
    assert sorted((row["role"], row["bot"]) for row in standings) == [
        ("adventurers", "cartographer"),
        ("adventurers", "wallfollower"),
        ("maze master", "static"),
        ("maze master", "warden"),
    ]
    replay = next((tmp_path / "replays" / "demo-amazes").iterdir())
    assert botarena("verify", str(replay), cwd=tmp_path).returncode == 0
    again = botarena("demo", "--workers", "0", cwd=tmp_path)  # finds its tournaments played
    assert again.returncode == 0, again.stderr
    assert again.stdout.count("games/s") == len(tournaments())  # one line per tournament
