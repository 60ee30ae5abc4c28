"""The 2011 wire format and real bot processes: sample dialogue, renumbering, faults."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import botarena
from botarena.games.ants import INFO, new_state
from botarena.games.ants.mapfile import parse_map
from botarena.games.ants.protocol import PROTOCOL, AntsProtocol


def scenario(rows: list[str], players: int, **options):
    text = f"rows {len(rows)}\ncols {len(rows[0])}\nplayers {players}\n"
    text += "".join(f"m {row}\n" for row in rows)
    given = {"food": "none", "scenario": 1, **options}
    resolved = INFO.resolve_options({k: str(v) for k, v in given.items()})
    return new_state(42, resolved, parse_map(text), players)


def test_the_2011_options_with_the_servers_defaults(tmp_path: Path) -> None:
    """The engine's own option names, with the 2011 server's values (research §3)."""
    expected = {
        "turns": "1000",
        "loadtime": "3000",
        "turntime": "500",
        "viewradius2": "77",
        "attackradius2": "5",
        "spawnradius2": "1",
        "food_rate": "5,11",
        "food_turn": "19,37",
        "food_start": "75,175",
        "food_visible": "3,5",
        "food": "symmetric",
        "cutoff_turn": "150",
        "cutoff_percent": "0.85",
        "strict": "0",
        "scenario": "0",
        "player_seed": "",
    }
    expected["clock"] = "wall"  # botarena's own: the 2011 engine timed bots by the wall clock
    assert {opt.name: str(opt.default) for opt in INFO.options} == expected
    shown = subprocess.run(
        [sys.executable, "-m", "botarena", "games", "ants"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    rows = [line.split("│")[1:3] for line in shown.stdout.splitlines() if "│" in line]
    # and, after the game's own, the jury's memory option every game takes
    assert {name.strip(): value.strip() for name, value in rows} == {**expected, "memory": "1024"}


def test_turn_zero_parameters_in_the_2011_order() -> None:
    state = scenario(
        ["A." + "." * 18, "." * 20, "." * 18 + "B."] + ["." * 20] * 17,
        2,
        turntime=1000,
        turns=500,
        viewradius2=55,
    )
    assert PROTOCOL.greeting(state, 0) == (
        "turn 0\nloadtime 3000\nturntime 1000\nrows 20\ncols 20\nturns 500\n"
        "viewradius2 55\nattackradius2 5\nspawnradius2 1\nplayer_seed 42\nready\n"
    )
    assert PROTOCOL.handshake_done("GO ") and not PROTOCOL.handshake_done("ready")


def test_the_spec_sample_turn_in_both_numberings() -> None:
    """The rules page's example: A sees food, water, its two ants, B's ant and B's hill."""
    rows = ["." * 20 for _ in range(20)]

    def put(row: int, col: int, char: str) -> None:
        rows[row] = rows[row][:col] + char + rows[row][col + 1 :]

    put(6, 5, "*")
    put(7, 6, "%")
    put(7, 9, "b")
    put(10, 8, "a")
    put(10, 9, "a")
    put(7, 12, "1")
    put(12, 8, "0")
    state = scenario(rows, 2, viewradius2=55)
    state.to_act()
    a_text = PROTOCOL.encode(state.observation(0))
    b_text = PROTOCOL.encode(state.observation(1))
    assert a_text == ("turn 1\nw 7 6\nh 7 12 1\nh 12 8 0\na 7 9 1\na 10 8 0\na 10 9 0\nf 6 5\ngo\n")
    assert b_text == ("turn 1\nw 7 6\nh 7 12 0\nh 12 8 1\na 7 9 0\na 10 8 1\na 10 9 1\nf 6 5\ngo\n")
    state.apply({0: ["o 10 8 n", "o 10 9 n"], 1: ["o 7 9 w"]})
    # the 2v1 fight: b's ant dies; it is reported to both as a dead ant
    assert "d 7 8 1\n" in PROTOCOL.encode(state.observation(0))
    assert "d 7 8 0\n" in PROTOCOL.encode(state.observation(1))


def test_enemies_are_numbered_in_the_order_each_player_first_saw_them() -> None:
    rows = ["." * 30 for _ in range(30)]
    rows[0] = "A" + "." * 7 + "B" + "." * 13 + "C" + "." * 7  # B at col 8, C at col 22
    state = scenario(rows, 3)
    # A sees B (d² 64) and C (wrapped, d² 64): numbered in row-major order B=1, C=2;
    # C sees A (d² 64) but not B (d² 196): A=1, B not yet numbered
    assert state.views.switch[0][:3] == [0, 1, 2]
    assert state.views.switch[2][:3] == [1, None, 0]
    state.to_act()
    assert state.observation(2).ants == [(0, 0, 1), (0, 22, 0)]
    assert state.observation(0).ants == [(0, 0, 0), (0, 8, 1), (0, 22, 2)]


