"""Fog of war: the squares each player sees are those within viewradius2 of one of its ants,
the map wrapping at its edges, computed either way (stamping or spreading) alike."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.games.ants.vision import SPREAD_FROM, Vision

PLAYERS = 10


def seen_by_definition(
    rows: int, cols: int, radius2: int, ants: list[tuple[int, int, int]]
) -> list[list[int]]:
    """The 2011 engine's rule: square (r + dr, c + dc), wrapped, for every offset with
    dr² + dc² <= viewradius2 of every ant (r, c) of a player; bit p: player p sees it."""
    reach = int(radius2**0.5) + 1
    seen = [[0] * cols for _ in range(rows)]
    for row, col, owner in ants:
        for drow in range(-reach, reach + 1):
            for dcol in range(-reach, reach + 1):
                if drow * drow + dcol * dcol <= radius2:
                    seen[(row + drow) % rows][(col + dcol) % cols] |= 1 << owner
    return seen


def squares(vision: Vision, sight: list[int]) -> list[list[int]]:
    """A sight read square by square, through `Vision.who`."""
    return [
        [vision.who(sight, row, col) for col in range(vision.cols)] for row in range(vision.rows)
    ]


@st.composite
def boards(draw, max_ants: int):
    rows = draw(st.integers(1, 30))
    cols = draw(st.integers(1, 30))
    radius2 = draw(st.sampled_from([0, 1, 2, 5, 10, 77, 200]))
    square = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1), st.integers(0, 9))
    ants = draw(st.lists(square, max_size=max_ants, unique_by=lambda ant: ant[:2]))
    return rows, cols, radius2, ants


@pytest.mark.parametrize("method", ["stamped", "spread"])
@settings(max_examples=150, deadline=None)
@given(boards(max_ants=12))
def test_both_ways_of_seeing_see_what_the_rule_says(method: str, board) -> None:
    rows, cols, radius2, ants = board
    vision = Vision(rows, cols, radius2, PLAYERS)
    sight = getattr(vision, method)(ants)
    assert squares(vision, sight) == seen_by_definition(rows, cols, radius2, ants)
    assert all(row >> vision.row_bits == 0 for row in sight)  # nothing past the last square


def test_ants_crowded_in_rows_and_ants_scattered_are_seen_alike() -> None:
    vision = Vision(40, 50, 77, 4)
    crowded = [(row, col, (row + col) % 4) for row in range(0, 40, 3) for col in range(0, 50, 7)]
    assert len(crowded) >= SPREAD_FROM * 14  # spread: 7 ants in each of 14 rows
    assert squares(vision, vision.bits(crowded)) == seen_by_definition(40, 50, 77, crowded)
    scattered = [(row, row % 50, row % 4) for row in range(0, 40, 2)]
    assert squares(vision, vision.bits(scattered)) == seen_by_definition(40, 50, 77, scattered)
    assert vision.bits([]) == [0] * 40


def test_an_ant_sees_the_disk_of_radius2_77_as_the_2011_engine_draws_it() -> None:
    """viewradius2 77: rows -8..8 around the ant, half widths 3 5 6 7 7 8 8 8 8 8 8 8 7 7 6
    5 3 (the largest dc with dr² + dc² <= 77), 241 squares; wrapped at the map's edges."""
    vision = Vision(30, 30, 77)
    seen = squares(vision, vision.bits([(0, 29, 0)]))
    half_widths = [3, 5, 6, 7, 7, 8, 8, 8, 8, 8, 8, 8, 7, 7, 6, 5, 3]
    for drow, width in zip(range(-8, 9), half_widths, strict=True):
        row = seen[drow % 30]
        assert [col for col in range(30) if row[col]] == sorted(
            (29 + dcol) % 30 for dcol in range(-width, width + 1)
        )
    assert sum(map(sum, seen)) == sum(2 * width + 1 for width in half_widths) == 241
