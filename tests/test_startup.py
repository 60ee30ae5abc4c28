"""Start-up imports only what the command needs: no numpy, gymnasium or unused game."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import botarena
from botarena.games import all_infos

HEAVY = ("numpy", "gymnasium", "pettingzoo")


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code` (stdout of it is dropped)."""
    script = (
        f"import sys, io\nsys.stdout = io.StringIO()\n{code}\n"
        "sys.__stdout__.write(' '.join(sys.modules))"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split())


def cli(*args: str) -> str:
    return (
        f"from botarena.cli import main\nsys.argv = ['botarena', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert not exit.code, exit.code"
    )


def game_modules(modules: set[str]) -> set[str]:
    """The game submodules imported beyond each package's cheap `__init__`."""
    return {name for name in modules if name.startswith("botarena.games.") and name.count(".") >= 3}


def test_the_command_line_imports_no_heavy_module_and_no_game_rules() -> None:
    modules = modules_after("import botarena.cli")
    assert not [name for name in modules if name.split(".")[0] in HEAVY]
    assert game_modules(modules) == set()


def test_listing_the_games_imports_none_of_their_rules() -> None:
    modules = modules_after(cli("games"))
    assert game_modules(modules) == set()
    assert not [name for name in modules if name.split(".")[0] in HEAVY]


def test_playing_amazes_imports_amazes_only() -> None:
    modules = modules_after(
        cli("play", "amazes", "builtin:amazes/random", "builtin:amazes/random", "--seed", "1")
    )
    assert {name.split(".")[2] for name in game_modules(modules)} == {"amazes"}
    assert not [name for name in modules if name.split(".")[0] in HEAVY]


def test_playing_ants_between_process_bots_imports_no_numpy(tmp_path) -> None:
    """The rules see, compare maps and place food on plain integers: numpy's import alone
    was 60 ms of a 0.4 s game (bench/bench_endtoend.py)."""
    bot = tmp_path / "hold.py"
    bot.write_text(
        "import sys\nfor line in sys.stdin:\n"
        "    if line.startswith(('ready', 'go')):\n        print('go', flush=True)\n"
        "    elif line.startswith('end'):\n        break\n"
    )
    spec = f"{sys.executable} {bot}"
    modules = modules_after(
        cli("play", "ants", spec, spec, "--map", "ants:tutorial1", "--seed", "1", "-o", "turns=5")
    )
    assert "botarena.games.ants.rules" in modules
    assert not [name for name in modules if name.split(".")[0] in HEAVY]


def test_a_game_group_is_imported_when_its_command_runs() -> None:
    modules = modules_after(cli("ants", "--help"))
    assert "botarena.games.ants.cli" in modules
    assert "botarena.games.amazes.cli" not in modules


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["store", "--help"]])
def test_the_store_group_imports_no_alembic_or_sqlalchemy_until_a_command_runs(
    args: list[str],
) -> None:
    modules = modules_after(cli(*args))
    assert not [name for name in modules if name.split(".")[0] in ("alembic", "sqlalchemy")]


def test_version() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "botarena", "--version"], capture_output=True, text=True, timeout=120
    )
    assert (run.returncode, run.stdout) == (0, f"botarena {botarena.__version__}\n")


@pytest.mark.parametrize("name", ["amazes", "falldown", "labyrinth", "ants"])
def test_each_game_package_is_named_as_its_game(name: str) -> None:
    game = importlib.import_module(f"botarena.games.{name}").GAME
    assert game.info is all_infos()[name]
    assert game.name == name


STARTER = """import os, sys, time
seat, flag = sys.argv[1], sys.argv[2]
if seat == "3":
    open(flag, "w").close()
while seat == "0" and not os.path.exists(flag):
    time.sleep(0.01)
print("READY", flush=True)
for line in sys.stdin:
    if line.strip() == "EOD":
        print("N", flush=True)
"""


def test_bots_start_up_side_by_side_during_a_one_by_one_handshake(tmp_path) -> None:
    """Falldown waits for READY seat by seat; meanwhile every bot is already running (as the
    engine starts them), so bot 0 can wait for bot 3 to have started."""
    bot = tmp_path / "starter.py"
    bot.write_text(STARTER)
    flag = tmp_path / "bot3-started"
    specs = [f"{sys.executable} {bot} {seat} {flag}" for seat in range(4)]
    # without the sandbox: the bots share a file here, which sandboxed bots cannot
    result = botarena.play("falldown", specs, seed=1, turns=8, ready_ms=20_000, sandbox=False)
    assert [player.status for player in result.players] == ["ok"] * 4
    assert result.turns == 8
