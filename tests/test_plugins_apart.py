"""One broken plug-in costs only itself (#34): a package whose entry_points.txt is not UTF-8,
a plug-in that calls sys.exit or raises KeyboardInterrupt at import, one whose rules raise
SystemExit, and a plug-in that is a single module (no package folder for a renderer)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import botarena

TOY = """
from botarena.core.rules import GameInfo

INFO = GameInfo(name="{name}", title="Toy Game", min_seats=2, max_seats=2,
                seat_names=("A", "B"), turn_model="sequential", rules_version="toy-1")
"""

BUILT_IN = ["amazes", "ants", "falldown", "labyrinth"]


def install(site: Path, package: str, entry_points: bytes) -> None:
    """A package as pip leaves it: its metadata folder with an entry_points.txt."""
    metadata = site / f"{package}-1.0.dist-info"
    metadata.mkdir(parents=True)
    (metadata / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
    (metadata / "entry_points.txt").write_bytes(entry_points)


def botarena_with(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(site), "COLUMNS": "200"},
    )


def python_with(site: Path, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(site)},
    )


def listed(run: subprocess.CompletedProcess[str]) -> list[str]:
    """The built-in games `botarena games` printed."""
    names = [line.split("│")[1].strip() for line in run.stdout.splitlines() if line.startswith("│")]
    return [name for name in names if name in BUILT_IN]


def test_metadata_that_is_not_utf8_breaks_nothing(tmp_path: Path) -> None:
    """Not even a botarena plug-in: its file is never decoded."""
    install(tmp_path, "latin_tools", b"[console_scripts]\ncaf\xe9 = caf\xe9:main\n")
    version = botarena_with(tmp_path, "--version")
    assert (version.returncode, version.stdout, version.stderr) == (
        0,
        f"botarena {botarena.__version__}\n",
        "",
    )
    games = botarena_with(tmp_path, "games")
    assert (games.returncode, listed(games), games.stderr) == (0, BUILT_IN, "")


def test_a_plug_in_whose_metadata_is_not_utf8_is_named(tmp_path: Path) -> None:
    install(tmp_path, "latin_games", b"[botarena.games]\njeu = jeu\n# \xe9t\xe9\n")
    games = botarena_with(tmp_path, "games")
    assert (games.returncode, listed(games)) == (0, BUILT_IN)
    assert games.stderr.splitlines() == [
        "botarena: warning: the games of package latin_games ignored: its entry_points.txt is"
        " not UTF-8"
    ]


@pytest.mark.slow
def test_a_plug_in_that_exits_at_import_is_broken_not_fatal(tmp_path: Path) -> None:
    install(tmp_path, "quit_games", b"[botarena.games]\nquitter = quitter\n")
    (tmp_path / "quitter.py").write_text("import sys\nsys.exit(3)\n")
    install(tmp_path, "stop_games", b"[botarena.games]\nstopper = stopper\n")
    (tmp_path / "stopper.py").write_text("raise KeyboardInterrupt\n")
    games = botarena_with(tmp_path, "games")
    assert (games.returncode, listed(games)) == (0, BUILT_IN)
    assert sorted(games.stderr.splitlines()) == [
        "botarena: warning: game 'quitter' of package quit_games is broken: SystemExit: 3",
        "botarena: warning: game 'stopper' of package stop_games is broken: KeyboardInterrupt"
        " raised by the plug-in",
    ]
    help_text = botarena_with(tmp_path, "--help")
    assert help_text.returncode == 0, help_text.stderr
    play = botarena_with(tmp_path, "play", "quitter", "a", "b")
    assert (play.returncode, play.stderr.splitlines()[-1]) == (
        2,
        "botarena: error: game 'quitter' of package quit_games is broken: SystemExit: 3",
    )


def test_rules_that_exit_when_built_are_one_user_error(tmp_path: Path) -> None:
    install(tmp_path, "odd_games", b"[botarena.games]\nodd = odd\n")
    (tmp_path / "odd.py").write_text(
        TOY.format(name="odd") + "\ndef __getattr__(name):\n    raise SystemExit(4)\n"
    )
    play = botarena_with(tmp_path, "play", "odd", "a", "b")
    assert (play.returncode, play.stderr) == (
        2,
        "botarena: error: game 'odd' of package odd_games is broken: SystemExit: 4\n",
    )


def test_a_single_module_plug_in_has_no_renderer_and_breaks_no_other(tmp_path: Path) -> None:
    install(tmp_path, "solo_games", b"[botarena.games]\nsolo = solo\n")
    (tmp_path / "solo.py").write_text(TOY.format(name="solo"))
    (tmp_path / "renderer.js").write_text("// another package's file beside the module\n")
    run = python_with(
        tmp_path,
        "from botarena.web.viewdoc import renderers\n"
        "from botarena.core.registry import game_file\n"
        "found = renderers()\n"
        f"print(sorted(name for name in found if name in ('solo', *{BUILT_IN!r})))\n"
        "print(game_file('solo', 'renderer.js'), game_file('solo', 'starters', 'bot.py'))\n",
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [repr(BUILT_IN), "None None"]
