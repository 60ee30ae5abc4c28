"""Fog of war: the squares each player sees are those within viewradius2 of one of its ants,
the map wrapping at its edges, computed either way (stamping or spreading) alike."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.games.ants.vision import STAMP_LIMIT, Vision


def seen_by_definition(
    rows: int, cols: int, radius2: int, ants: list[tuple[int, int, int]]
) -> np.ndarray:
    """The 2011 engine's rule: square (r + dr, c + dc), wrapped, for every offset with
    dr² + dc² <= viewradius2 of every ant (r, c) of a player."""
    reach = int(radius2**0.5) + 1
    seen = np.zeros((rows, cols), dtype=np.uint16)
    for row, col, owner in ants:
        for drow in range(-reach, reach + 1):
            for dcol in range(-reach, reach + 1):
                if drow * drow + dcol * dcol <= radius2:
                    seen[(row + drow) % rows, (col + dcol) % cols] |= 1 << owner
    return seen


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
    vision = Vision(rows, cols, radius2)
    seen = getattr(vision, method)(ants)
    assert np.array_equal(seen, seen_by_definition(rows, cols, radius2, ants))


def test_many_ants_are_spread_and_few_are_stamped() -> None:
    vision = Vision(40, 50, 77)
    many = [(row, col, (row + col) % 4) for row in range(0, 40, 3) for col in range(0, 50, 7)]
    assert len(many) > STAMP_LIMIT
    assert np.array_equal(vision.bits(many), seen_by_definition(40, 50, 77, many))
    few = many[:STAMP_LIMIT]
    assert np.array_equal(vision.bits(few), seen_by_definition(40, 50, 77, few))
