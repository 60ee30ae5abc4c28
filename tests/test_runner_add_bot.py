"""`add-bot` while `tournament run` plays (#25): the runner learns the new bot's label at the
first game that seats it, instead of ending in a KeyError; every game is played."""

from __future__ import annotations

import concurrent.futures as cf
from pathlib import Path
from typing import Any

from botarena.games import get_game
from botarena.tournament import executors, runner
from botarena.tournament.manage import BotRequest, Settings, create, put_bot
from botarena.tournament.store import Store

RANDOM = "builtin:amazes/random"


class AddingExecutor:
    """Plays each game in this process; at its first game, adds a bot to the tournament (as
    `tournament add-bot` from another terminal would)."""

    slots = 1

    def __init__(self, add: Any) -> None:
        self.add = add
        self.inner = executors.LocalExecutor(0)
        self.seated: list[list[str]] = []

    def submit(self, job: dict[str, Any]) -> cf.Future:
        self.seated.append([seat[0] for seat in job["seats"]])
        if self.add is not None:
            self.add, add = None, self.add
            add()
        return self.inner.submit(job)

    def shutdown(self) -> None:
        self.inner.shutdown()


def test_a_bot_added_while_the_runner_plays(tmp_path: Path) -> None:
    rules = get_game("amazes")
    store = Store.open(f"sqlite:///{tmp_path / 'botarena.db'}")
    settings = Settings(replay_dir=tmp_path / "replays")
    requests = [BotRequest("a", RANDOM), BotRequest("b", RANDOM)]
    tournament, count = create(store, "cup", rules, requests, settings, tmp_path, print)
    assert count == 2  # a-b and b-a

    def add() -> None:
        put_bot(store, tournament, rules, BotRequest("late", RANDOM), tmp_path, print, update=False)

    executor = AddingExecutor(add)
    played = runner.run(store, tournament, executor)
    executor.shutdown()
    assert played == 6  # the two games, then late's four with a and b
    assert sum("late" in seats for seats in executor.seated) == 4
    store.close()
