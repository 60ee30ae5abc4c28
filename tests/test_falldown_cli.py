"""`botarena play falldown`, `verify`, `games falldown` and `botarena falldown ...` as a user
runs them: results, one-line errors with exit code 2, Bookmaker import and export."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from testdata import falldown_golden

GOLDEN = falldown_golden()
RANDOM = "builtin:falldown/random"


def botarena(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from botarena.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_play_json_then_verify(tmp_path: Path) -> None:
    replay = tmp_path / "game.json.gz"
    done = botarena(
        "play",
        "falldown",
        RANDOM,
        RANDOM,
        RANDOM,
        RANDOM,
        "--seed",
        "5",
        "--json",
        "--replay",
        str(replay),
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == "falldown" and len(result["players"]) == 4
    assert sorted(player["score"] for player in result["players"]) in ([0, 0, 0, 1], [0, 0, 0, 0])
    verified = botarena("verify", str(replay))
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_golden_game_at_the_engines_own_limits_through_the_cli(tmp_path: Path) -> None:
    """short_t30 with the recorded probe bots, default 100 ms / 1 s limits."""
    meta = json.loads((GOLDEN / "short_t30" / "meta.json").read_text())
    initial = json.loads((GOLDEN / "short_t30" / "bookmaker.json").read_text())["replay"]
    start = "/".join(",".join(cell) for cell in initial["initial"])
    specs = []
    for argv in meta["bots_argv"]:
        argv = [str(GOLDEN / "probe_bot.py") if arg == "probe_bot.py" else arg for arg in argv]
        specs.append(shlex.join([sys.executable, *argv[1:]]))
    done = botarena(
        "play",
        "falldown",
        "--no-sandbox",
        *specs,
        "-o",
        f"start={start}",
        "-o",
        "turns=30",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["turns"] == 30 and result["end_reason"] == "turns"
    for seat in range(4):
        assert (tmp_path / f"in_{seat}.txt").read_bytes() == (
            GOLDEN / "short_t30" / f"in_{seat}.txt"
        ).read_bytes()


@pytest.mark.parametrize(
    "args, words",
    [
        ([RANDOM, RANDOM, RANDOM], "needs 4 bots, 3 given"),
        ([RANDOM] * 5, "needs 4 bots, 5 given"),
        ([RANDOM] * 4 + ["-o", "speed=3"], "unknown option 'speed'"),
        ([RANDOM] * 4 + ["-o", "turns=ten"], "option turns"),
        ([RANDOM] * 4 + ["-o", "start=1,2,U"], "option start"),
        ([RANDOM] * 3 + ["builtin:falldown/nobody"], "no built-in bot 'nobody'"),
        ([RANDOM] * 3 + ["./no/such/bot"], "does not exist"),
        ([RANDOM] * 3 + ["builtin:amazes/random"], "cannot play falldown"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(args: list[str], words: str) -> None:
    done = botarena("play", "falldown", *args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr


def test_games_lists_the_options() -> None:
    done = botarena("games", "falldown")
    assert done.returncode == 0
    for word in ("turns", "1000", "start", "reply_ms", "builtin:falldown/random"):
        assert word in done.stdout


def round_trip(source: Path, tmp_path: Path) -> str:
    """Import an engine result, verify the replay, export it back to the engine's bytes:
    what the import said."""
    replay = tmp_path / "imported.json"
    done = botarena("falldown", "import-bookmaker", str(source), "--replay", str(replay))
    assert done.returncode == 0, done.stderr
    assert botarena("verify", str(replay)).returncode == 0
    exported = botarena("falldown", "export-bookmaker", str(replay))
    assert exported.returncode == 0 and exported.stdout == source.read_text()
    return done.stdout


@pytest.mark.slow
def test_import_bookmaker_then_verify_then_export_gives_the_engines_bytes(tmp_path: Path) -> None:
    said = round_trip(GOLDEN / "two_fall_winner" / "bookmaker.json", tmp_path)
    assert "27 slots, player 2 wins" in said


ZERO_SLOTS = """{
  "log" : [ ],
  "winner" : -1,
  "replay" : {
    "initial" : [ [ "0", "14", "D" ], [ "14", "17", "L" ], [ "14", "10", "U" ], [ "2", "5", "R" ] ],
    "commands" : [ ]
  }
}
"""
"""What the Java engine prints with `-t 0`: it plays no slot, a draw."""


@pytest.mark.slow
def test_a_game_of_no_slot_is_a_draw_as_the_engine_plays_it(tmp_path: Path) -> None:
    source = tmp_path / "t0.json"
    source.write_text(ZERO_SLOTS)
    assert "0 slots, draw" in round_trip(source, tmp_path)
    played = botarena(
        "play", "falldown", *["builtin:falldown/random"] * 4, "-o", "turns=0", "--json"
    )
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert (result["turns"], [p["rank"] for p in result["players"]]) == (0, [1, 1, 1, 1])


@pytest.mark.parametrize(
    "content, words",
    [
        ("{", "not JSON"),
        ("[]", "expected a JSON object"),
        ('{"winner": -1}', 'no "replay" object'),
        ('{"winner": 7, "replay": {}}', '"winner" must be -1 or a player id'),
        ('{"winner": -1, "replay": {"initial": [], "commands": []}}', "must list 4 players"),
        (
            '{"winner": -1, "replay": {"initial": [["0","0","U"],["0","1","U"],["9","9","U"],'
            '["17","17","U"]], "commands": []}}',
            "within Manhattan distance 3",
        ),
        (
            '{"winner": -1, "replay": {"initial": [["0","0","U"],["17","0","U"],["0","17","U"],'
            '["17","17","U"]], "commands": ["U", "X"]}}',
            "\"replay.commands\"[1] is 'X'",
        ),
        (
            '{"winner": 2, "replay": {"initial": [["0","0","U"],["17","0","U"],["0","17","U"],'
            '["17","17","U"]], "commands": ["U"]}}',
            "the file has 1 slots, the rules end",
        ),
    ],
)
def test_a_malformed_bookmaker_file_is_one_line_naming_it(
    tmp_path: Path, content: str, words: str
) -> None:
    source = tmp_path / "result.json"
    source.write_text(content)
    done = botarena(
        "falldown", "import-bookmaker", str(source), "--replay", str(tmp_path / "out.json")
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(source) in lines[0] and words in lines[0], done.stderr
    assert not (tmp_path / "out.json").exists()