def test_own_dead_ants_are_reported_even_out_of_sight() -> None:
    """2011 issue #111: `d` lines hold the visible dead ants and all of a player's own."""
    rows = ["." * 20 for _ in range(20)]
    rows[0] = "a.b" + "." * 17  # a 1-against-1 fight far from everyone else: both die
    rows[10] = "B" + "." * 9 + "A" + "." * 9
    state = scenario(rows, 2)
    state.to_act()
    state.apply({})
    zero, one = state.observation(0), state.observation(1)
    assert (zero.dead, one.dead) == ([(0, 0, 0)], [(0, 2, 0)])
    assert "d 0 0 0\n" in PROTOCOL.encode(zero)


def test_end_message_uses_the_players_numbering() -> None:
    rows = ["A" + "." * 19] + ["." * 20] * 9 + ["." * 10 + "B" + "." * 9] + ["." * 20] * 9
    state = scenario(rows, 2, turns=1)
    state.to_act()
    state.apply({})
    assert state.is_over()
    text = AntsProtocol().farewell(state, 1)
    # the enemy was never seen: the 2011 engine prints None for it
    assert text == (
        "end\nplayers 2\nscore 1 None\nstatus survived None\nplayerturns 1 None\n"
        "h 10 10 0\na 10 10 0\ngo\n"
    )


def test_bot_side_reader_round_trip() -> None:
    reader = AntsProtocol()
    lines = iter(
        [
            "turn 0\n",
            "loadtime 3000\n",
            "turntime 500\n",
            "rows 5\n",
            "cols 6\n",
            "turns 9\n",
            "viewradius2 77\n",
            "attackradius2 5\n",
            "spawnradius2 1\n",
            "player_seed 7\n",
            "new_param xyz\n",
            "ready\n",
            "turn 1\n",
            "w 1 2\n",
            "a 0 0 0\n",
            "h 3 3 1\n",
            "f 2 2\n",
            "d 4 4 1\n",
            "go\n",
            "end\n",
            "players 2\n",
            "go\n",
        ]
    )
    first = reader.read_observation(lambda: next(lines, ""))
    assert first is not None and first.turn == 0 and first.params.rows == 5
    assert first.params.player_seed == 7
    second = reader.read_observation(lambda: next(lines, ""))
    assert second is not None and second.turn == 1
    assert (second.water, second.ants, second.hills, second.food, second.dead) == (
        [(1, 2)],
        [(0, 0, 0)],
        [(3, 3, 1)],
        [(2, 2)],
        [(4, 4, 1)],
    )
    assert PROTOCOL.encode(second) == "turn 1\nw 1 2\nh 3 3 1\na 0 0 0\nf 2 2\nd 4 4 1\ngo\n"
    assert reader.read_observation(lambda: next(lines, "")) is None


# -- real processes --------------------------------------------------------------------
SAMPLE_BOT = textwrap.dedent("""
    import sys
    MODE = sys.argv[1] if len(sys.argv) > 1 else "north"
    turn = 0
    ants = []
    for line in sys.stdin:
        line = line.strip()
        if line == "ready":
            sys.stdout.write("go\\n"); sys.stdout.flush()
        elif line.startswith("turn"):
            turn = int(line.split()[1]); ants = []
        elif line.startswith("a ") and line.endswith(" 0"):
            ants.append(line.split()[1:3])
        elif line == "end":
            break
        elif line == "go":
            if MODE == "crash" and turn == 3:
                sys.exit(1)
            if MODE == "hang" and turn == 2:
                import time; time.sleep(30)
            for row, col in ants:
                sys.stdout.write("o %s %s n\\n" % (row, col))
            sys.stdout.write("go\\n"); sys.stdout.flush()
""")


@pytest.fixture
def bot(tmp_path: Path) -> str:
    path = tmp_path / "sample_bot.py"
    path.write_text(SAMPLE_BOT)
    return f"{sys.executable} {path}"


def play(*bots: str, **options) -> dict:
    result = botarena.play(
        "ants",
        list(bots),
        seed=5,
        sandbox=False,  # bots log to files
        **options,
    )
    return result.to_dict()


def test_a_2011_style_bot_process_plays_a_whole_game(bot: str) -> None:
    result = play(bot, "builtin:ants/hold", turns=30)
    walker = result["players"][0]
    assert result["turns"] >= 1
    assert (walker["status"], walker["faults"]) in (("ok", 0), ("eliminated", 0))


