"""The explorer's endgame pieces: the opponent filter over the squared-distance history,
the hunt it plans, the evasion risk of a square and the danger model.

Positions are set in an open field (a 25x25 maze with only its outer walls) placed in the
explorer's frame, so walking distances are Manhattan distances and every expected value
follows from the squared-distance geometry of the rules by hand.
"""

from __future__ import annotations

import math

import pytest

from botarena.games.amazes.bots import evasion
from botarena.games.amazes.bots.explorer import DANGER_LEFT, DANGER_LEFT_FULL, ExplorerBot
from botarena.games.amazes.bots.mapping import FRAME, OPEN, SIZE, WALL, BotMap, h_edge, v_edge
from botarena.games.amazes.bots.tracking import FLOOR, Tracker, Walks

TOP = LEFT = 13


def at(row: int, col: int) -> int:
    """The frame square of maze square (row, col) in the open field."""
    return (TOP + row) * FRAME + LEFT + col


def open_field() -> BotMap:
    """Every square discovered, every inner edge open, the outer edges walls."""
    bot_map = BotMap()
    for row in range(SIZE):
        for col in range(SIZE):
            bot_map.discover(at(row, col))
    for row in range(SIZE + 1):
        for col in range(SIZE):
            outer = row in (0, SIZE)
            bot_map.learn(h_edge(TOP + row, LEFT + col), WALL if outer else OPEN)
    for row in range(SIZE):
        for col in range(SIZE + 1):
            outer = col in (0, SIZE)
            bot_map.learn(v_edge(TOP + row, LEFT + col), WALL if outer else OPEN)
    bot_map.infer()
    assert bot_map.located and bot_map.count == SIZE * SIZE
    return bot_map


def test_the_open_field_is_where_the_tests_put_it() -> None:
    bot_map = open_field()
    assert bot_map.maze_coords(at(3, 4)) == (3, 4)
    assert Walks(bot_map).steps(at(0, 0), at(3, 4)) == 7  # Manhattan: no inner walls


# -- the filter --------------------------------------------------------------------------------


def test_first_reading_is_uniform_over_the_ring() -> None:
    """25 = 0+25 = 9+16: from the corner (0, 0) the opponent is on (0,5), (3,4), (4,3) or
    (5,0), nothing more likely than the rest."""
    walks = Walks(open_field())
    tracker = Tracker()
    tracker.observe(walks, at(0, 0), 25)
    assert tracker.belief == pytest.approx(
        {at(0, 5): 0.25, at(3, 4): 0.25, at(4, 3): 0.25, at(5, 0): 0.25}
    )


def test_capture_plan_from_a_distance_history() -> None:
    """Read 25 from (0, 0), then 36 from (0, 12): 36 = 0+36 only, so the opponent is on
    (0, 6), (0, 18) or (6, 12). (0, 6) is 1 step from (0, 5) of the first ring, (6, 12) 11
    steps from the nearest, (0, 18) 13: the hunt's likeliest square is (0, 6)."""
    walks = Walks(open_field())
    tracker = Tracker()
    tracker.observe(walks, at(0, 0), 25)
    tracker.observe(walks, at(0, 12), 36)
    assert set(tracker.belief) == {at(0, 6), at(0, 18), at(6, 12)}
    assert sum(tracker.belief.values()) == pytest.approx(1.0)
    assert tracker.belief[at(0, 6)] > 0.5  # likelier than the other two together
    assert tracker.belief[at(6, 12)] > tracker.belief[at(0, 18)]
    assert tracker.likeliest(1) == [(tracker.belief[at(0, 6)], at(0, 6))]


def test_a_move_never_ends_where_it_began() -> None:
    """The jury turns a move that ends on its start square into a step away, so a square
    the opponent surely stood on keeps only the filter's floor share."""
    walks = Walks(open_field())
    tracker = Tracker()
    tracker.belief = {at(5, 5): 1.0}
    tracker.observe(walks, at(0, 0), 50)  # 50 = 1+49 = 25+25: (1,7), (7,1), (5,5)
    assert set(tracker.belief) == {at(1, 7), at(7, 1), at(5, 5)}
    assert tracker.belief[at(5, 5)] == pytest.approx(FLOOR / 3)
    assert tracker.belief[at(1, 7)] == pytest.approx(tracker.belief[at(7, 1)])


def test_a_missed_hunt_square_drops_out() -> None:
    tracker = Tracker()
    tracker.belief = {1: 0.5, 2: 0.3, 3: 0.2}
    tracker.miss(1)
    assert tracker.belief == pytest.approx({2: 0.6, 3: 0.4})
    tracker.miss(99)  # not a candidate: nothing changes
    assert tracker.belief == pytest.approx({2: 0.6, 3: 0.4})


