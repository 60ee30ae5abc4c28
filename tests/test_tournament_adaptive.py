"""The adaptive schedule: whole rounds until the top K is settled, the evidence in standings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from botarena.tournament.adaptive import decide, place_score, round_of
from botarena.tournament.records import GameRecord

RANDOM, EXPLORER = "builtin:amazes/random", "builtin:amazes/explorer"


def botarena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
    )


def test_the_round_of_a_game_comes_from_its_index() -> None:
    record = GameRecord("t/a-b/5/123", ("a", "b"), (1, 0), (1, 2), ("ok", "ok"), (0, 0))
    assert round_of(record, 1) == 6
    assert round_of(record, 2) == 3  # indices 4 and 5 are round 3 with 2 games a pairing
    assert round_of(record, 3) == 2


def test_place_score_counts_seats_placed_below() -> None:
    record = GameRecord(
        "k", ("a", "b", "c", "d"), (3, 5, 3, 0), (2, 1, 2, 4), ("ok",) * 4, (0,) * 4
    )
    assert place_score(record, 1) == 1.0
    assert place_score(record, 0) == (1 + 0.5) / 3  # above d, tied with c
    assert place_score(record, 3) == 0.0


def test_role_games_settle_each_role_with_maze_masters_lowest_first() -> None:
    """Two adventurers and two maze masters, three rounds: adventurer `far` always scores 5
    more than `near`; maze master `tight` always lets 4 less through than `loose`."""
    records = []
    for index in range(3):
        for adventurer, base in (("far", 10), ("near", 5)):
            for master, allowed in (("tight", 0), ("loose", 4)):
                score = base + allowed + index % 2
                records.append(
                    GameRecord(
                        f"t/{adventurer}-{master}/{index}/1",
                        (adventurer, master),
                        (score, score),
                        (1, 1),
                        ("ok", "ok"),
                        (0, 0),
                        roles=("adventurers", "maze master"),
                    )
                )
    roles = {
        "far": "adventurers",
        "near": "adventurers",
        "tight": "maze master",
        "loose": "maze master",
    }
    decisions = decide("labyrinth", list(roles), roles, records, 1, 1, 0.95)
    (adventurers, first), (masters, second) = decisions
    assert adventurers.role == "adventurers" and first.order == ("far", "near")
    assert masters.role == "maze master" and not masters.higher_is_better
    assert second.order == ("tight", "loose")
    assert first.settled and second.settled


@pytest.mark.slow
def test_a_clear_leader_settles_the_top_one_after_three_rounds(tmp_path: Path) -> None:
    made = botarena(
        "tournament",
        "new",
        "a",
        "--game",
        "amazes",
        "--bot",
        EXPLORER,
        "--bot",
        RANDOM,
        "--bot",
        f"r2={RANDOM}",
        "--schedule",
        "adaptive",
        "--top",
        "1",
        "--seed",
        "3",
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    assert "adaptive, 6 games scheduled" in made.stdout  # one round: 3 x 2 ordered pairs
    ran = botarena("tournament", "run", "a", "--workers", "2", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    games = json.loads(botarena("tournament", "games", "a", "--json", cwd=tmp_path).stdout)
    assert len(games) == 18 and {game["status"] for game in games} == {"done"}
    # every round on seeds of its own: 3 rounds x 3 pairs of bots, seats swapped on one seed
    assert len({game["key"].rsplit("/", 1)[1] for game in games}) == 9
    shown = botarena("tournament", "standings", "a", "--no-plot", cwd=tmp_path)
    assert "adaptive · settled after 3 rounds at confidence 0.95" in shown.stdout
    assert "explorer above r2" in shown.stdout or "explorer above random" in shown.stdout


@pytest.mark.slow
def test_an_exact_tie_is_declared_tied_and_a_late_bot_catches_up(tmp_path: Path) -> None:
    """Two copies of one bot are equal: the rule says so (tied within the margin), where
    the rule before ran to the maximum of rounds; a bot added later plays every round."""
    made = botarena(
        "tournament",
        "new",
        "t",
        "--game",
        "amazes",
        "--bot",
        RANDOM,
        "--bot",
        f"r2={RANDOM}",
        "--schedule",
        "adaptive",
        "--top",
        "1",
        "--max-rounds",
        "4",
        "--seed",
        "1",
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    assert botarena("tournament", "run", "t", "--workers", "0", cwd=tmp_path).returncode == 0
    games = json.loads(botarena("tournament", "games", "t", "--json", cwd=tmp_path).stdout)
    assert len(games) == 6  # 3 rounds x 2 ordered pairs: tied at the first look
    shown = botarena("tournament", "standings", "t", "--no-plot", cwd=tmp_path)
    assert "settled after 3 rounds" in shown.stdout and "(1 tied)" in shown.stdout
    assert "r2 tied with random" in shown.stdout
    added = botarena("tournament", "add-bot", "t", f"r3={RANDOM}", cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    assert "12 games scheduled" in added.stdout  # r3 in each of the 3 rounds, 4 games each
    shown = botarena("tournament", "standings", "t", "--no-plot", cwd=tmp_path)
    assert "not settled yet (0 complete rounds; needs 3)" in shown.stdout
    assert botarena("tournament", "run", "t", "--workers", "0", cwd=tmp_path).returncode == 0
    games = json.loads(botarena("tournament", "games", "t", "--json", cwd=tmp_path).stdout)
    assert len(games) == 24  # a 4th round (r3 is not yet ordered or tied), the maximum
    shown = botarena("tournament", "standings", "t", "--no-plot", cwd=tmp_path)
    assert "not settled (stopped at the maximum of 4 rounds)" in shown.stdout


@pytest.mark.slow  # seconds on 2 cores
def test_bad_adaptive_settings_are_one_line(tmp_path: Path) -> None:
    for extra, message in (
        (("--top", "0"), "--top must be at least 1"),
        (("--confidence", "1"), "--confidence 1: must be at least 0.5"),
        (("--max-rounds", "2"), "--max-rounds must be at least 3"),
    ):
        run = botarena(
            "tournament",
            "new",
            "t",
            "--game",
            "amazes",
            "--bot",
            RANDOM,
            "--bot",
            f"r2={RANDOM}",
            "--schedule",
            "adaptive",
            *extra,
            cwd=tmp_path,
        )
        assert run.returncode == 2 and message in run.stderr, run.stderr
        assert run.stderr.count("\n") == 1