@pytest.mark.slow
def test_cli_play_json_and_verify(tmp_path: Path) -> None:
    replay = tmp_path / "g.replay.gz"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "botarena",
            "play",
            "ants",
            "builtin:ants/greedy",
            "python -m botarena.games.ants.bots.random",
            "--seed",
            "4",
            "-o",
            "turns=40",
            "--replay",
            str(replay),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["game"] == "ants" and len(result["players"]) == 2
    check = subprocess.run(
        [sys.executable, "-m", "botarena", "verify", str(replay)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    out = tmp_path / "g2011.replay"
    export = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "export-replay", str(replay), str(out)],
        capture_output=True,
        text=True,
    )
    assert export.returncode == 0, export.stderr
    data = json.loads(out.read_text())
    assert data["replaydata"]["revision"] == 3
    assert data["game_length"] == result["turns"]
    assert data["score"] == [p["score"] for p in result["players"]]
    back = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "check-replay", str(out)],
        capture_output=True,
        text=True,
    )
    assert back.returncode == 0, back.stdout + back.stderr


def test_bad_map_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.map"
    bad.write_text("rows 2\ncols 3\nplayers 2\nm 0.1\nm .x.\n")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "botarena",
            "play",
            "ants",
            "builtin:ants/hold",
            "builtin:ants/hold",
            "--map",
            str(bad),
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0
    assert "bad.map: line 5" in run.stderr and "'x'" in run.stderr
    check = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "map", "check", str(bad)],
        capture_output=True,
        text=True,
    )
    assert (check.returncode, check.stderr) == (2, run.stderr)


def test_faulty_games_export_to_2011_and_check_back(bot: str, tmp_path: Path) -> None:
    """A crash and a timeout, recorded by botarena, written in the 2011 format and
    re-simulated from that format alone: no difference."""
    from botarena.core.replay import load
    from botarena.games.ants.replay2011 import compare, export_replay, resimulate

    path = tmp_path / "faults.replay.gz"
    botarena.play(
        "ants",
        [f"{bot} crash", f"{bot} hang", "builtin:ants/greedy", "builtin:ants/random"],
        seed=2,
        turns=12,
        turntime=300,
        replay=path,
    )
    exported = export_replay(load(path))
    assert exported["status"][:2] == ["crashed", "timeout"]
    assert exported["playerturns"][:2] == [3, 2]
    assert compare(exported, resimulate(exported)) is None


def test_turn_zero_reaches_every_bot_at_once(tmp_path: Path) -> None:
    """As in the 2011 engine, all bots get the parameters and run together: each of these
    bots answers turn 0 only once the other one has been told it too (a barrier), which
    one-after-the-other greetings would never let happen within `loadtime`."""
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    program = tmp_path / "barrier_bot.py"
    program.write_text(
        textwrap.dedent(f"""\
        import os, sys, time
        from pathlib import Path
        barrier = Path({str(barrier)!r})
        for line in sys.stdin:
            word = line.strip()
            if word == "ready":
                (barrier / str(os.getpid())).touch()
                while len(list(barrier.iterdir())) < 2:
                    time.sleep(0.01)
                print("go", flush=True)
            elif word == "go":
                print("go", flush=True)
        """)
    )
    bot = f"{sys.executable} {program}"
    result = botarena.play(
        "ants", [bot, bot], seed=1, turns=3, loadtime=1500, sandbox=False
    )  # the bots meet through a file
    assert [player.status for player in result.players] == ["ok", "ok"]


def test_a_game_over_at_turn_0_exports_the_lone_survivors_bonus(tmp_path: Path) -> None:
    """A bot that dies before answering turn 0 leaves a lone survivor at turn 0: the result
    counts its hill (1) and the bonus for the standing enemy hill (2), and so must the 2011
    replay exported from it."""
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.exit(3)\n")
    replay = tmp_path / "g.replay.gz"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "botarena",
            "play",
            "ants",
            "builtin:ants/greedy",
            f"{sys.executable} {crash}",
            "--seed",
            "4",
            "--replay",
            str(replay),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    result = json.loads(run.stdout)
    assert result["turns"] == 0 and result["end_reason"] == "lone survivor"
    assert [p["score"] for p in result["players"]] == [3, 0]
    out = tmp_path / "g2011.replay"
    export = subprocess.run(
        [sys.executable, "-m", "botarena", "ants", "export-replay", str(replay), str(out)],
        capture_output=True,
        text=True,
    )
    assert export.returncode == 0, export.stderr
    data = json.loads(out.read_text())
    assert data["score"] == [3, 0] and data["replaydata"]["bonus"] == [2, 0]
