"""Schedules: how many games, who sits where, how often bots meet, swiss pairings, roles."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.tournament.records import GameRecord
from botarena.tournament.schedule import (
    Entrant,
    Plan,
    PlannedGame,
    game_seed,
    next_round,
    round_robin,
    swiss_round,
    total_games,
)


def entrants(*labels: str, role: str | None = None) -> list[Entrant]:
    return [Entrant(label, role) for label in labels]


def test_three_bots_three_games_per_pair_in_amazes_is_18_games() -> None:
    games = round_robin(Plan(seed=1, seats=2, games_per_pair=3), entrants("a", "b", "c"))
    assert len(games) == 18
    assert Counter(g.seats for g in games) == {
        ("a", "b"): 3,
        ("b", "a"): 3,
        ("a", "c"): 3,
        ("c", "a"): 3,
        ("b", "c"): 3,
        ("c", "b"): 3,
    }


def test_a_pairing_with_seats_swapped_plays_the_same_seeds_and_its_games_differ() -> None:
    games = round_robin(Plan(seed=7, seats=2, games_per_pair=3), entrants("a", "b"))
    ab = [g.seed for g in games if g.seats == ("a", "b")]
    ba = [g.seed for g in games if g.seats == ("b", "a")]
    assert ab == ba and len(set(ab)) == 3
    assert len({g.key("t") for g in games}) == 6


def test_a_pairings_games_alternate_maps_and_its_seatings_share_them() -> None:
    plan = Plan(seed=1, seats=2, games_per_pair=5, maps=("m1", "m2"))
    games = next_round("round-robin", plan, entrants("a", "b"), [], [])
    assert [g.map for g in games if g.seats == ("a", "b")] == ["m1", "m2", "m1", "m2", "m1"]
    assert [g.map for g in games if g.seats == ("b", "a")] == ["m1", "m2", "m1", "m2", "m1"]


def test_one_game_per_pairing_still_plays_every_map() -> None:
    """The issue's case: two maps, one game per pairing; each map once per bot (4 bots: each
    bot plays 3 pairings, so 2 and 1)."""
    plan = Plan(seed=1, seats=2, games_per_pair=1, maps=("m1", "m2"))
    games = next_round("round-robin", plan, entrants("a", "b", "c", "d"), [], [])
    assert Counter(g.map for g in games) == {"m1": 6, "m2": 6}
    for bot in "abcd":
        assert sorted(Counter(g.map for g in games if bot in g.seats).values()) == [2, 4]


def test_swiss_rounds_spread_maps_over_rounds() -> None:
    plan = Plan(seed=1, seats=2, games_per_pair=1, maps=("m1", "m2"), rounds=4)
    field = entrants("a", "b", "c", "d")
    scheduled: list[PlannedGame] = []
    for _ in range(4):
        scheduled += next_round("swiss", plan, field, scheduled, [])
    assert Counter(g.map for g in scheduled) == {"m1": 4, "m2": 4}
    for bot in "abcd":  # four rounds: every bot on both maps (the pairings allow no better)
        assert sorted(Counter(g.map for g in scheduled if bot in g.seats).values()) in (
            [2, 2],
            [1, 3],
        )


@settings(deadline=None)  # the swaps are quadratic in the sets: slow under a loaded machine
@given(
    st.integers(min_value=2, max_value=8),
    st.integers(min_value=2, max_value=4),
    st.integers(min_value=1, max_value=3),
    st.integers(min_value=1, max_value=5),
)
@pytest.mark.slow
def test_maps_are_played_equally_often_overall_and_nearly_so_by_every_bot(
    bots: int, seats: int, per: int, maps: int
) -> None:
    seats = min(seats, bots)
    plan = Plan(seed=3, seats=seats, games_per_pair=per, maps=tuple(f"m{i}" for i in range(maps)))
    labels = [f"b{i}" for i in range(bots)]
    games = next_round("round-robin", plan, entrants(*labels), [], [])

    def spread(counts: Counter) -> int:
        return max(counts[m] for m in plan.maps) - min(counts[m] for m in plan.maps)

    # a set of games (a group and an index) is played in every seating, on one map
    assert spread(Counter(g.map for g in games)) <= seats
    for bot in labels:
        assert spread(Counter(g.map for g in games if bot in g.seats)) <= 2 * seats
        for seat in range(seats):  # each bot meets every map in every seat alike
            assert Counter(g.map for g in games if g.seats[seat] == bot) == Counter(
                g.map for g in games if g.seats[0] == bot
            )


@given(
    st.integers(min_value=2, max_value=7),
    st.integers(min_value=2, max_value=5),
    st.integers(min_value=1, max_value=3),
)
def test_n_seat_round_robin_balances_meetings_and_seats(bots: int, seats: int, per: int) -> None:
    if seats > bots:
        seats = bots
    labels = [f"b{i}" for i in range(bots)]
    games = round_robin(Plan(seed=3, seats=seats, games_per_pair=per), entrants(*labels))
    combinations = len(list(itertools.combinations(labels, seats)))
    assert len(games) == combinations * seats * per
    meetings = Counter(frozenset(p) for g in games for p in itertools.combinations(g.seats, 2))
    assert len(set(meetings.values())) == 1 and len(meetings) == bots * (bots - 1) // 2
    places = Counter((bot, seat) for g in games for seat, bot in enumerate(g.seats))
    assert len(places) == bots * seats and len(set(places.values())) == 1
    assert all(len(set(g.seats)) == seats for g in games)


def test_four_bots_in_falldown_play_one_game_per_rotation() -> None:
    games = round_robin(Plan(seed=1, seats=4), entrants("a", "b", "c", "d"))
    assert [g.seats for g in games] == [
        ("a", "b", "c", "d"),
        ("b", "c", "d", "a"),
        ("c", "d", "a", "b"),
        ("d", "a", "b", "c"),
    ]


def test_roles_pair_each_adventurer_with_each_maze_master_only() -> None:
    plan = Plan(seed=1, seats=2, games_per_pair=2, role_names=("adventurers", "maze master"))
    field = [
        Entrant("x", "adventurers"),
        Entrant("y", "adventurers"),
        Entrant("m", "maze master"),
        Entrant("n", "maze master"),
        Entrant("o", "maze master"),
    ]
    games = next_round("roles", plan, field, [], [])
    assert Counter(g.seats for g in games) == {
        (a, m): 2 for a in ("x", "y") for m in ("m", "n", "o")
    }
    assert total_games("roles", plan, field) == 12


def test_adding_a_bot_schedules_only_its_games() -> None:
    plan = Plan(seed=1, seats=2, games_per_pair=2)
    first = next_round("round-robin", plan, entrants("a", "b", "c"), [], [])
    more = next_round("round-robin", plan, entrants("a", "b", "c", "d"), first, [])
    assert len(first) == 12 and len(more) == 12
    assert all("d" in g.seats for g in more)
    assert next_round("round-robin", plan, entrants("a", "b", "c", "d"), first + more, []) == []


def record(a: str, b: str, ranks: tuple[int, int]) -> GameRecord:
    return GameRecord(f"{a}-{b}", (a, b), (0.0, 0.0), ranks, ("ok", "ok"), (0, 0))


def test_swiss_pairs_equal_points_without_repeats_and_balances_colours() -> None:
    plan = Plan(seed=1, seats=2, rounds=3)
    field = entrants("a", "b", "c", "d")
    first = swiss_round(plan, field, [], [], 1)
    # no points yet: alphabetical order, a-b and c-d, the first seat to the name sorting first
    assert [g.seats for g in first] == [("a", "b"), ("c", "d")]
    finished = [record("a", "b", (1, 2)), record("c", "d", (2, 1))]
    second = swiss_round(plan, field, finished, [g.seats for g in first], 2)
    # winners a and d (1 point) meet, losers b and c meet; who sat first already sits second
    assert sorted(g.seats for g in second) == [("b", "c"), ("d", "a")]
    played = [g.seats for g in first + second]
    finished += [record("d", "a", (1, 2)), record("b", "c", (1, 1))]
    third = swiss_round(plan, field, finished, played, 3)
    assert {frozenset(g.seats) for g in third} == {frozenset("ac"), frozenset("bd")}
    assert all(frozenset(g.seats) not in {frozenset(p) for p in played} for g in third)


def test_swiss_with_an_odd_field_gives_the_bye_to_the_lowest_bot_without_one() -> None:
    plan = Plan(seed=1, seats=2, rounds=2)
    field = entrants("a", "b", "c")
    first = swiss_round(plan, field, [], [], 1)
    assert [g.seats for g in first] == [("a", "b")]
    second = swiss_round(plan, field, [record("a", "b", (1, 2))], [("a", "b")], 2)
    assert [set(g.seats) for g in second] == [{"a", "c"}]


def test_swiss_stops_after_its_rounds() -> None:
    plan = Plan(seed=1, seats=2, rounds=1)
    done = [PlannedGame(("a", "b"), 0, 5, None, 1)]
    assert next_round("swiss", plan, entrants("a", "b"), done, []) == []
    assert (
        total_games(
            "swiss",
            Plan(seed=1, seats=2, rounds=3, games_per_pair=2),
            entrants("a", "b", "c", "d", "e"),
        )
        == 12
    )


def test_game_seeds_depend_on_the_bots_not_their_seats() -> None:
    assert game_seed(1, ("a", "b"), 0) == game_seed(1, ("b", "a"), 0)
    assert game_seed(1, ("a", "b"), 0) != game_seed(2, ("a", "b"), 0)
    assert 0 <= game_seed(1, ("a", "b"), 0) < 2**31


def test_swiss_rematches_get_keys_and_seeds_of_their_own() -> None:
    """Two bots, four rounds: every round is a rematch; the store's keys are unique, so a
    rematch on the first meeting's key could not even be stored (it crashed the run)."""
    plan = Plan(seed=1, seats=2, games_per_pair=2, rounds=4)
    field = entrants("a", "b")
    scheduled: list[PlannedGame] = []
    for _ in range(4):
        scheduled += next_round("swiss", plan, field, scheduled, [])
    assert [g.index for g in scheduled] == list(range(8))
    assert len({g.key("t") for g in scheduled}) == 8 and len({g.seed for g in scheduled}) == 8
