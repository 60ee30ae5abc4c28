"""Ladders of role games (#36): one version of each role a game, each in its role's seat;
each version rated against the one its seat held in the latest earlier game with the same
opposition (tournament/roleladder.py); standings, finals and `store check` per role."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce

from botarena.games import get_game
from botarena.tournament import ladder
from botarena.tournament.ladder import LadderError
from botarena.tournament.manage import BotRequest, Settings, TournamentError, create, put_bot
from botarena.tournament.roleladder import Comparison, Played, comparisons, rate
from botarena.tournament.store import Store, ladder_bots, ladder_ratings
from conftest import run_botarena

ADVENTURERS, MASTER = "adventurers", "maze master"
SIGNS = [1, -1]
"""The adventurers want the shared score high, the maze master low."""
WALLFOLLOWER, CARTOGRAPHER = "builtin:labyrinth/wallfollower", "builtin:labyrinth/cartographer"
WARDEN, STATIC = "builtin:labyrinth/warden", "builtin:labyrinth/static"


def game(adventurers: str, master: str, score: float, strike: int | None = None) -> Played:
    """A game of the two versions with its shared score; `strike`: the seat struck."""
    ranks = tuple(2 if seat == strike else 1 for seat in range(2))
    return Played((adventurers, master), ranks, (score, score))


# -- the comparison rule -------------------------------------------------------------------
def test_an_adventurer_beats_the_one_that_scored_less_against_the_same_master() -> None:
    earlier = [game("a1", "m", 500)]
    assert comparisons(game("a2", "m", 700), earlier, SIGNS) == [Comparison("a2", "a1", 1)]
    assert comparisons(game("a2", "m", 300), earlier, SIGNS) == [Comparison("a2", "a1", -1)]


def test_a_master_beats_the_one_that_let_the_same_adventurers_score_more() -> None:
    earlier = [game("a", "m1", 500)]
    assert comparisons(game("a", "m2", 300), earlier, SIGNS) == [Comparison("m2", "m1", 1)]
    assert comparisons(game("a", "m2", 700), earlier, SIGNS) == [Comparison("m2", "m1", -1)]


def test_a_strike_loses_whatever_the_score_and_equal_games_draw() -> None:
    earlier = [game("a1", "m", 100)]
    struck = game("a2", "m", 900, strike=0)
    assert comparisons(struck, earlier, SIGNS) == [Comparison("a2", "a1", -1)]
    assert comparisons(game("a2", "m", 100), earlier, SIGNS) == [Comparison("a2", "a1", 0)]
    struck_before = [game("a1", "m", 900, strike=0)]
    assert comparisons(game("a2", "m", 100), struck_before, SIGNS) == [Comparison("a2", "a1", 1)]


def test_no_earlier_game_with_the_same_opposition_is_no_comparison() -> None:
    assert comparisons(game("a2", "m", 500), [], SIGNS) == []
    assert comparisons(game("a2", "m2", 500), [game("a1", "m1", 100)], SIGNS) == []
    assert comparisons(game("a1", "m", 500), [game("a1", "m", 100)], SIGNS) == []


def test_the_latest_earlier_game_of_another_version_is_the_one_compared() -> None:
    earlier = [game("a1", "m", 100), game("a3", "m", 900)]
    assert comparisons(game("a2", "m", 500), earlier, SIGNS) == [Comparison("a2", "a3", -1)]
    own_latest = [game("a1", "m", 100), game("a2", "m", 900)]  # its own game is skipped
    assert comparisons(game("a2", "m", 500), own_latest, SIGNS) == [Comparison("a2", "a1", 1)]


def test_each_seat_is_compared_in_seat_order() -> None:
    earlier = [game("a2", "m1", 400), game("a1", "m2", 600)]
    assert comparisons(game("a2", "m2", 500), earlier, SIGNS) == [
        Comparison("a2", "a1", -1),
        Comparison("m2", "m1", -1),
    ]


def test_a_comparison_is_a_game_of_two_rated_from_the_ratings_so_far() -> None:
    model = PlackettLuce()
    prior = (25.0, 25.0 / 3)
    ratings = {"a": prior, "b": prior, "c": prior}
    found = rate(ratings, [Comparison("a", "b", 1), Comparison("a", "c", 0)])
    [[a1], [b1]] = model.rate([[model.rating(*prior)], [model.rating(*prior)]], ranks=[1, 2])
    [[a2], [c2]] = model.rate(
        [[model.rating(a1.mu, a1.sigma)], [model.rating(*prior)]], ranks=[1, 1]
    )
    assert found == {
        "a": (a2.mu, a2.sigma),
        "b": (b1.mu, b1.sigma),
        "c": (c2.mu, c2.sigma),
    }
    assert found["b"][0] == pytest.approx(25 - (a1.mu - 25))  # zero-sum within the role
    assert rate(ratings, [Comparison("b", "a", -1)])["a"] == (a1.mu, a1.sigma)


# -- the store: creating, matchmaking ------------------------------------------------------
def role_ladder(folder: Path, bots: dict[str, str], url: str | None = None) -> tuple[Store, Any]:
    """A ladder of Labyrinth's built-in bots (NAME: SPEC; their class gives the role)."""
    store = Store.open(url or f"sqlite:///{folder / 'l.db'}")
    tournament, _ = create(
        store,
        "lab",
        get_game("labyrinth"),
        [BotRequest(name, spec) for name, spec in bots.items()],
        Settings(schedule="ladder", seed=1, replay_dir=folder / "r", options={"max_rounds": "1"}),
        folder / "build",
        print,
    )
    return store, tournament


