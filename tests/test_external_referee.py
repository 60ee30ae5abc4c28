"""A game whose rules are an external referee program (core/external.py,
docs/external-referee.md): the line protocol both ways, a referee that crashes, hangs or
speaks garbage ending the game as a jury failure in one line, and examples/connect4-c (a C
referee) playing connect4's games move for move, verified, passing check_game.

The fake referees here are small Python programs; the C one is compiled when
examples/connect4-c is installed (CI installs it; elsewhere its tests skip until it is).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from botarena.core.entrypoints import entries
from botarena.core.errors import UserError
from botarena.core.external import ExternalState, Sent, external_game
from botarena.core.match import run_match
from botarena.core.player import InProcessPlayer
from botarena.core.refereeproc import RefereeFailure, RefereeLimits
from botarena.core.rules import Clock, GameInfo, Option, Status, TurnModel

INFO = GameInfo(
    name="sums",
    title="Sums",
    min_seats=2,
    max_seats=2,
    seat_names=("A", "B"),
    turn_model=TurnModel.SEQUENTIAL,
    rules_version="sums-1",
    options=(Option("steps", 4, "steps in a game", int, 1, 100),),
)

# Seats take turns naming a number; each scores the sum of its numbers; a reply that is not
# a number is invalid (and scores nothing). It logs every request line to the file argv[1].
SUMS = r"""
import json, sys
log = open(sys.argv[1], "a")
seats = steps = done = 0
scores = [0, 0]
for line in sys.stdin:
    log.write(line); log.flush()
    word, _, rest = line.rstrip("\n").partition(" ")
    if word == "new": seats = int(rest)
    elif word == "option" and rest.startswith("steps "): steps = int(rest.split()[1])
    elif word == "answer":
        seat, _, text = rest.partition(" ")
        if text.lstrip("-").isdigit(): scores[int(seat)] += int(text)
        else: print("invalid", seat)
        done += 1
    elif word == "fault": done += 1
    elif word == "end":
        if done == steps:
            print("over", done, "all steps played")
            for seat in range(seats): print("score", seat, scores[seat])
        else:
            seat = done % seats
            print("turn", seat); print("clock", seat, 250 * (seat + 1), "-")
            print("send", seat, 2); print("step", done); print("scores", *scores)
        print("frame", json.dumps({"scores": scores, "step": done}))
        if done == 0: print("header", json.dumps({"by": "sums"}))
        print("end", flush=True)
