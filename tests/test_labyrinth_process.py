"""The JSON-lines process protocol with real bot processes that misbehave: each bad reply
gets the rules' outcome (a strike with its reason, an ignored action, a wait), the jury
survives and no bot process is left behind."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import botarena
from botarena import load_replay
from botarena.games.labyrinth.protocol import PROTOCOL
from botarena.games.labyrinth.rules import Call
from conftest import leftovers

BOT = r'''
"""Plays correctly except for the first call named BAD_CALL, where it does WHAT."""
import json, subprocess, sys, time

role, bad_call, what = sys.argv[1:4]
done = False
turned = False


def right_hand(here):
    """Adventurer B keeps its right hand on the wall, so games end soon."""
    global turned
    if not here["right"] and not turned:
        turned = True
        return 2
    turned = False
    return 1 if not here["ahead"] else 4 if not here["left"] else 3


for line in sys.stdin:
    message = json.loads(line)
    call, args = message["call"], message["args"]
    if call == "setup":
        reply = '"ready"'
    elif call == "generateMaze":
        n = args[0]
        reply = json.dumps([[{"east": False, "south": False}] * n] * n)
    elif call == "startRound":
        reply = "null"
    else:
        reply = f"[0, {right_hand(args[0][1]['ahead'][0])}]" if role == "adventurers" else "null"
    if call == bad_call and not done:
        done = True
        if what == "!exit":
            sys.exit(3)
        elif what == "!child-exit":  # a child that would outlive it, then a crash
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", sys.argv[0]])
            sys.exit(3)
        elif what == "!spin":
            while True:
                pass
        elif what == "!cpu":  # 300 ms of CPU, then a correct reply
            start = time.process_time()
            while time.process_time() - start < 0.3:
                pass
        else:
            reply = what
    print(reply, flush=True)
'''


@pytest.fixture
def bot_file(tmp_path: Path) -> Path:
    path = tmp_path / "scripted_bot.py"
    path.write_text(BOT)
    return path


def scripted(path: Path, role: str, call: str, what: str) -> str:
    """The bot spec of a scripted process bot."""
    return shlex.join([sys.executable, str(path), role, call, what])


def play(tmp_path: Path, adventurers: str, maze_master: str, **options: Any) -> Any:
    result = botarena.play(
        "labyrinth",
        [adventurers, maze_master],
        seed="proc",
        replay=tmp_path / "game.json.gz",
        **{"max_rounds": 1} | options,
    )
    assert leftovers(str(tmp_path)) == []
    return result


def frames(tmp_path: Path) -> list[dict[str, Any]]:
    return [step["frame"] for step in load_replay(tmp_path / "game.json.gz")["steps"]]


def first_frame(tmp_path: Path, call: str) -> dict[str, Any]:
    """The frame after the first `call` (`adventurers.takeTurn`, `mazeMaster.takeTurn`)."""
    return next(frame for frame in frames(tmp_path) if frame.get("call") == call)


# -- maze master replies --------------------------------------------------------------
STRIKES = [  # the reply, and what the strike's reason quotes
    ("not json", "mazeMaster.takeTurn invalid reply: reply is not JSON: 'not json'"),
    ('[[NaN, 0, "east"], null]', "[nan, 0, 'east']"),
    ('[null, [0.5, 0, "south"]]', "[0.5, 0, 'south']"),
    ('[[Infinity, 1, "east"], null]', "[inf, 1, 'east']"),
    ('[[0, 0, "north"], null]', "[0, 0, 'north']"),
    ("[[0, 0], null]", "[0, 0]"),
    ('["0", null]', "'0'"),
    ('[["0", 0, "east"], null]', "['0', 0, 'east']"),
    ("5", "takeTurn returned int 5"),
    ('{"remove": null}', "takeTurn returned an object"),
    ("[null]", "takeTurn returned an array of 1"),
    (
        "error: RangeError in m.takeTurn: too deep",
        "the bot reports an error: RangeError in m.takeTurn: too deep",
    ),
]


@pytest.mark.parametrize(("reply", "reason"), STRIKES)
def test_bad_maze_master_reply_is_a_strike(
    tmp_path: Path, bot_file: Path, reply: str, reason: str
) -> None:
    result = play(
        tmp_path, "builtin:wallfollower", scripted(bot_file, "maze master", "takeTurn", reply)
    )
    assert [p.status for p in result.players] == ["ok", "strike"]
    assert result.turns == 1
    assert result.end_reason.startswith("strike (maze master): ")
    assert result.end_reason.endswith("; outlier")
    assert reason in result.end_reason
    last = frames(tmp_path)[-1]
    assert last["outlier"] is True and last["strike"]["role"] == "maze master"


@pytest.mark.parametrize(
    "wall", [[9, 0, "east"], [0, 2, "east"], [2, 0, "south"], [-1, 0, "south"], [0, -1, "east"]]
)
def test_out_of_range_wall_is_a_free_no_op(tmp_path: Path, bot_file: Path, wall: list[Any]) -> None:
    """The controller: a border or out-of-range coordinate costs 0 and changes nothing."""
    result = play(
        tmp_path,
        "builtin:wallfollower",
        scripted(bot_file, "maze master", "takeTurn", json.dumps([wall, None])),
    )
    assert [p.status for p in result.players] == ["ok", "ok"]
    assert result.end_reason == "round_cap"
    turn_one = first_frame(tmp_path, "mazeMaster.takeTurn")
    assert turn_one["changes"] == [{"op": "remove", "wall": wall, "cost": 0, "result": "border"}]
    assert turn_one["mana"] == 1  # turn 1's income, nothing spent


def test_same_wall_twice_is_ignored_and_free(tmp_path: Path, bot_file: Path) -> None:
    play(
        tmp_path,
        "builtin:wallfollower",
        scripted(bot_file, "maze master", "takeTurn", '[[1, 1, "east"], [1, 1, "east"]]'),
    )
    turn_one = first_frame(tmp_path, "mazeMaster.takeTurn")
    assert (turn_one["ignored"], turn_one["mana"], turn_one.get("changes", [])) == (
        "the same wall to remove and to add",
        1,
        [],
    )


def test_null_reply_does_nothing(tmp_path: Path, bot_file: Path) -> None:
    result = play(
        tmp_path, "builtin:wallfollower", scripted(bot_file, "maze master", "takeTurn", "null")
    )
    assert result.end_reason == "round_cap"
    assert first_frame(tmp_path, "mazeMaster.takeTurn").get("changes", []) == []


CLOSED = json.dumps([[{"east": True, "south": True}] * 3] * 3)


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ('[[{"east": false}]]', "generateMaze(3) returned 1 rows, expected 3"),
        ("{}", "generateMaze(3) returned an object"),
        ("[[], [], []]", "generateMaze(3): row 0 has 0 cells, expected 3"),
        (CLOSED, "generateMaze(3) returned a maze that is not fully connected"),
        (
            "[[null, null, null], [null, null, null], [null, null, null]]",
            "generateMaze(3): cell [0][0] is null",
        ),
        (
            '[[{"south": false}, {}, {}], [{}, {}, {}], [{}, {}, {}]]',
            "generateMaze(3): cell [0][0] is an object without an 'east' property",
        ),
    ],
)
def test_bad_maze_is_a_strike(tmp_path: Path, bot_file: Path, reply: str, reason: str) -> None:
    result = play(
        tmp_path, "builtin:wallfollower", scripted(bot_file, "maze master", "generateMaze", reply)
    )
    assert result.end_reason.startswith("strike (maze master): ")
    assert reason in result.end_reason
    assert result.turns == 0


# -- adventurers' replies -------------------------------------------------------------
@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("[1, 1", "adventurers.takeTurn invalid reply: reply is not JSON: '[1, 1'"),
        ("", "adventurers.takeTurn invalid reply: reply is not JSON: ''"),
        ("7", "adventurers' takeTurn returned int 7, not an array"),
        ('{"0": 1}', "adventurers' takeTurn returned an object, not an array"),
        ("[0, 0, 1]", "adventurers' takeTurn returned an action for a third adventurer"),
    ],
)
def test_bad_adventurers_reply_is_a_strike(
    tmp_path: Path, bot_file: Path, reply: str, reason: str
) -> None:
    result = play(tmp_path, scripted(bot_file, "adventurers", "takeTurn", reply), "builtin:static")
    assert [p.status for p in result.players] == ["strike", "ok"]
    assert result.end_reason == f"strike (adventurers): {reason}; outlier"


@pytest.mark.parametrize(
    "reply",
    [
        '["1", null]',
        "[5, -1]",
        "[1.5, 2.5]",
        "[true, false]",
        "[NaN, Infinity]",
        "[]",
        "[0, 0, 0, 7]",
    ],
)
def test_illegal_moves_are_waits(tmp_path: Path, bot_file: Path, reply: str) -> None:
    result = play(tmp_path, scripted(bot_file, "adventurers", "takeTurn", reply), "builtin:static")
    assert [p.status for p in result.players] == ["ok", "ok"]
    turn_one = first_frame(tmp_path, "adventurers.takeTurn")
    assert turn_one["moves"] == [0, 0]
    assert [(a["row"], a["col"], a["dir"]) for a in turn_one["adventurers"]] == [
        (0, 0, "east"),
        (0, 0, "south"),
    ]


def test_one_move_means_the_other_adventurer_waits(tmp_path: Path, bot_file: Path) -> None:
    play(tmp_path, scripted(bot_file, "adventurers", "takeTurn", "[2]"), "builtin:static")
    turn_one = first_frame(tmp_path, "adventurers.takeTurn")
    assert turn_one["moves"] == [2, 0]
    assert [a["dir"] for a in turn_one["adventurers"]] == ["south", "south"]


# -- crashes and time -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("seat", "call"), [(0, "startRound"), (0, "takeTurn"), (1, "generateMaze"), (1, "takeTurn")]
)
def test_crash_is_a_strike(tmp_path: Path, bot_file: Path, seat: int, call: str) -> None:
    role = ("adventurers", "maze master")[seat]
    bad = scripted(bot_file, role, call, "!exit")
    specs = [bad, "builtin:static"] if seat == 0 else ["builtin:wallfollower", bad]
    result = play(tmp_path, *specs)
    assert result.players[seat].status == "strike"
    assert result.players[1 - seat].status == "ok"
    assert result.end_reason.startswith(f"strike ({role}): ")
    assert result.end_reason.endswith(" crashed: closed its output, exit code 3; outlier")


def test_crash_leaving_a_child_is_a_strike_and_the_child_is_killed(
    tmp_path: Path, bot_file: Path
) -> None:
    """The orphan keeps the bot's output open, so the jury sees no reply in time; the
    whole process group goes (`play` checks /proc)."""
    result = play(
        tmp_path,
        scripted(bot_file, "adventurers", "takeTurn", "!child-exit"),
        "builtin:static",
        wall_slack_ms=100,
    )
    assert result.players[0].status == "strike"
    assert result.end_reason.startswith("strike (adventurers): adventurers.takeTurn ")


def test_cpu_over_the_bank_is_a_strike(tmp_path: Path, bot_file: Path) -> None:
    """300 ms of CPU in the first takeTurn against a bank of 50 + 1 ms."""
    result = play(tmp_path, scripted(bot_file, "adventurers", "takeTurn", "!cpu"), "builtin:static")
    assert result.players[0].status == "strike"
    reason = result.end_reason
    assert reason.startswith(
        "strike (adventurers): adventurers.takeTurn over its time limit: used "
    )
    assert reason.endswith(" ms of CPU, limit 51.0 ms; outlier")


def test_cpu_over_generation_limit_is_a_strike(tmp_path: Path, bot_file: Path) -> None:
    result = play(
        tmp_path, "builtin:wallfollower", scripted(bot_file, "maze master", "generateMaze", "!cpu")
    )
    assert result.end_reason.endswith(" ms of CPU, limit 9.0 ms; outlier")
    assert result.end_reason.startswith("strike (maze master): generateMaze over its time limit")


def test_busy_loop_is_stopped_as_a_strike(tmp_path: Path, bot_file: Path) -> None:
    result = play(
        tmp_path,
        "builtin:wallfollower",
        scripted(bot_file, "maze master", "takeTurn", "!spin"),
        wall_slack_ms=100,
    )
    assert result.players[1].status == "strike"
    assert result.end_reason.startswith(
        "strike (maze master): mazeMaster.takeTurn over its time limit: "
    )


def test_cpu_limits_off_lets_a_slow_bot_play(tmp_path: Path, bot_file: Path) -> None:
    result = play(
        tmp_path,
        scripted(bot_file, "adventurers", "takeTurn", "!cpu"),
        "builtin:static",
        cpu_limits=0,
    )
    assert [p.status for p in result.players] == ["ok", "ok"]


# -- the wire format ------------------------------------------------------------------
def test_encoding_of_each_call() -> None:
    assert (
        PROTOCOL.encode(Call("setup", ("adventurers", "7:A")))
        == '{"call":"setup","args":["adventurers","7:A"]}\n'
    )
    assert PROTOCOL.encode(Call("generateMaze", (4,))) == '{"call":"generateMaze","args":[4]}\n'
    cell = {"east": None, "eastCost": 1, "south": None, "southCost": 1}
    assert PROTOCOL.encode(
        Call("takeTurn", (2, [[cell]], [{"row": 0, "col": 0, "dir": "east"}]))
    ) == (
        '{"call":"takeTurn","args":[2,[[{"east":null,"eastCost":1,"south":null,'
        '"southCost":1}]],[{"row":0,"col":0,"dir":"east"}]]}\n'
    )


def test_builtin_bot_process_sample_dialogue() -> None:
    """The documented sample: the wallfollower process answers the first turn of a game."""
    vision = [
        {
            "ahead": [
                {"ahead": False, "left": True, "right": False},
                {"ahead": True, "left": True, "right": True},
            ],
            "leftAhead": None,
            "rightAhead": True,
            "friend": [0, 0],
        },
        {
            "ahead": [{"ahead": True, "left": False, "right": True}],
            "leftAhead": False,
            "rightAhead": None,
            "friend": [0, 0],
        },
    ]
    lines = [
        {"call": "setup", "args": ["adventurers", "abc:A"]},
        {"call": "startRound", "args": [3]},
        {"call": "takeTurn", "args": [vision]},
    ]
    done = subprocess.run(
        [sys.executable, "-m", "botarena.games.labyrinth.bots.wallfollower"],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert done.stdout.splitlines() == ['"ready"', "null", "[1,4]"]
