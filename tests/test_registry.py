"""Games are plug-ins found through the entry-point group `botarena.games`: the built-in four
and any installed package's, a broken one reported in one line without breaking the rest."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import botarena
from botarena.core import registry

TOY = """
from botarena.core.rules import GameInfo

INFO = GameInfo(name="toy", title="Toy Game", min_seats=2, max_seats=3,
                seat_names=("A", "B", "C"), turn_model="sequential", rules_version="toy-1")
"""


def install(site: Path, package: str, version: str, entries: str) -> None:
    """A package as pip leaves it: its metadata folder with an entry_points.txt."""
    metadata = site / f"{package}-{version}.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n"
    )
    (metadata / "entry_points.txt").write_text(
        f"[console_scripts]\nx = y:z\n\n[botarena.games]\n{entries}\n"
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder on PYTHONPATH holding a working plug-in, a broken one and a name clash."""
    install(tmp_path, "toy_games", "1.2", "toy = toygame")
    (tmp_path / "toygame.py").write_text(TOY)
    install(tmp_path, "broken_games", "0.1", "broken = brokengame\nlate = toygame:INFO")
    (tmp_path / "brokengame.py").write_text("raise ImportError('no module named zzz')\n")
    install(tmp_path, "clash_games", "3.0", "amazes = toygame")
    return tmp_path


def botarena_with(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site), "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_the_four_games_are_registered_by_botarena_itself() -> None:
    assert {
        name: (entry.module, entry.package)
        for name, entry in registry.entries().items()
        if entry.package == "botarena"
    } == {
        "amazes": ("botarena.games.amazes", "botarena"),
        "ants": ("botarena.games.ants", "botarena"),
        "falldown": ("botarena.games.falldown", "botarena"),
        "labyrinth": ("botarena.games.labyrinth", "botarena"),
    }


def test_the_version_is_the_installed_package_s() -> None:
    text = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    assert f'\nversion = "{botarena.__version__}"\n' in text


def test_games_lists_plug_ins_with_their_package_and_reports_broken_ones(site: Path) -> None:
    run = botarena_with(site, "games")
    assert run.returncode == 0
    rows = [line.split("│")[1:6] for line in run.stdout.splitlines() if line.startswith("│")]
    others = {name for name, entry in registry.entries().items() if entry.package != "botarena"}
    # installed plug-ins (e.g. examples/connect4) are left out of the comparison
    assert [[cell.strip() for cell in row] for row in rows if row[0].strip() not in others] == [
        ["amazes", "CodeCup Amazes", "2", "sequential", f"botarena {botarena.__version__}"],
        [
            "ants",
            "Ants (Google AI Challenge 2011)",
            "2-10",
            "simultaneous",
            f"botarena {botarena.__version__}",
        ],
        [
            "falldown",
            "JavaChallenge 2015 Falldown",
            "4",
            "sequential",
            f"botarena {botarena.__version__}",
        ],
        [
            "labyrinth",
            "The Ever-Changing Labyrinth",
            "2",
            "roles",
            f"botarena {botarena.__version__}",
        ],
        ["toy", "Toy Game", "2-3", "sequential", "toy_games 1.2"],
    ]
    assert sorted(run.stderr.splitlines()) == [
        "botarena: warning: game 'amazes' of package clash_games ignored: the name is already"
        " taken by package botarena",
        "botarena: warning: game 'broken' of package broken_games is broken: ImportError: no"
        " module named zzz",
        "botarena: warning: game 'late' of package broken_games ignored: 'toygame:INFO' is not"
        ' a module name (NAME = "package.module")',
    ]


def test_a_broken_plug_in_does_not_touch_start_up_or_other_games(site: Path) -> None:
    version = botarena_with(site, "--version")
    assert (version.returncode, version.stdout) == (0, f"botarena {botarena.__version__}\n")
    assert "broken" not in version.stderr
    play = botarena_with(
        site,
        "play",
        "amazes",
        "builtin:amazes/random",
        "builtin:amazes/random",
        "--seed",
        "1",
        "--json",
    )
    assert play.returncode == 0, play.stderr
    assert "broken" not in play.stderr


def test_playing_a_broken_plug_in_is_one_user_error(site: Path) -> None:
    run = botarena_with(site, "play", "broken", "a", "b")
    assert run.returncode == 2
    assert run.stderr.splitlines()[-1] == (
        "botarena: error: game 'broken' of package"
        " broken_games is broken: ImportError: no module"
        " named zzz"
    )
    assert "Traceback" not in run.stderr


def test_an_unknown_game_names_the_installed_ones(site: Path) -> None:
    run = botarena_with(site, "games", "nosuch")
    assert run.returncode == 2
    installed = ", ".join([*registry.names(), "toy"])
    assert run.stderr.splitlines()[-1] == (
        f"botarena: error: unknown game 'nosuch' (installed: {installed})"
    )