"""


def sums_game(tmp_path: Path, source: str = SUMS, **kwargs: Any) -> tuple[Any, Path]:
    script, log = tmp_path / "referee.py", tmp_path / "requests.log"
    script.write_text(source)
    return external_game(INFO, [sys.executable, str(script), str(log)], **kwargs), log


class Counter:
    """Answers 1, 2, 3, ... (reads the text it is sent)."""

    reads_text = True

    def __init__(self, answers: list[str] | None = None) -> None:
        self.answers = answers or [str(n) for n in range(1, 100)]

    def act(self, text: str) -> str:
        return self.answers.pop(0)


def test_the_protocol_both_ways(tmp_path: Path) -> None:
    """What botarena sends the referee, line for line, and what it makes of the answers:
    whose turn, the text, the clock, frame, header, faults, scores and the end."""
    game, log = sums_game(tmp_path)
    state = game.new_state(7, {"steps": 4}, None, 2)
    assert state.to_act() == [0]
    assert game.protocol.encode(state.observation(0)) == "step 0\nscores 0 0\n"
    assert state.clock(0) == Clock(reply_s=0.25)
    assert state.header() == {"by": "sums"}
    assert state.frame() == {"scores": [0, 0], "step": 0}
    state.apply({0: "5"})
    assert (state.to_act(), state.clock(1)) == ([1], Clock(reply_s=0.5))
    state.fault(1, Status.TIMEOUT, "slow")
    state.apply({})
    state.apply({0: "seven"})  # the referee's own verdict: invalid
    state.apply({1: "-2"})
    assert state.is_over() and state.to_act() == [] and state.step_count == 4
    outcome = state.outcome()
    assert (outcome.scores, outcome.ranks, outcome.end_reason) == (
        [5, -2],
        [1, 2],
        "all steps played",
    )
    assert (outcome.statuses, outcome.faults) == (["invalid", None], [1, 0])
    assert log.read_text().splitlines() == [
        *("new 2", "seed 7", "option steps 4", "end"),
        *("answer 0 5", "end"),
        *("fault 1 timeout", "end"),
        *("answer 0 seven", "end"),
        *("answer 1 -2", "end"),
    ]


def test_a_reply_that_cannot_be_one_line_is_invalid_before_the_referee(tmp_path: Path) -> None:
    game, _ = sums_game(tmp_path, reply_chars=8)
    for reply, why in (("123456789", "longer than 8"), ("1\x002", "control character")):
        with pytest.raises(ValueError, match=why):
            game.protocol.parse([reply], Sent(0, ""))
    assert game.protocol.parse([" 12 "], Sent(0, "")) == " 12 "


def test_a_game_through_the_match_records_a_replay_that_verifies(tmp_path: Path) -> None:
    from botarena.core import registry
    from botarena.core.replay import verify

    game, _ = sums_game(tmp_path)
    players = [InProcessPlayer(Counter(), "a"), InProcessPlayer(Counter(["x", "4"]), "b")]
    result = run_match(game, players, seed=3, options={"steps": 4})
    assert [(p.score, p.status, p.faults) for p in result.players] == [
        (3, "ok", 0),
        (4, "invalid", 1),
    ]
    assert (result.turns, result.end_reason) == (4, "all steps played")
    document = json.loads(json.dumps(result.document))
    assert [act["reply"] for step in document["steps"] for act in step["acts"]] == [
        *("1", "x", "2", "4")
    ]
    original = registry.get_game
    try:  # verify finds the game by name, as it would an installed one
        registry.get_game = lambda name: game  # type: ignore[assignment]
        assert verify(document).ok
        document["steps"][2]["acts"][0]["reply"] = "3"
        verdict = verify(document)
        assert not verdict.ok and verdict.message.startswith("step 3: frame differs")
    finally:
        registry.get_game = original  # type: ignore[assignment]


CRASHES = "import sys; sys.stdin.readline(); print('the rules broke', file=sys.stderr); sys.exit(3)"
HANGS = "import sys, time\nfor line in sys.stdin:\n    time.sleep(60)"
GARBAGE = "import sys\nfor line in sys.stdin:\n    print('hello there'); print('end', flush=True)"
LATE_CRASH = SUMS.replace('elif word == "fault": done += 1', 'elif word == "fault": sys.exit(4)')


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            CRASHES,
            "jury failure: the referee of sums ended its output before `end` (request 1);"
            " it exited with status 3; its stderr ends: the rules broke",
        ),
        (HANGS, "jury failure: the referee of sums did not answer within 0.5 s (request 1)"),
        (
            GARBAGE,
            "jury failure: the referee of sums answered out of protocol: unknown line"
            " 'hello there' (request 1)",
        ),
        (
            LATE_CRASH,
            "jury failure: the referee of sums ended its output before `end` (request 2);"
            " it exited with status 4",
        ),
    ],
    ids=["crashes", "hangs", "garbage", "crashes-later"],
)
def test_a_failing_referee_ends_the_game_as_a_jury_failure(
    tmp_path: Path, source: str, message: str
) -> None:
    """The game ends with one line saying why, not a bot's fault; the bots are closed."""
    limits = RefereeLimits(request_s=0.5, start_s=0.5)
    game, _ = sums_game(tmp_path, source, limits=limits)

    class Crasher:
        def act(self, observation: Any) -> str:
            raise RuntimeError("a bot crashes")

    players = [InProcessPlayer(Crasher(), "a"), InProcessPlayer(Counter(), "b")]
    with pytest.raises(RefereeFailure) as failure:
        run_match(game, players, seed=1, options={"steps": 4})
    assert str(failure.value) == message
    assert isinstance(failure.value, UserError)  # the CLI's one line, exit 2