def test_a_hunter_is_found_where_it_guessed_this_bot() -> None:
    """A hunter reads its squared distance to this bot and lands on a square at that
    distance from where it stood. The opponent stood on (0, 0), this bot on (0, 5): the
    hunter's ring is 25 = (0,5), (3,4), (4,3), (5,0). This bot then reads 10 = 1+9 from
    (0, 5): (1,2), (1,8), (3,4) or (3,6); only (3,4) is on both rings, so with an opponent
    able to hunt the filter trusts the hunter's move and puts it on (3, 4)."""
    walks = Walks(open_field())
    tracker = Tracker()
    tracker.belief = {at(0, 0): 1.0}
    tracker.observe(walks, at(0, 5), 10, hunted_prior=1.0)
    assert set(tracker.belief) == {at(1, 2), at(1, 8), at(3, 4), at(3, 6)}
    assert tracker.hunting > 0.5
    assert max(tracker.belief, key=tracker.belief.get) == at(3, 4)
    assert tracker.belief[at(3, 4)] > 0.5


def test_no_hunter_move_is_weighed_before_the_opponent_can_hunt() -> None:
    """The same readings with an opponent that cannot have discovered everything: only the
    walking hypotheses count, and (1, 2), 3 steps from (0, 0), is likelier than (3, 4), 7."""
    walks = Walks(open_field())
    tracker = Tracker()
    tracker.belief = {at(0, 0): 1.0}
    tracker.observe(walks, at(0, 5), 10)
    assert tracker.hunting == 0.0
    assert tracker.belief[at(1, 2)] > tracker.belief[at(3, 4)]


# -- evasion -----------------------------------------------------------------------------------


def test_the_hunters_own_square_is_safe() -> None:
    """A turn never ends where it began: the hunter cannot land on its own square."""
    walks = Walks(open_field())
    assert evasion.guess_chance(walks, at(0, 0), at(1, 1), at(0, 0)) == 0.0
    assert evasion.risk(walks, [(1.0, at(0, 0))], at(1, 1), at(0, 0)) == 0.0


def test_evasion_avoids_a_square_alone_on_its_ring() -> None:
    """A hunter in the corner (0, 0); this bot on (1, 1) may step to (0, 1) or to (2, 2)
    (both next to it in the open field after one or two steps). At squared distance 1 the
    hunter's ring is (0, 1) and (1, 0), both one step from (1, 1) and from the hunter: an
    even guess, 1/2. At squared distance 8 the ring is (2, 2) alone (8 = 4+4 only): the
    hunter lands there for sure."""
    walks = Walks(open_field())
    hunter, me = at(0, 0), at(1, 1)
    assert evasion.guess_chance(walks, hunter, me, at(0, 1)) == pytest.approx(0.5)
    assert evasion.guess_chance(walks, hunter, me, at(2, 2)) == pytest.approx(1.0)
    threats = [(1.0, hunter)]
    assert evasion.risk(walks, threats, me, at(2, 2)) > evasion.risk(walks, threats, me, at(0, 1))


def test_evasion_weighs_how_likely_the_bot_walked_to_each_ring_square() -> None:
    """Hunter on (0, 0), this bot on (0, 2) moves to (0, 1): the ring of 1 is (0, 1), 1 step
    from (0, 2), and (1, 0), 3 steps. The filter hunter's share follows the move law
    exp(-steps / 6); the nearest-square hunter finds both 1 step away: 1/2."""
    walks = Walks(open_field())
    near, far = math.exp(-1 / 6), math.exp(-3 / 6)
    expected = (1 - evasion.NEAREST_SHARE) * near / (near + far) + evasion.NEAREST_SHARE * 0.5
    assert evasion.guess_chance(walks, at(0, 0), at(0, 2), at(0, 1)) == pytest.approx(expected)


# -- danger ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "danger"),
    [
        (DANGER_LEFT, 0.0),
        (DANGER_LEFT_FULL, 1.0),
        (30, (DANGER_LEFT - 30) / (DANGER_LEFT - DANGER_LEFT_FULL)),
        (SIZE * SIZE, 0.0),
    ],
)
def test_danger_grows_as_this_bot_nears_a_complete_map(left: int, danger: float) -> None:
    """The opponent explores about as fast: with few squares left here, it may be done
    (early in the game, so the turn alone says nothing)."""
    bot = ExplorerBot()
    bot.turn = 10
    bot.map.count = SIZE * SIZE - left
    assert bot._danger() == pytest.approx(danger)