FIELD = {
    "a1": WALLFOLLOWER,
    "a2": CARTOGRAPHER,
    "a3": WALLFOLLOWER,
    "m1": WARDEN,
    "m2": STATIC,
}
ROLE_OF = {name: ADVENTURERS if name.startswith("a") else MASTER for name in FIELD}


def test_a_role_ladder_s_plan_names_its_roles_and_each_version_has_its_own(
    tmp_path: Path,
) -> None:
    store, tournament = role_ladder(tmp_path, FIELD)
    assert tournament.plan["roles"] == [ADVENTURERS, MASTER]
    assert tournament.plan["seats"] == 2
    with store.engine.connect() as conn:
        roles = dict(conn.execute(sa.select(ladder_bots.c.label, ladder_bots.c.role)).all())
    assert roles == ROLE_OF
    store.close()


def test_every_game_seats_one_version_of_each_role_in_its_role_s_seat(tmp_path: Path) -> None:
    store, tournament = role_ladder(tmp_path, FIELD)
    rng = random.Random(2)
    seen = set()
    for _ in range(30):
        game_row = ladder.make_and_claim(store, tournament, "w", rng)
        assert game_row is not None
        adventurers, master = game_row.seats
        assert (ROLE_OF[adventurers], ROLE_OF[master]) == (ADVENTURERS, MASTER)
        seen.add(game_row.seats)
    assert {a for a, _ in seen} == {"a1", "a2", "a3"} and {m for _, m in seen} == {"m1", "m2"}
    store.close()


def test_no_game_while_a_role_has_no_active_version(tmp_path: Path) -> None:
    store, tournament = role_ladder(tmp_path, {"a1": WALLFOLLOWER, "a2": CARTOGRAPHER})
    assert ladder.make_and_claim(store, tournament, "w", random.Random(0)) is None
    put_bot(store, tournament, get_game("labyrinth"), BotRequest("m1", STATIC), tmp_path, print,
            update=False)  # fmt: skip
    assert ladder.make_and_claim(store, tournament, "w", random.Random(0)) is not None
    with store.transaction() as conn:
        ladder.retire(conn, tournament, "m1")
    assert ladder.make_and_claim(store, tournament, "w", random.Random(0)) is None
    store.close()


@pytest.mark.parametrize(("name", "spec"), [("new", CARTOGRAPHER), ("new", WARDEN)])
def test_a_new_version_of_either_role_plays_the_next_games(
    tmp_path: Path, name: str, spec: str
) -> None:
    store, tournament = role_ladder(tmp_path, FIELD)
    with store.transaction() as conn:
        conn.execute(ladder_bots.update().values(sigma=1.0, last_seq=0, queue=1))
    put_bot(store, tournament, get_game("labyrinth"), BotRequest(name, spec), tmp_path, print,
            update=False)  # fmt: skip
    rng = random.Random(4)
    for _ in range(3):
        game_row = ladder.make_and_claim(store, tournament, "w", rng)
        assert game_row is not None and name in game_row.seats
    store.close()


