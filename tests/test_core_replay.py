"""Replays: round trip, verify on random games, and verify naming the first difference."""

from __future__ import annotations

import copy
import gc
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import botarena
from botarena.core.replay import FREEZE_EVERY_STEPS, ReplayError, load, save, verify


def random_game(seed: int, path: Path) -> dict:
    result = botarena.play(
        "amazes", ["builtin:amazes/random", "builtin:amazes/random"], seed=seed, replay=path
    )
    return result.document


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
@pytest.mark.slow
def test_random_games_round_trip_and_verify(seed: int, tmp_path_factory) -> None:
    path = tmp_path_factory.mktemp("r") / "game.json.gz"
    document = random_game(seed, path)
    loaded = load(path)
    assert loaded == json.loads(json.dumps(document))
    verdict = verify(loaded)
    assert verdict.ok, verdict.message


def test_same_seed_same_game(tmp_path: Path) -> None:
    first = random_game(11, tmp_path / "a.json")
    second = random_game(11, tmp_path / "b.json")

    def without_timing(document: dict) -> dict:
        document = copy.deepcopy(document)
        for step in document["steps"]:
            for act in step["acts"]:
                act.pop("ms")
        for player in document["result"]["players"]:
            player.pop("time_ms")
        return document

    assert without_timing(first) == without_timing(second)


def tampered(tmp_path: Path, change) -> dict:
    document = json.loads(json.dumps(random_game(5, tmp_path / "g.json")))
    change(document)
    return document


def test_verify_names_the_first_step_whose_reply_changed(tmp_path: Path) -> None:
    def change(document: dict) -> None:
        act = document["steps"][41]["acts"][0]
        act["reply"] = "TT" if act["reply"] != "TT" else "T"

    verdict = verify(tampered(tmp_path, change))
    assert not verdict.ok
    assert verdict.step == 42


def test_verify_names_a_changed_frame(tmp_path: Path) -> None:
    def change(document: dict) -> None:
        document["steps"][99]["frame"]["points"][0] += 1

    verdict = verify(tampered(tmp_path, change))
    assert (verdict.ok, verdict.step) == (False, 100)
    assert "points" in verdict.message


def test_verify_catches_a_changed_score_and_a_short_replay(tmp_path: Path) -> None:
    verdict = verify(tampered(tmp_path, lambda d: d["result"]["players"][0].update(score=999)))
    assert not verdict.ok
    assert verdict.message == "result: players[0].score: recorded 999, replayed 103"
    verdict = verify(tampered(tmp_path, lambda d: d["steps"].pop()))
    assert not verdict.ok and "ends before" in verdict.message


def test_unreadable_replays_raise_one_line_errors(tmp_path: Path) -> None:
    (tmp_path / "text.json").write_text("not json")
    (tmp_path / "other.json").write_text('{"hello": 1}')
    save({"schema_version": 99}, tmp_path / "future.json.gz")
    for name, words in (
        ("text.json", "not JSON"),
        ("other.json", "schema_version"),
        ("future.json.gz", "schema_version 99"),
        ("missing.json", "cannot read"),
    ):
        with pytest.raises(ReplayError, match=words) as caught:
            load(tmp_path / name)
        assert "\n" not in str(caught.value) and name in str(caught.value)


def test_in_process_bot_may_read_the_exact_text(tmp_path: Path) -> None:
    class TextBot:
        reads_text = True

        def __init__(self) -> None:
            self.seen: list[str] = []

        def act(self, text: str) -> str:
            self.seen.append(text)
            return "T"

    reader = TextBot()
    result = botarena.play(
        "amazes", [reader, "builtin:amazes/random"], seed=3, turns=2, replay=tmp_path / "r.json"
    )
    sent = [
        act["sent"] for step in result.document["steps"] for act in step["acts"] if act["seat"] == 0
    ]
    assert reader.seen == sent and sent[0].startswith("Start\n")


def test_replies_are_kept_verbatim_unless_the_game_packs_them(tmp_path: Path) -> None:
    """Amazes does not pack: every act keeps the reply text exactly as the bot sent it."""
    document = random_game(5, tmp_path / "game.json")
    acts = [act for step in document["steps"] for act in step["acts"]]
    assert all("packed" not in act and isinstance(act["reply"], str) for act in acts)
    assert all(act["ms"] == round(act["ms"], 1) for act in acts)


class FreezeWatcher:
    """An Ants bot that gives no orders and notes, at each turn, how many objects the
    cyclic garbage collector has been told to leave alone (`gc.freeze`)."""

    def __init__(self, raise_at: int | None = None) -> None:
        self.frozen: list[int] = []
        self.raise_at = raise_at

    def act(self, observation: object) -> list:
        self.frozen.append(gc.get_freeze_count())
        if len(self.frozen) == self.raise_at:
            raise KeyboardInterrupt  # the user stops the game: it ends at once
        return []


@pytest.mark.slow
def test_a_long_recorded_game_hides_its_replay_from_full_collections_until_it_ends(
    tmp_path: Path,
) -> None:
    """Every FREEZE_EVERY_STEPS steps what the process holds (the replay so far) is moved
    out of the collector's sight, and given back as the game ends, also when it is stopped."""
    assert gc.get_freeze_count() == 0
    watcher = FreezeWatcher()
    botarena.play("ants", [watcher, "builtin:ants/hold"], seed=3, map="ants:tutorial1",
                  turns=FREEZE_EVERY_STEPS + 20, cutoff_turn=100_000,
                  replay=tmp_path / "long.json")  # fmt: skip
    turns = len(watcher.frozen)
    assert turns == FREEZE_EVERY_STEPS + 20
    assert not any(watcher.frozen[:FREEZE_EVERY_STEPS])  # step i is recorded after turn i
    assert all(watcher.frozen[FREEZE_EVERY_STEPS:])
    assert gc.get_freeze_count() == 0
    stopped = FreezeWatcher(raise_at=FREEZE_EVERY_STEPS + 5)
    with pytest.raises(KeyboardInterrupt):
        botarena.play("ants", [stopped, "builtin:ants/hold"], seed=3, map="ants:tutorial1",
                      turns=FREEZE_EVERY_STEPS + 20, cutoff_turn=100_000,
                      replay=tmp_path / "stopped.json")  # fmt: skip
    assert stopped.frozen[-1] > 0 and gc.get_freeze_count() == 0
