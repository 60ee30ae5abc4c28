"""A game's built-in bots run as processes in the sandbox wherever the game's package lies:
an editable install (`pip install -e`) leaves it outside the Python installation (#38)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import botarena
from botarena.core import registry
from botarena.core.sandbox import game_packages
from kitgames import TALLY, installed


def test_a_game_s_bot_module_shows_the_games_packages_only(tmp_path: Path) -> None:
    """A game's built-in bot sees every installed game's package (a game may build on
    another's, as connect4c's bots on connect4's); any other module or script, none."""
    from botarena.core.entrypoints import entries

    with installed(tmp_path, "tallygame", TALLY, "tally = tallygame") as package:
        shown = game_packages(["python3", "-m", "tallygame.bots.three"])
        assert str(package) in shown
        tops = {entry.module.split(".")[0] for entry in entries().values()}
        assert {Path(folder).name for folder in shown} == tops
        assert game_packages(["python3", "-m", "json.tool"]) == []
        assert game_packages(["python3", "tallygame/bots/three.py"]) == []


@pytest.mark.slow
def test_an_editable_game_s_built_in_bot_plays_as_a_process() -> None:
    """examples/connect4 as CI installs it (`pip install -e`): its source folder is outside
    the installation, and the bot process found no `botarena_connect4`."""
    if "connect4" not in registry.available():
        pytest.skip("connect4 is not installed: pip install --no-deps -e examples/connect4")
    spec = f"{sys.executable} -m botarena_connect4.bots.first"
    result = botarena.play("connect4", [spec, "builtin:connect4/random"], seed=3)
    assert [player.status for player in result.players] == ["ok", "ok"]


@pytest.mark.slow
def test_a_game_on_pythonpath_plays_its_built_in_bots_as_processes(tmp_path: Path) -> None:
    bot = f"{sys.executable} -m tallygame.bots.three"
    with installed(tmp_path, "tallygame", TALLY, "tally = tallygame"):
        result = botarena.play("tally", [bot, "builtin:tally/three"], seed=3)
    assert [(player.status, player.score) for player in result.players] == [("ok", 18)] * 2
