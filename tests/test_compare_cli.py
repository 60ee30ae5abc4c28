"""`botarena compare` from the command line: verdicts on real games, JSON, and user errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

EXPLORER, RANDOM = "builtin:amazes/explorer", "builtin:amazes/random"


def botarena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from botarena.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_a_much_stronger_bot_is_accepted_as_better() -> None:
    """The explorer beats the random bot in every Amazes game: with hypotheses 0 and 400
    Elo, every pair scores 1 and the test decides H1 long before the cap."""
    run = botarena(
        "compare",
        EXPLORER,
        RANDOM,
        "--game",
        "amazes",
        "--sprt",
        "0,400",
        "--games",
        "200",
        "--seed",
        "1",
        "--workers",
        "2",
        "--json",
    )
    assert run.returncode == 0, run.stderr
    facts = json.loads(run.stdout)
    assert facts["verdict"] == "H1"
    assert facts["losses"] == 0 and facts["wins"] == facts["games"] < 200
    assert facts["games"] == 2 * facts["blocks"]
    assert facts["llr"] >= facts["llr_upper"] == round(__import__("math").log(19), 3)
    assert facts["block_scores"] == {"1": facts["blocks"]}


def test_the_verdict_does_not_depend_on_the_number_of_workers() -> None:
    args = (
        "compare",
        RANDOM,
        RANDOM,
        "--game",
        "amazes",
        "--sprt",
        "0,200",
        "--games",
        "40",
        "--seed",
        "5",
        "--json",
    )
    one = json.loads(botarena(*args, "--workers", "1").stdout)
    two = json.loads(botarena(*args, "--workers", "2").stdout)
    assert one == two
    assert one["games"] <= 40 and one["verdict"] != "H1"


def test_four_player_blocks_seat_new_in_every_seat() -> None:
    run = botarena(
        "compare",
        "builtin:falldown/hunter",
        "builtin:falldown/random",
        "--game",
        "falldown",
        "--games",
        "8",
        "--seed",
        "2",
        "--json",
    )
    assert run.returncode == 0, run.stderr
    facts = json.loads(run.stdout)
    assert facts["players"] == 4 and facts["games"] == 8 and facts["blocks"] == 2
    assert facts["wins"] + facts["draws"] + facts["losses"] == 8


@pytest.mark.slow  # seconds on 2 cores
def test_the_human_output_names_the_verdict() -> None:
    run = botarena(
        "compare",
        EXPLORER,
        RANDOM,
        "--game",
        "amazes",
        "--sprt",
        "0,400",
        "--games",
        "100",
        "--seed",
        "1",
    )
    assert run.returncode == 0, run.stderr
    assert "NEW is better: H1 (Elo >= 400) accepted" in run.stdout
    assert "W-D-L" in run.stdout and "LLR" in run.stdout


@pytest.mark.slow  # seconds on 2 cores
def test_user_errors_are_one_line_and_exit_2() -> None:
    cases = {
        ("--game", "chess"): "unknown game 'chess'",
        ("--game", "labyrinth"): "labyrinth's seats are roles",
        ("--game", "amazes", "--sprt", "10,0"): "--sprt '10,0': ELO0 must be a number below",
        ("--game", "amazes", "--sprt", "x"): "--sprt 'x' is not ELO0,ELO1",
        ("--game", "amazes", "--alpha", "0"): "--alpha 0.0 must be above 0",
        ("--game", "amazes", "--games", "1"): "--games 1 is less than one block",
        ("--game", "amazes", "--players", "3"): "--players 3: amazes takes 2 to 2",
        ("--game", "amazes", "-o", "turns=0"): "option turns",
    }
    for extra, message in cases.items():
        run = botarena("compare", EXPLORER, RANDOM, *extra)
        assert run.returncode == 2, (extra, run.stderr)
        assert message in run.stderr, (extra, run.stderr)
        assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1
    run = botarena("compare", EXPLORER, "./no-such-bot", "--game", "amazes")
    assert run.returncode == 2 and "./no-such-bot" in run.stderr