def test_a_role_ladder_version_needs_one_of_its_roles_and_others_take_none(
    tmp_path: Path,
) -> None:
    store, tournament = role_ladder(tmp_path, FIELD)
    with store.transaction() as conn, pytest.raises(LadderError) as raised:
        ladder.join(conn, tournament, "x", "x")
    assert str(raised.value) == (
        "x: lab is a ladder of roles; give its role, one of adventurers, maze master (not None)"
    )
    with store.transaction() as conn, pytest.raises(LadderError) as raised:
        ladder.join(conn, tournament, "x", "x", "referee")
    assert str(raised.value).endswith("one of adventurers, maze master (not 'referee')")
    store.close()
    plain = Store.open(f"sqlite:///{tmp_path / 'plain.db'}")
    other, _ = create(
        plain,
        "cup",
        get_game("amazes"),
        [BotRequest("r", "builtin:amazes/random")],
        Settings(schedule="ladder", seed=1, replay_dir=tmp_path),
        tmp_path / "build",
        print,
    )
    with plain.transaction() as conn, pytest.raises(LadderError) as raised:
        ladder.join(conn, other, "x", "x", ADVENTURERS)
    assert str(raised.value) == "x: cup is a ladder without roles (not 'adventurers')"
    plain.close()


def test_a_role_ladder_refuses_a_range_of_seats(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'l.db'}")
    for seats in ({"seats_range": (2, 3)}, {"seats": 3}):
        with pytest.raises(TournamentError) as raised:
            create(
                store,
                "lab",
                get_game("labyrinth"),
                [BotRequest("a", WALLFOLLOWER)],
                Settings(schedule="ladder", replay_dir=tmp_path, **seats),
                tmp_path,
                print,
            )
        assert str(raised.value) == "--seats: a ladder of labyrinth has one seat a role (2 seats)"
    store.close()


def test_a_role_ladder_s_test_competition_is_a_tournament_of_roles(tmp_path: Path) -> None:
    import time

    from botarena.tournament import stages

    store = Store.open(f"sqlite:///{tmp_path / 'l.db'}")
    tournament, _ = create(
        store,
        "lab",
        get_game("labyrinth"),
        [BotRequest(name, spec) for name, spec in FIELD.items()],
        Settings(schedule="ladder", seed=1, replay_dir=tmp_path, test_every=1.0),
        tmp_path / "build",
        print,
    )
    child = stages.maybe_test_competition(store, tournament, now=time.time() + 3601)
    assert child is not None
    assert (child.schedule, child.plan["role_names"], child.plan["seats"]) == (
        "roles",
        [ADVENTURERS, MASTER],
        2,
    )
    assert sorted(row.seats for row in store.games(child)) == [
        (a, m) for a in ("a1", "a2", "a3") for m in ("m1", "m2")
    ]
    assert {bot.name: bot.role for bot in store.bots(child)} == ROLE_OF
    store.close()


# -- rating: live as recomputed ------------------------------------------------------------
def finish(store: Store, game_row: Any, score: float, strike: int | None = None) -> None:
    ranks = [2 if seat == strike else 1 for seat in range(2)]
    result = {
        "scores": [score, score],
        "ranks": ranks,
        "statuses": ["strike" if seat == strike else None for seat in range(2)],
        "faults": [0, 0],
        "turns": 1,
        "end_reason": "test",
        "replay": None,
    }
    assert ladder.finish(store, game_row, "w", result, True)


def ratings(store: Store) -> tuple[dict[str, tuple[float, float, int]], set[tuple[int, str]]]:
    with store.engine.connect() as conn:
        rows = {r.label: (r.mu, r.sigma, r.games) for r in conn.execute(sa.select(ladder_bots))}
        charted = {(r.game_id, r.label) for r in conn.execute(sa.select(ladder_ratings))}
    return rows, charted


