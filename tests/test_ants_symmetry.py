"""Symmetric food's first step: the orientations under which every player's start looks like
player 0's, found as the 2011 engine's `map_similar` and `get_map_symmetry` find them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.games.ants.symmetry import (
    LAND,
    WATER,
    MapSymmetry,
    _beside,
    distance2,
    offset_aim,
)


def similar_as_in_2011(grid, loc1, loc2, aim: int, player: int) -> bool:
    """The 2011 `map_similar`, square by square."""
    rows, cols = len(grid), len(grid[0])
    for row in range(rows):
        for col in range(cols):
            drow, dcol = offset_aim(row, col, aim)
            ilk0 = grid[(loc1[0] + row) % rows][(loc1[1] + col) % cols]
            ilk1 = grid[(loc2[0] + drow) % rows][(loc2[1] + dcol) % cols]
            if ilk0 == 0 and ilk1 != player:
                return False
            if ilk0 > 0 and (ilk1 < 0 or ilk1 == player):
                return False
            if ilk0 < 0 and ilk1 != ilk0:
                return False
    return True


@st.composite
def maps_and_starts(draw):
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    ilk = st.sampled_from([LAND, LAND, WATER, -3, 0, 1, 2])
    grid = [[draw(ilk) for _ in range(cols)] for _ in range(rows)]
    square = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    return grid, draw(square), draw(square), draw(st.integers(0, 7)), draw(st.integers(1, 2))


@settings(max_examples=400, deadline=None)
@given(maps_and_starts())
def test_similar_is_the_2011_square_by_square_test(case) -> None:
    grid, loc1, loc2, aim, player = case
    expected = similar_as_in_2011(grid, loc1, loc2, aim, player)
    assert MapSymmetry(grid, []).similar(loc1, loc2, aim, player) is expected


def two_hills(water: list[tuple[int, int]], rows: int = 2) -> MapSymmetry:
    """A rows x 4 map of land, player 0's hill at (0, 0), player 1's at (0, 2)."""
    grid = [[LAND] * 4 for _ in range(rows)]
    for row, col in water:
        grid[row][col] = WATER
    grid[0][0], grid[0][2] = 0, 1
    return MapSymmetry(grid, [(0, 0, 0), (0, 2, 1)])


def test_a_map_of_bare_land_matches_under_the_four_unturned_aims() -> None:
    """Aims 0-3 take player 0's hill, two columns away, to offset (0, ±2) of player 1's:
    square (0, 0). Aims 4-7 turn (0, 2) into (±2, 0), which on 2 rows is player 1's own hill.
    The markers at offset (1, 2) land on (1, 2) and (1, 0), seen alike by both."""
    assert two_hills([]).orientations() == [[((0, 0), 0), ((0, 2), aim)] for aim in range(4)]


def test_water_keeps_only_the_aims_that_take_it_onto_itself() -> None:
    """Player 0 sees water at offset (1, 1); player 1 sees it there only where the column
    offset is turned back (aims 2 and 3: (±1, -1) from (0, 2) is (1, 1))."""
    assert two_hills([(1, 1)]).orientations() == [
        [((0, 0), 0), ((0, 2), 2)],
        [((0, 0), 0), ((0, 2), 3)],
    ]


def test_a_map_no_aim_matches_is_not_symmetric() -> None:
    """On 3 rows, water at offsets (1, 1) and (2, 0) of player 0: only aim 2 takes (1, 1)
    onto water, and it takes (2, 0) onto land at (2, 2)."""
    symmetry = two_hills([(1, 1), (2, 0)], rows=3)
    with pytest.raises(ValueError, match="no orientation of player 1 matches player 0"):
        symmetry.orientations()


def test_the_markers_leave_the_map_as_it_was() -> None:
    symmetry = two_hills([(1, 1)])
    before = [list(row) for row in symmetry.grid]
    symmetry.orientations()
    assert symmetry.grid == before


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_the_squares_beside_a_square_are_those_at_distance2_one(rows, cols, data) -> None:
    square = (data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1)))
    expected = {
        (row, col)
        for row in range(rows)
        for col in range(cols)
        if distance2(rows, cols, square, (row, col)) == 1
    }
    assert _beside(rows, cols, square) == expected
