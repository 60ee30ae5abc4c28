"""Standings, ratings, cross table and history plot on hand-made game records.

Every expected value is worked out by hand from the rules (and, for the rating, from the
Plackett–Luce update of Weng & Lin 2011, Algorithm 4, written out below), not read back
from the code.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.tournament.ranking import (
    RANK_METHODS,
    counted_games,
    cross_table,
    default_rank_by,
    outcome,
    plot_history,
    standings,
)
from botarena.tournament.records import GameRecord

ADV, MM = "adventurers", "maze master"


def game(
    key: str,
    bots: tuple[str, ...],
    scores: tuple[float, ...],
    ranks: tuple[int, ...],
    statuses: tuple[str, ...] | None = None,
    faults: tuple[int, ...] | None = None,
    roles: tuple[str, ...] | None = None,
    order: int = 0,
) -> GameRecord:
    return GameRecord(
        key=key,
        bots=bots,
        scores=scores,
        ranks=ranks,
        statuses=statuses or ("ok",) * len(bots),
        faults=faults or (0,) * len(bots),
        roles=roles,
        order=order,
    )


def table(rows: list) -> dict[str, dict]:
    return {row.bot: row for row in rows}


def test_each_game_declares_its_tradition() -> None:
    assert [default_rank_by(g) for g in ("amazes", "ants", "falldown", "labyrinth")] == [
        "points",
        "places",
        "places",
        "mean-score",
    ]
    assert RANK_METHODS == ("points", "places", "mean-score")


# -- Amazes: total points, irregular losses break ties ------------------------------------
AMAZES = [
    game("g1", ("a", "b"), (30, 10), (1, 2), order=1),
    game("g2", ("b", "a"), (25, 0), (1, 2), ("ok", "crashed"), (0, 1), order=2),
    game("g3", ("c", "a"), (20, 20), (1, 1), order=3),
    game("g4", ("c", "b"), (0, 15), (2, 1), ("timeout", "ok"), (2, 0), order=4),
]


def test_points_total_with_irregular_losses_breaking_the_tie() -> None:
    # a: 30 + 0 + 20 = 50 with one crash; b: 10 + 25 + 15 = 50 clean; c: 20 + 0 = 20.
    rows = standings("amazes", AMAZES, ["a", "b", "c", "d"])
    assert [(r.bot, r.rank, r.points, r.irregular) for r in rows] == [
        ("b", 1, 50, 0),
        ("a", 2, 50, 1),
        ("c", 3, 20, 1),
        ("d", 4, 0, 0),
    ]
    a, b, c, d = (table(rows)[x] for x in "abcd")
    assert (a.games, a.wins, a.draws, a.losses, a.faults) == (3, 1, 1, 1, 1)
    assert (b.games, b.wins, b.draws, b.losses, b.faults) == (3, 2, 0, 1, 0)
    assert (c.games, c.wins, c.draws, c.losses, c.faults, c.timeouts) == (2, 0, 1, 1, 2, 1)
    assert (d.games, d.wins, d.draws, d.losses, d.faults) == (0, 0, 0, 0, 0)
    assert a.mean_score == pytest.approx(50 / 3)
    assert c.mean_score == 10
    assert a.to_dict()["bot"] == "a" and list(a.to_dict())[:9] == [
        "bot",
        "rank",
        "rating",
        "games",
        "mean_score",
        "wins",
        "draws",
        "losses",
        "faults",
    ]
    assert "role" not in a.to_dict()


def test_equal_points_and_irregular_losses_share_a_place() -> None:
    records = [game("g1", ("x", "y"), (10, 10), (1, 1)), game("g2", ("y", "z"), (4, 0), (1, 2))]
    rows = standings("amazes", records, ["x", "y", "z"])
    # x 10, y 14, z 0: no tie; now make x and y equal.
    assert [(r.bot, r.rank) for r in rows] == [("y", 1), ("x", 2), ("z", 3)]
    records.append(game("g3", ("z", "x"), (0, 4), (2, 1)))
    rows = standings("amazes", records, ["x", "y", "z"])
    assert [(r.bot, r.rank) for r in rows] == [("x", 1), ("y", 1), ("z", 3)]


# -- places: openskill Plackett–Luce ordinal ---------------------------------------------
def plackett_luce(mus: list[float], sigmas: list[float], ranks: list[int]) -> list[tuple]:
    """Weng & Lin (2011) Algorithm 4 with openskill's defaults (β = 25/6, τ = 25/300,
    γ = σ/c, κ = 1e-4), one player a team: the new (μ, σ) of each player."""
    beta, tau, kappa = 25 / 6, 25 / 300, 1e-4
    var = [s * s + tau * tau for s in sigmas]
    c = math.sqrt(sum(v + beta * beta for v in var))
    ties = [ranks.count(r) for r in ranks]
    out = []
    for i, (mu, v) in enumerate(zip(mus, var, strict=True)):
        omega = delta = 0.0
        for q in range(len(mus)):
            if ranks[q] > ranks[i]:
                continue
            below = sum(math.exp(mus[s] / c) for s in range(len(mus)) if ranks[s] >= ranks[q])
            p = math.exp(mu / c) / below
            omega += ((1.0 if q == i else 0.0) - p) / ties[q]
            delta += p * (1 - p) / ties[q]
        gamma = math.sqrt(v) / c
        out.append((mu + v / c * omega, math.sqrt(v * max(1 - gamma * v / c**2 * delta, kappa))))
    return out


def test_places_rating_is_the_plackett_luce_ordinal() -> None:
    prior = (25.0, 25 / 3)
    (w_mu, w_sigma), (l_mu, l_sigma) = plackett_luce([25, 25], [25 / 3, 25 / 3], [1, 2])
    # By hand: σ² = 625/9 + 1/144, c² = 2(σ² + 625/36), the winner's p = 1/2 for both seats.
    var = 625 / 9 + 1 / 144
    c = math.sqrt(2 * (var + 625 / 36))
    assert w_mu == pytest.approx(25 + var / c * 0.5)
    assert l_mu == pytest.approx(25 - var / c * 0.5)
    rows = standings("ants", [game("g", ("w", "l"), (3, 1), (1, 2))], ["w", "l", "n"])
    t = table(rows)
    assert t["w"].rating == pytest.approx(w_mu - 3 * w_sigma)
    assert t["l"].rating == pytest.approx(l_mu - 3 * l_sigma)
    assert t["n"].rating == pytest.approx(prior[0] - 3 * prior[1])
    assert [(r.bot, r.rank) for r in rows] == [("w", 1), ("l", 2), ("n", 3)]


def test_places_ignore_points_and_ties_share_a_place() -> None:
    # Ants, 4 seats: 5, 2, 2, 0 points -> places 1, 2, 2, 4. Then a second game in which
    # the winner scores far less than the rest but still wins: points do not count.
    records = [
        game("g1", ("p", "q", "r", "s"), (5, 2, 2, 0), (1, 2, 2, 4), order=1),
        game("g2", ("p", "q", "r", "s"), (1, 0, 0, 0), (1, 2, 2, 2), order=2),
    ]
    (p1, q1, r1, s1) = plackett_luce([25] * 4, [25 / 3] * 4, [1, 2, 2, 4])
    after = plackett_luce([p1[0], q1[0], r1[0], s1[0]], [p1[1], q1[1], r1[1], s1[1]], [1, 2, 2, 2])
    rows = standings("ants", records, ["p", "q", "r", "s"])
    assert [(r.bot, r.rank) for r in rows] == [("p", 1), ("q", 2), ("r", 2), ("s", 4)]
    for row, (mu, sigma) in zip(rows, after, strict=True):
        assert row.rating == pytest.approx(mu - 3 * sigma)
    t = table(rows)
    assert (t["p"].wins, t["p"].draws, t["p"].losses) == (2, 0, 0)
    assert (t["q"].wins, t["q"].draws, t["q"].losses) == (0, 0, 2)
    assert t["q"].points == 2 and t["p"].points == 6


def test_wins_draws_losses_in_n_player_games() -> None:
    falldown_draw = game("d", ("a", "b", "c", "d"), (0, 0, 0, 0), (1, 1, 1, 1))
    shared_first = game("s", ("a", "b", "c", "d"), (3, 9, 9, 1), (3, 1, 1, 4))
    assert [outcome(falldown_draw, s) for s in range(4)] == ["draw"] * 4
    assert [outcome(shared_first, s) for s in range(4)] == ["loss", "draw", "draw", "loss"]
    survivor = game("w", ("a", "b", "c", "d"), (0, 0, 1, 0), (2, 2, 1, 2))
    assert [outcome(survivor, s) for s in range(4)] == ["loss", "loss", "win", "loss"]
    t = table(standings("falldown", [falldown_draw, survivor], list("abcd")))
    assert (t["c"].wins, t["c"].draws, t["c"].losses) == (1, 1, 0)
    assert (t["a"].wins, t["a"].draws, t["a"].losses) == (0, 1, 1)


def test_strength_order_comes_out_of_the_rating() -> None:
    # A round robin played three times where the stronger bot always wins.
    strength = ["s4", "s3", "s2", "s1"]
    records = []
    for rnd in range(3):
        for i, x in enumerate(strength):
            for y in strength[i + 1 :]:
                seats = (x, y) if rnd % 2 else (y, x)
                ranks = (1, 2) if seats[0] == x else (2, 1)
                records.append(game(f"{rnd}{x}{y}", seats, (1, 0), ranks, order=len(records)))
    rows = standings("ants", records, sorted(strength))
    assert [r.bot for r in rows] == strength
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_ratings_follow_the_order_field_not_the_list_order() -> None:
    records = [
        game(f"g{i}", ("a", "b") if i % 3 else ("b", "a"), (1, 0), (1, 2), order=i)
        for i in range(8)
    ]
    first = standings("ants", records, ["a", "b"])
    again = standings("ants", list(reversed(records)), ["a", "b"])
    assert first == again
    assert first == standings("ants", records, ["a", "b"])


NAMES = ["n0", "n1", "n2", "n3", "n4"]


@st.composite
def tournaments(draw: st.DrawFn) -> list[GameRecord]:
    records = []
    for index in range(draw(st.integers(1, 12))):
        seats = draw(st.integers(2, 4))
        bots = tuple(draw(st.permutations(NAMES))[:seats])
        places = tuple(draw(st.lists(st.integers(1, seats), min_size=seats, max_size=seats)))
        ranks = tuple(1 + sum(other < mine for other in places) for mine in places)
        scores = tuple(float(seats - p) for p in places)
        statuses = tuple(draw(st.sampled_from(["ok", "ok", "crashed", "timeout"])) for _ in bots)
        records.append(
            game(
                f"k{index}",
                bots,
                scores,
                ranks,
                statuses,
                tuple(int(s != "ok") for s in statuses),
                order=index,
            )
        )
    return records


@settings(max_examples=60, deadline=None)
@given(tournaments(), st.permutations(NAMES), st.sampled_from(RANK_METHODS))
def test_renaming_bots_renames_the_standings(
    records: list[GameRecord], renamed: list[str], method: str
) -> None:
    rename = dict(zip(NAMES, renamed, strict=True))
    relabelled = [
        game(
            r.key,
            tuple(rename[b] for b in r.bots),
            r.scores,
            r.ranks,
            r.statuses,
            r.faults,
            order=r.order,
        )
        for r in records
    ]
    before = table(standings("ants", records, NAMES, rank_by=method))
    after = table(standings("ants", relabelled, renamed, rank_by=method))
    for name in NAMES:
        old, new = before[name], after[rename[name]]
        assert (
            old.rank,
            old.rating,
            old.games,
            old.wins,
            old.draws,
            old.losses,
            old.faults,
            old.points,
            old.irregular,
        ) == (
            new.rank,
            new.rating,
            new.games,
            new.wins,
            new.draws,
            new.losses,
            new.faults,
            new.points,
            new.irregular,
        )


def test_unknown_rank_method_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown ranking 'elo'"):
        standings("amazes", AMAZES, ["a"], rank_by="elo")


def test_rank_by_chooses_another_method() -> None:
    rows = standings("amazes", AMAZES, ["a", "b", "c"], rank_by="mean-score")
    # Means: a 50/3, b 50/3, c 10: a and b share first place.
    assert [(r.bot, r.rank) for r in rows] == [("a", 1), ("b", 1), ("c", 3)]
    assert rows[0].rating == pytest.approx(50 / 3)


# -- Labyrinth: mean score per role, strikes, disqualification ---------------------------
def lab(
    key: str, adventurer: str, master: str, score: float, strike: int | None = None, order: int = 0
) -> GameRecord:
    statuses = ["ok", "ok"]
    ranks = [1, 1]
    faults = [0, 0]
    if strike is not None:
        statuses[strike], ranks[strike], faults[strike] = "strike", 2, 1
    return game(
        key,
        (adventurer, master),
        (score, score),
        tuple(ranks),
        tuple(statuses),
        tuple(faults),
        (ADV, MM),
        order,
    )


LABYRINTH = [
    lab("g1", "A1", "M1", 1500, order=1),
    lab("g2", "A1", "M2", 900, order=2),
    lab("g3", "A2", "M1", 700, order=3),
    lab("g4", "A2", "M2", 5000, strike=0, order=4),  # outlier: thrown out
    lab("g5", "A1", "M3", -10, strike=1, order=5),  # M3's strikes 1..3
    lab("g6", "A2", "M3", -20, strike=1, order=6),
    lab("g7", "A3", "M3", -30, strike=1, order=7),
    lab("g8", "A3", "M3", 2000, order=8),  # M3 disqualified: discarded
    lab("g9", "A3", "M1", 800, order=9),
    lab("g10", "A3", "M2", 1000, order=10),
]


def test_strike_games_are_thrown_out_and_three_strikes_disqualify() -> None:
    assert [r.key for r in counted_games("labyrinth", LABYRINTH)] == ["g1", "g2", "g3", "g9", "g10"]
    # Two strikes are not enough: without g7, M3 keeps its clean game g8.
    two = [r for r in LABYRINTH if r.key != "g7"]
    assert [r.key for r in counted_games("labyrinth", two)] == ["g1", "g2", "g3", "g8", "g9", "g10"]


def test_labyrinth_ranks_adventurers_highest_and_maze_masters_lowest_mean() -> None:
    rows = standings("labyrinth", LABYRINTH, ["A1", "A2", "A3", "M1", "M2", "M3"])
    # Adventurers: A1 (1500 + 900) / 2 = 1200, A3 (800 + 1000) / 2 = 900, A2 700.
    # Maze masters: M2 (900 + 1000) / 2 = 950, M1 (1500 + 700 + 800) / 3 = 1000, M3 out.
    assert [(r.role, r.bot, r.rank, r.mean_score, r.games) for r in rows] == [
        (ADV, "A1", 1, 1200, 2),
        (ADV, "A3", 2, 900, 2),
        (ADV, "A2", 3, 700, 1),
        (MM, "M2", 1, 950, 2),
        (MM, "M1", 2, 1000, 3),
        (MM, "M3", 3, 0, 0),
    ]
    t = table(rows)
    assert t["M3"].disqualified and t["M3"].faults == 3 and t["M3"].irregular == 3
    assert not t["A2"].disqualified and t["A2"].faults == 1
    assert t["A1"].rating == 1200
    # Both roles rank first in every game (they do not compete with each other): draws.
    assert (t["M1"].wins, t["M1"].draws, t["M1"].losses) == (0, 3, 0)
    assert t["A1"].to_dict()["role"] == ADV


def test_roles_of_bots_without_games_come_from_the_roles_argument() -> None:
    rows = standings("labyrinth", LABYRINTH[:2], ["A1", "M1", "M2", "new"], roles={"new": MM})
    assert [(r.role, r.bot, r.rank) for r in rows] == [
        (ADV, "A1", 1),
        (MM, "M2", 1),
        (MM, "M1", 2),
        (MM, "new", 3),
    ]


# -- cross table and plot ------------------------------------------------------------------
def test_cross_table_counts_from_the_row_bots_side() -> None:
    cells = cross_table(
        "amazes", [*AMAZES, game("n", ("a", "b", "c"), (1, 2, 3), (3, 2, 1))], ["a", "b", "c"]
    )
    # g1 won 30-10, g2 lost 0-25; in the 3-player game n, c placed 1st (3), b 2nd (2), a 3rd (1)
    assert cells["a"]["b"] == (1, 0, 2, 31.0)
    assert cells["b"]["a"] == (2, 0, 1, 37.0)
    assert cells["a"]["c"] == (0, 1, 1, 21.0)
    assert cells["c"]["a"] == (1, 1, 0, 23.0)
    assert cells["c"]["b"] == (1, 0, 1, 3.0)
    assert cells["b"]["c"] == (1, 0, 1, 17.0)
    assert "a" not in cells["a"]


def test_cross_table_of_four_player_games_compares_places_pair_by_pair() -> None:
    falldown = [
        game("f1", ("a", "b", "c", "d"), (40, 30, 30, 10), (1, 2, 2, 4)),
        game("f2", ("b", "c", "d", "a"), (50, 20, 10, 0), (1, 2, 3, 4)),
    ]
    cells = cross_table("falldown", falldown, ["a", "b", "c", "d"])
    assert cells["a"]["b"] == (1, 0, 1, 40.0)
    assert cells["b"]["c"] == (1, 1, 0, 80.0)
    assert cells["c"]["b"] == (0, 1, 1, 50.0)
    assert cells["d"]["a"] == (1, 0, 1, 20.0)
    assert all(len(cells[bot]) == 3 for bot in "abcd")


@pytest.mark.slow  # seconds on 2 cores
def test_plot_history_writes_a_png(tmp_path: Path) -> None:
    for game_name, records, bots in (
        ("amazes", AMAZES, ["a", "b", "c"]),
        ("labyrinth", LABYRINTH, ["A1", "A2", "M1", "M2"]),
    ):
        path = plot_history(game_name, records, bots, tmp_path / "plots" / f"{game_name}.png")
        assert path == tmp_path / "plots" / f"{game_name}.png"
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    places = plot_history("amazes", AMAZES, ["a"], tmp_path / "p.png", rank_by="places")
    assert places.stat().st_size > 1000


def test_ranking_does_not_import_matplotlib_or_openskill() -> None:
    code = (
        "import sys, botarena.tournament.ranking; "
        "print(sorted(m for m in ('matplotlib', 'openskill') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_cross_table_leaves_out_what_standings_leave_out() -> None:
    cells = cross_table("labyrinth", LABYRINTH, ["A2", "A3", "M2", "M3"])
    # g4 (A2's strike) and every game of M3 (three strikes) are gone; g10 remains.
    assert "M2" not in cells["A2"] and "M3" not in cells["A3"]  # met only in thrown-out games
    assert cells["A3"]["M2"] == (0, 1, 0, 1000.0)  # roles never compete: a draw, and the score
    assert cells["M2"]["A3"] == (0, 1, 0, 1000.0)
    assert "A3" not in cells["A2"]  # two adventurers never meet


def test_scripted_labyrinth_games_strike_and_disqualify() -> None:
    """Real games: a maze master that answers garbage strikes in each of its three games and
    is disqualified; the adventurer's mean is that of its two clean games."""
    import botarena
    from botarena.games.labyrinth.api import MazeMaster

    class Garbage(MazeMaster):
        def generate_maze(self, maze_size: int) -> str:
            return "oops"

    plays = [
        ("static", "builtin:labyrinth/static", "a"),
        ("garbage", Garbage(), "b"),
        ("garbage", Garbage(), "c"),
        ("garbage", Garbage(), "d"),
        ("static", "builtin:labyrinth/static", "e"),
    ]
    records = []
    for order, (master, spec, seed) in enumerate(plays):
        result = botarena.play(
            "labyrinth",
            ["builtin:labyrinth/cartographer", spec],
            seed=seed,
            max_rounds=1,
            cpu_limits=0,
        )
        records.append(
            GameRecord(
                key=seed,
                bots=("cartographer", master),
                scores=tuple(p.score for p in result.players),
                ranks=tuple(p.rank for p in result.players),
                statuses=tuple(p.status for p in result.players),
                faults=tuple(p.faults for p in result.players),
                roles=(ADV, MM),
                order=order,
            )
        )
    assert [r.statuses[1] for r in records] == ["ok", "strike", "strike", "strike", "ok"]
    clean = [records[0].scores[0], records[4].scores[0]]
    rows = standings("labyrinth", records, ["cartographer", "static", "garbage"])
    assert [(r.role, r.bot, r.rank, r.games, r.disqualified) for r in rows] == [
        (ADV, "cartographer", 1, 2, False),
        (MM, "static", 1, 2, False),
        (MM, "garbage", 2, 0, True),
    ]
    assert rows[0].mean_score == sum(clean) / 2 == rows[1].mean_score
    assert (rows[2].irregular, rows[2].faults) == (3, 3)  # strikes the referee did not count


def test_total_points_in_role_games_keep_each_roles_direction() -> None:
    rows = standings("labyrinth", LABYRINTH, ["A1", "A3", "M1", "M2"], rank_by="points")
    # Counted totals: A1 2400, A3 1800; M2 1900 (lowest first), M1 3000.
    assert [(r.bot, r.rank, r.points) for r in rows] == [
        ("A1", 1, 2400),
        ("A3", 2, 1800),
        ("M2", 1, 1900),
        ("M1", 2, 3000),
    ]
