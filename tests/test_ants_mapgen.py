"""The map generator and the 2011 map-maker rule checker."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from botarena.core.rules import GameError
from botarena.games.ants import INFO, new_state
from botarena.games.ants.mapcheck import check_map
from botarena.games.ants.mapfile import AntsMap, map_text, parse_map
from botarena.games.ants.mapgen import generate


@pytest.mark.parametrize("kind", ["maze", "cave", "open"])
@pytest.mark.parametrize(
    ("players", "size"), [(2, (60, 80)), (4, (80, 100)), (7, (70, 140)), (10, (100, 150))]
)
def test_generated_maps_pass_the_2011_rules_and_start_a_game(
    kind: str, players: int, size: tuple[int, int]
) -> None:
    ants_map = generate(players, *size, kind, seed=5)
    assert check_map(ants_map) == []
    assert ants_map.players == players
    assert sorted(owner for *_, owner in ants_map.hills) == list(range(players))
    state = new_state(1, INFO.resolve_options({}), parse_map(map_text(ants_map)), players)
    assert state.all_food  # symmetric food found the map's symmetry


def test_generation_is_seeded() -> None:
    first = map_text(generate(4, 80, 100, "cave", seed=9))
    assert first == map_text(generate(4, 80, 100, "cave", seed=9))
    assert first != map_text(generate(4, 80, 100, "cave", seed=10))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((11, 60, 80, "cave"), "must be 2 to 10"),
        ((2, 60, 80, "lake"), "must be one of maze, cave, open"),
        ((2, 300, 80, "cave"), "at most 200 a side"),
        ((2, 20, 40, "cave"), "the 2011 rules want 900 to 5000"),
    ],
)
def test_impossible_requests_are_user_errors(args: tuple, message: str) -> None:
    with pytest.raises(GameError, match=message):
        generate(*args, seed=1)


def _blank(
    rows: int,
    cols: int,
    hills: list[tuple[int, int, int]],
    water: set[tuple[int, int]] | None = None,
) -> AntsMap:
    return AntsMap(rows, cols, 1 + max(h[2] for h in hills), frozenset(water or set()), hills)


def test_checker_names_each_broken_rule() -> None:
    close = _blank(40, 60, [(10, 10, 0), (10, 13, 1)])
    problems = check_map(close)
    assert any(p.startswith("hill distance:") and "3 steps apart" in p for p in problems)
    assert any("closer than 6 squares" in p for p in problems)
    island = _blank(
        40,
        60,
        [(10, 10, 0), (10, 40, 1)],
        {(r, c) for r in range(20, 25) for c in range(20, 25)} - {(22, 22)},
    )
    assert any(p.startswith("islands: 1 land squares") for p in check_map(island))
    lopsided = _blank(40, 60, [(10, 10, 0), (10, 40, 1)], {(11, 11)})
    assert any(p.startswith("symmetry:") for p in check_map(lopsided))
    small = _blank(20, 40, [(5, 5, 0), (5, 25, 1)])
    assert any(p.startswith("size:") for p in check_map(small))


@pytest.mark.parametrize(("gap", "blocked"), [(1, True), (2, True), (3, False)])
def test_checker_wants_a_path_through_all_hills_for_a_3x3_block(gap: int, blocked: bool) -> None:
    """Two walls cut the (wrapping) map in two halves; one has a gap of `gap` rows. Ants pass
    any gap, a 3x3 block only one at least 3 wide."""
    walls = {
        (row, col)
        for row in range(40)
        for col in (25, 55)
        if not (col == 25 and 20 <= row < 20 + gap)
    }
    problems = check_map(_blank(40, 60, [(10, 10, 0), (10, 40, 1)], walls))
    assert not any(p.startswith("islands") for p in problems)
    cut = [p for p in problems if p.startswith("3x3 block:")]
    assert cut == (
        ["3x3 block: cannot travel from hill (10, 10) to hill (10, 40)"] if blocked else []
    )


@pytest.mark.slow
def test_cli_generate_then_check(tmp_path: Path) -> None:
    out = tmp_path / "g.map"
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "botarena",
            "ants",
            "map",
            "generate",
            "--players",
            "3",
            "--size",
            "60x90",
            "--kind",
            "maze",
            "--seed",
            "2",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    checked = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "map", "check", str(out)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0 and checked.stdout.strip().endswith(": ok")
    bad = tmp_path / "bad.map"
    bad.write_text(map_text(_blank(40, 60, [(10, 10, 0), (10, 13, 1)])))
    failed = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "map", "check", str(bad)],
        capture_output=True,
        text=True,
    )
    assert failed.returncode == 1 and "hill distance" in failed.stdout