def test_a_jury_failure_is_a_tournament_game_in_error_not_a_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker records it as an error (not counted for or against any bot)."""
    if "connect4c" not in entries():
        pytest.skip(NOT_INSTALLED)
    import botarena_connect4c

    from botarena.tournament.worker import play_game

    script = tmp_path / "crashes.py"
    script.write_text(CRASHES)
    broken = external_game(
        botarena_connect4c.INFO, [sys.executable, str(script)], bots=botarena_connect4c.BOTS
    )
    monkeypatch.setattr(botarena_connect4c, "GAME", broken, raising=False)
    job = {
        "game": "connect4c",
        "seed": 1,
        "map": None,
        "options": {},
        "replay": str(tmp_path / "game.json.gz"),
        "seats": [["a", "builtin:connect4c/first", None], ["b", "builtin:connect4c/random", None]],
    }
    result = play_game(job)
    assert list(result) == ["error"] and "\n" not in result["error"]
    assert result["error"].startswith(
        "RefereeFailure: jury failure: the referee of connect4c ended its output"
    )
    assert not (tmp_path / "game.json.gz").exists()


def test_a_clone_plays_on_as_the_original(tmp_path: Path) -> None:
    game, _ = sums_game(tmp_path)
    state = game.new_state(7, {"steps": 4}, None, 2)
    state.apply({0: "5"})
    twin = state.clone()
    assert isinstance(twin, ExternalState) and twin is not state
    for each in (state, twin):
        each.apply({1: "3"})
    assert twin.frame() == state.frame() == {"scores": [5, 3], "step": 2}


NOT_INSTALLED = (
    "examples/connect4-c is not installed (pip install -e examples/connect4-c; needs gcc)"
)
both = pytest.mark.skipif(
    not {"connect4", "connect4c"} <= set(entries()),
    reason=f"{NOT_INSTALLED}, or examples/connect4 is not",
)


class Garbage:
    """Answers a word instead of a column."""

    def act(self, observation: Any) -> str:
        return "left"


def _game(name: str, bots: list[Any], seed: int) -> tuple[dict[str, Any], list[Any]]:
    import botarena

    result = botarena._play(  # recorded, as check_game records its games
        name, bots, seed=seed, map=None, replay=None, options={}, observe=lambda _: None
    )
    document = json.loads(json.dumps(result.document))
    steps = [
        (
            step["frame"],
            [
                (act["seat"], act["sent"], act.get("reply"), act.get("fault"))
                for act in step["acts"]
            ],
        )
        for step in document["steps"]
    ]
    outcome = {**result.to_dict(), "game": None}
    for player in outcome["players"]:
        del player["time_ms"]
    return outcome, [document["initial_frame"], steps]


@both
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_the_c_referee_plays_connect4_move_for_move(seed: int) -> None:
    """Same seed, same built-in bots: the same texts sent, replies, frames and result."""
    for pair in (("random", "first"), ("first", "random"), ("random", "random")):
        python = _game("connect4", [f"builtin:connect4/{bot}" for bot in pair], seed)
        c = _game("connect4c", [f"builtin:connect4c/{bot}" for bot in pair], seed)
        assert c == python


@both
def test_a_bad_reply_ends_both_games_alike() -> None:
    """connect4 finds it in its protocol, the C referee in its rules: one result."""
    python = _game("connect4", [Garbage(), "builtin:connect4/first"], 1)[0]
    c = _game("connect4c", [Garbage(), "builtin:connect4c/first"], 1)[0]
    assert c == python
    assert [(p["status"], p["faults"], p["score"]) for p in c["players"]] == [
        ("invalid", 1, 0),
        ("ok", 0, 2),
    ]


BOTS = ["builtin:connect4c/random", "builtin:connect4c/first"]
REPLAY = ["--seed", "2", "--replay"]


@both
def test_a_c_refereed_replay_verifies(tmp_path: Path) -> None:
    import subprocess

    replay = tmp_path / "c4c.json.gz"
    run = subprocess.run(
        [sys.executable, "-m", "botarena", "play", "connect4c", *BOTS, *REPLAY, str(replay)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    verify = [sys.executable, "-m", "botarena", "verify", str(replay)]
    run = subprocess.run(verify, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.endswith("ok: 16 steps and the result reproduced\n")


@both
@pytest.mark.slow
def test_the_c_referee_keeps_the_contract() -> None:
    from botarena.testing import check_game

    check_game("connect4c", seeds=range(4))