def test_a_game_rates_its_versions_against_the_earlier_ones_with_the_same_opposition(
    tmp_path: Path,
) -> None:
    store, tournament = role_ladder(tmp_path, {"a1": WALLFOLLOWER, "m1": STATIC})
    first = ladder.make_and_claim(store, tournament, "w", random.Random(0))
    finish(store, first, 500)
    rows, charted = ratings(store)
    assert rows == {"a1": (25.0, 25.0 / 3, 1), "m1": (25.0, 25.0 / 3, 1)}  # nothing to compare
    assert charted == set()
    put_bot(store, tournament, get_game("labyrinth"), BotRequest("a2", CARTOGRAPHER), tmp_path,
            print, update=False)  # fmt: skip
    second = ladder.make_and_claim(store, tournament, "w", random.Random(0))
    assert second.seats == ("a2", "m1")
    finish(store, second, 700)
    rows, charted = ratings(store)
    model = PlackettLuce()
    [[won], [lost]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert rows == {
        "a1": (lost.mu, lost.sigma, 1),
        "a2": (won.mu, won.sigma, 1),
        "m1": (25.0, 25.0 / 3, 2),
    }
    assert charted == {(second.id, "a1"), (second.id, "a2")}
    store.close()


def test_live_ratings_equal_the_recomputed_ones_through_updates_strikes_and_a_void(
    db: str, tmp_path: Path
) -> None:
    from botarena.arena.admin import void_game
    from botarena.tournament.storeops import recompute

    store, tournament = role_ladder(tmp_path, FIELD, db)
    rng = random.Random(7)

    def play(count: int) -> list[int]:
        ids = []
        for _ in range(count):
            game_row = ladder.make_and_claim(store, tournament, "w", rng)
            strike = rng.choice([None, None, None, 0, 1])
            finish(store, game_row, float(rng.randrange(0, 3000, 500)), strike)
            ids.append(game_row.id)
        return ids

    ids = play(12)
    with store.transaction() as conn:
        ladder.join(conn, tournament, "m1", "m1@v2", MASTER)
        ladder.retire(conn, tournament, "a3")
    ids += play(10)
    with store.transaction() as conn:
        void_game(conn, ids[5], tournament)
    ids += play(4)
    with store.engine.connect() as conn:
        labels = [row.label for row in conn.execute(sa.select(ladder_bots))]
        again = recompute(conn, tournament.id, labels)
    live, _ = ratings(store)
    assert {label: rated.games for label, rated in again.items()} == {
        label: count for label, (_, _, count) in live.items()
    }
    for label, (mu, sigma, _) in live.items():
        assert again[label].mu == pytest.approx(mu, abs=1e-9)
        assert again[label].sigma == pytest.approx(sigma, abs=1e-9)
    assert sum(count for _, _, count in live.values()) == 2 * (len(ids) - 1)
    assert len({mu for mu, _, _ in live.values()}) > 2  # the comparisons did rate
    store.close()


# -- the whole ladder from the command line ------------------------------------------------
@pytest.mark.slow
def test_a_role_ladder_plays_ranks_per_role_checks_and_holds_its_finals(
    db: str, tmp_path: Path
) -> None:
    made = run_botarena(
        "tournament", "new", "lab", "--game", "labyrinth", "--schedule", "ladder",
        *(arg for name, spec in FIELD.items() for arg in ("--bot", f"{name}={spec}")),
        "-o", "max_rounds=1", "--seed", "3", "--db", db, cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    ran = run_botarena("tournament", "run", "lab", "--games", "12", "--db", db, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    shown = run_botarena("tournament", "standings", "lab", "--json", "--db", db, cwd=tmp_path)
    table = json.loads(shown.stdout)
    assert [(row["role"], row["rank"]) for row in table] == [
        (ADVENTURERS, 1), (ADVENTURERS, 2), (ADVENTURERS, 3), (MASTER, 1), (MASTER, 2),
    ]  # fmt: skip
    for role in (ADVENTURERS, MASTER):
        ordinals = [row["ordinal"] for row in table if row["role"] == role]
        assert ordinals == sorted(ordinals, reverse=True)
    assert sum(row["games"] for row in table) == 24
    assert all(row["bot"].startswith("a") == (row["role"] == ADVENTURERS) for row in table)
    printed = run_botarena("tournament", "standings", "lab", "--db", db, cwd=tmp_path)
    assert "lab · labyrinth · ladder · adventurers" in printed.stdout
    assert "lab · labyrinth · ladder · maze master" in printed.stdout
    checked = run_botarena("store", "check", "--db", db, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "5 versions' games, μ and σ against 12 played games" in checked.stdout
    finals = run_botarena("tournament", "finals", "lab", "--top", "2", "--db", db, cwd=tmp_path)
    assert finals.returncode == 0, finals.stderr
    assert finals.stdout.startswith("lab-finals: 4 bots, roles, 4 games scheduled")
    played = run_botarena("tournament", "run", "lab-finals", "--db", db, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    ranked = run_botarena(
        "tournament", "standings", "lab-finals", "--json", "--db", db, cwd=tmp_path
    )
    final = json.loads(ranked.stdout)
    top = {(row["role"], row["bot"]) for row in table if row["rank"] <= 2}
    assert {(row["role"], row["bot"]) for row in final} == top
    assert [(row["role"], row["games"]) for row in final] == [(ADVENTURERS, 2)] * 2 + [
        (MASTER, 2)
    ] * 2
    for role, sign in ((ADVENTURERS, -1), (MASTER, 1)):  # mean score, the role's way
        means = [sign * row["mean_score"] for row in final if row["role"] == role]
        assert means == sorted(means)
