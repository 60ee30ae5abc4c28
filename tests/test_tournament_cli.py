"""The tournament commands against SQLite and a real PostgreSQL server: create, run, add and
update bots, the JSON shapes, and every kind of bad input (one line, exit 2, nothing written)."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from hostile_bots import HARNESS

RANDOM, EXPLORER = "builtin:amazes/random", "builtin:amazes/explorer"
STANDING_KEYS = [
    "bot",
    "rank",
    "rating",
    "games",
    "mean_score",
    "wins",
    "draws",
    "losses",
    "faults",
]


def botarena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def ok(*args: str, cwd: Path) -> str:
    run = botarena(*args, cwd=cwd)
    assert run.returncode == 0, run.stderr
    return run.stdout


def user_error(*args: str, cwd: Path) -> str:
    run = botarena(*args, cwd=cwd)
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert run.stderr.startswith("botarena: error: ") and run.stderr.count("\n") == 1, run.stderr
    assert "Traceback" not in run.stderr
    return run.stderr


def games_json(name: str, db: str, cwd: Path) -> list[dict]:
    return json.loads(ok("tournament", "games", name, "--json", "--db", db, cwd=cwd))


@pytest.mark.slow
def test_a_round_robin_is_scheduled_played_and_ranked(db: str, tmp_path: Path) -> None:
    out = ok(
        "tournament",
        "new",
        "cup",
        "--game",
        "amazes",
        "--bot",
        RANDOM,
        "--bot",
        EXPLORER,
        "--bot",
        f"other={RANDOM}",
        "--games-per-pair",
        "3",
        "--seed",
        "5",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert "18 games scheduled" in out
    games = games_json("cup", db, tmp_path)
    assert len(games) == 18 and {g["status"] for g in games} == {"pending"}
    ok("tournament", "run", "cup", "--workers", "2", "--db", db, cwd=tmp_path)
    games = games_json("cup", db, tmp_path)
    assert [list(g)[:5] for g in games] == [["key", "bots", "scores", "status", "replay"]] * 18
    # why each game ended, in the rules' words (#22): the turn limit or a sudden death
    assert {g["end_reason"] for g in games} <= {"turns", "sudden_death"}
    assert all(g["end_reason"] for g in games)
    assert {g["status"] for g in games} == {"done"}
    assert len({g["key"] for g in games}) == 18
    assert all(g["key"].startswith("cup/") and Path(g["replay"]).is_file() for g in games)
    assert Counter(tuple(g["bots"]) for g in games) == {
        (a, b): 3
        for a in ("random", "explorer", "other")
        for b in ("random", "explorer", "other")
        if a != b
    }
    standings = json.loads(ok("tournament", "standings", "cup", "--json", "--db", db, cwd=tmp_path))
    assert [list(row)[:9] for row in standings] == [STANDING_KEYS] * 3
    assert sorted(row["bot"] for row in standings) == ["explorer", "other", "random"]
    assert all(row["games"] == 12 for row in standings)
    assert sorted(row["rank"] for row in standings)[0] == 1
    listing = ok("tournament", "list", "--db", db, cwd=tmp_path)
    assert "cup" in listing and "amazes" in listing
    again = ok("tournament", "run", "cup", "--db", db, cwd=tmp_path)
    assert "0 games played now, 18 finished" in again
    assert games_json("cup", db, tmp_path) == games


@pytest.mark.slow
def test_the_same_seed_plays_the_same_games_whatever_the_workers(tmp_path: Path) -> None:
    results = []
    for workers in ("0", "2"):
        db = f"sqlite:///{tmp_path / f'w{workers}.db'}"
        ok(
            "tournament",
            "new",
            "cup",
            "--game",
            "amazes",
            "--bot",
            RANDOM,
            "--bot",
            EXPLORER,
            "--games-per-pair",
            "2",
            "--seed",
            "9",
            "--db",
            db,
            "--replays",
            str(tmp_path / workers),
            cwd=tmp_path,
        )
        ok("tournament", "run", "cup", "--workers", workers, "--db", db, cwd=tmp_path)
        results.append([(g["key"], g["scores"]) for g in games_json("cup", db, tmp_path)])
    assert results[0] == results[1]


@pytest.mark.slow
def test_add_bot_and_update_bot_schedule_only_that_bots_games(db: str, tmp_path: Path) -> None:
    ok(
        "tournament",
        "new",
        "cup",
        "--game",
        "amazes",
        "--bot",
        RANDOM,
        "--bot",
        EXPLORER,
        "--games-per-pair",
        "2",
        "--seed",
        "1",
        "-o",
        "turns=30",  # short games: what is checked is which games are scheduled and counted
        "--db",
        db,
        cwd=tmp_path,
    )
    ok("tournament", "run", "cup", "--workers", "0", "--db", db, cwd=tmp_path)
    out = ok("tournament", "add-bot", "cup", f"late={RANDOM}", "--db", db, cwd=tmp_path)
    assert "8 games scheduled" in out  # late against 2 bots, both seatings, 2 games each
    pending = [g for g in games_json("cup", db, tmp_path) if g["status"] == "pending"]
    assert len(pending) == 8 and all("late" in g["bots"] for g in pending)
    ok("tournament", "run", "cup", "--workers", "0", "--db", db, cwd=tmp_path)
    out = ok("tournament", "update-bot", "cup", "random", EXPLORER, "--db", db, cwd=tmp_path)
    assert "version 2, 8 games scheduled" in out
    games = games_json("cup", db, tmp_path)
    assert len(games) == 20
    assert sum(g["status"] == "done" and "random" in g["bots"] for g in games) == 8
    assert sum(g["status"] == "pending" and "random@v2" in g["bots"] for g in games) == 8
    before = {
        r["bot"]: r["games"]
        for r in json.loads(
            ok("tournament", "standings", "cup", "--json", "--db", db, cwd=tmp_path)
        )
    }
    assert before == {"random": 0, "explorer": 4, "late": 4}  # random's old games not counted
    ok("tournament", "run", "cup", "--workers", "0", "--db", db, cwd=tmp_path)
    after = {
        r["bot"]: r["games"]
        for r in json.loads(
            ok("tournament", "standings", "cup", "--json", "--db", db, cwd=tmp_path)
        )
    }
    assert after == {"random": 8, "explorer": 8, "late": 8}
    user_error("tournament", "add-bot", "cup", f"late={RANDOM}", "--db", db, cwd=tmp_path)
    user_error("tournament", "update-bot", "cup", "nobody", RANDOM, "--db", db, cwd=tmp_path)


@pytest.mark.slow  # seconds on 2 cores
def test_labyrinth_bots_play_their_roles(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'l.db'}"
    out = ok(
        "tournament",
        "new",
        "lab",
        "--game",
        "labyrinth",
        "--bot",
        "builtin:labyrinth/wallfollower",
        "--bot",
        "builtin:labyrinth/static",
        "--bot",
        "builtin:labyrinth/warden",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert "roles, 2 games scheduled" in out
    games = games_json("lab", db, tmp_path)
    assert sorted(g["bots"] for g in games) == [
        ["wallfollower", "static"],
        ["wallfollower", "warden"],
    ]
    message = user_error(
        "tournament",
        "new",
        "lab2",
        "--game",
        "labyrinth",
        "--bot",
        f"x={sys.executable} -c pass",
        "--bot",
        "builtin:labyrinth/static",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert "bot x: its role is not known" in message
    out = ok(
        "tournament",
        "new",
        "lab3",
        "--game",
        "labyrinth",
        "--bot",
        f"adventurers:x={sys.executable} -c pass",
        "--bot",
        "builtin:labyrinth/static",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert "2 bots, roles, 1 games scheduled" in out


def tables(db: str) -> dict[str, int]:
    import sqlalchemy as sa

    engine = sa.create_engine(db)
    with engine.connect() as conn:
        counts = {
            t: conn.exec_driver_sql(f"SELECT count(*) FROM {t}").scalar_one()
            for t in ("tournaments", "bots", "games")
        }
    engine.dispose()
    return counts


@pytest.mark.slow
def test_bad_input_is_one_line_exit_2_and_writes_nothing(db: str, tmp_path: Path) -> None:
    ok(
        "tournament",
        "new",
        "cup",
        "--game",
        "amazes",
        "--bot",
        RANDOM,
        "--bot",
        EXPLORER,
        "--db",
        db,
        cwd=tmp_path,
    )
    before = tables(db)
    new = ("tournament", "new", "x", "--db", db)
    assert (
        "unknown game" in user_error(*new, "--game", "chess", "--bot", RANDOM, cwd=tmp_path).lower()
    )
    assert "no built-in bot 'nope'" in user_error(
        *new, "--game", "amazes", "--bot", RANDOM, "--bot", "builtin:amazes/nope", cwd=tmp_path
    )
    assert "no program 'no-such-bot-x'" in user_error(
        *new, "--game", "amazes", "--bot", RANDOM, "--bot", "no-such-bot-x", cwd=tmp_path
    )
    assert "already exists" in user_error(
        "tournament",
        "new",
        "cup",
        "--game",
        "amazes",
        "--bot",
        RANDOM,
        "--bot",
        EXPLORER,
        "--db",
        db,
        cwd=tmp_path,
    )
    assert "no tournament 'nope'" in user_error(
        "tournament", "run", "nope", "--db", db, cwd=tmp_path
    )
    assert "no tournament 'nope'" in user_error(
        "tournament", "standings", "nope", "--db", db, cwd=tmp_path
    )
    assert "not enough to play" in user_error(
        *new, "--game", "amazes", "--bot", RANDOM, cwd=tmp_path
    )
    assert "two bots are named 'random'" in user_error(
        *new, "--game", "amazes", "--bot", RANDOM, "--bot", RANDOM, cwd=tmp_path
    )
    assert "unknown option 'speed'" in user_error(
        *new, "--game", "amazes", "--bot", RANDOM, "--bot", EXPLORER, "-o", "speed=3", cwd=tmp_path
    )
    assert "--schedule swiss needs --rounds" in user_error(
        *new,
        "--game",
        "amazes",
        "--bot",
        RANDOM,
        "--bot",
        EXPLORER,
        "--schedule",
        "swiss",
        cwd=tmp_path,
    )
    assert "no bots" in user_error(*new, "--game", "amazes", cwd=tmp_path)
    assert "memory: 5 MiB is below the minimum 16" in user_error(
        *new, "--game", "amazes", "--bot", RANDOM, "--bot", EXPLORER, "-o", "memory=5", cwd=tmp_path
    )
    assert tables(db) == before


HOG = (
    HARNESS
    + """
hoard = bytearray(200 << 20)  # 200 MiB, touched
for page in range(0, len(hoard), 4096):
    hoard[page] = 1
prelude()
finish()
"""
)


@pytest.mark.slow
def test_the_memory_option_bounds_a_tournaments_bots(tmp_path: Path) -> None:
    """`-o memory=MiB` is the sandbox's limit for every game of the tournament: a bot
    holding 200 MiB plays under the default 1024 MiB and is killed under 64."""
    (tmp_path / "hog.py").write_text(HOG)
    hog = f"hog={sys.executable} {tmp_path / 'hog.py'} amazes"
    db = f"sqlite:///{tmp_path / 'store.db'}"
    for name, options in (("roomy", []), ("tight", ["-o", "memory=64"])):
        ok(
            "tournament",
            "new",
            name,
            "--game",
            "amazes",
            "--bot",
            hog,
            "--bot",
            RANDOM,
            "--games-per-pair",
            "1",
            "-o",
            "turns=3",
            *options,
            "--db",
            db,
            cwd=tmp_path,
        )
        ok("tournament", "run", name, "--db", db, cwd=tmp_path)
    roomy, tight = (games_json(name, db, tmp_path) for name in ("roomy", "tight"))
    for game in roomy + tight:
        assert game["status"] == "done"
    texts = {
        name: [gzip.decompress(Path(g["replay"]).read_bytes()).decode() for g in games]
        for name, games in (("roomy", roomy), ("tight", tight))
    }
    assert not any("memory limit" in text for text in texts["roomy"])
    assert all("memory limit 64 MiB" in text for text in texts["tight"])


@pytest.mark.slow
def test_a_bad_or_unreachable_database_is_one_line(tmp_path: Path) -> None:
    message = user_error("tournament", "list", "--db", "nonsense", cwd=tmp_path)
    assert "--db 'nonsense' is not a database URL" in message
    message = user_error(
        "tournament", "list", "--db", "postgresql://u:secret@127.0.0.1:1/x", cwd=tmp_path
    )
    assert "cannot open the database" in message and "secret" not in message
    missing = f"sqlite:///{tmp_path / 'missing.db'}"
    message = user_error("tournament", "list", "--db", missing, cwd=tmp_path)
    assert "no such database file" in message and not (tmp_path / "missing.db").exists()
    message = user_error(
        "tournament",
        "new",
        "x",
        "--game",
        "amazes",
        "--bot",
        RANDOM,
        "--bot",
        EXPLORER,
        "--db",
        f"sqlite:///{tmp_path / 'no' / 'such' / 'folder.db'}",
        cwd=tmp_path,
    )
    assert "cannot open the database" in message
    user_error(
        "tournament", "new", "x", "--game", "amazes", "--bot", RANDOM, "--db", missing, cwd=tmp_path
    )
    assert not (tmp_path / "missing.db").exists()  # a failed `new` leaves no file behind


def test_a_newer_schema_is_refused_and_the_current_one_reopens(tmp_path: Path) -> None:
    import sqlalchemy as sa

    from botarena.tournament.store import Store, StoreError

    url = f"sqlite:///{tmp_path / 's.db'}"
    Store.open(url).close()
    Store.open(url).close()  # reopening an up-to-date store changes nothing
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = 'f00d'")
    engine.dispose()
    with pytest.raises(StoreError, match="newer than this botarena"):
        Store.open(url)


@pytest.mark.slow  # seconds on 2 cores
def test_the_progress_bar_shows_a_tournaments_name_as_written(tmp_path: Path) -> None:
    """On a terminal the live bar names the tournament: brackets and colons in that name are
    text, not rich markup or emoji codes (`c[bold]u:smile:p` was shown as a bold `u😄p`)."""
    db = f"sqlite:///{tmp_path / 'b.db'}"
    name = "c[bold]u:smile:p"
    ok("tournament", "new", name, "--game", "amazes", "--bot", RANDOM, "--bot", EXPLORER,
       "--db", db, cwd=tmp_path)  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-m", "botarena", "tournament", "run", name, "--db", db],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "TTY_COMPATIBLE": "1", "FORCE_COLOR": "1", "COLUMNS": "200"},
    )
    assert run.returncode == 0, run.stderr
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", run.stdout)
    assert "━" in shown, "no progress bar: rich did not take the output for a terminal"
    bar_lines = [line for line in re.split(r"[\r\n]", shown) if "games/s" in line]
    assert bar_lines and all(line.startswith(f"{name} ") for line in bar_lines), bar_lines
    assert shown.endswith(f"{name}: 2 games played now, 2 finished in all\n")


@pytest.mark.slow
def test_a_bots_file_with_a_broken_source_leaves_that_bot_out(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'b.db'}"
    (tmp_path / "good.py").write_text("import sys\nfor line in sys.stdin:\n    pass\n")
    (tmp_path / "broken.py").write_text("def f(:\n")
    (tmp_path / "bots.toml").write_text(
        '[[bot]]\nname = "r"\ncommand = "builtin:amazes/random"\n\n'
        '[[bot]]\nname = "good"\nsource = "good.py"\n\n'
        '[[bot]]\nname = "broken"\nsource = "broken.py"\n'
    )
    run = botarena(
        "tournament",
        "new",
        "cup",
        "--game",
        "amazes",
        "--bots",
        "bots.toml",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert "broken" in run.stderr and "broken.py" in run.stderr
    assert "2 bots, round-robin, 2 games scheduled" in run.stdout
    games = games_json("cup", db, tmp_path)
    assert sorted(g["bots"] for g in games) == [["good", "r"], ["r", "good"]]


def test_a_bad_bots_file_names_its_file_and_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'b.db'}"
    (tmp_path / "bots.toml").write_text('[[bot]]\nname = "r"\ncommand = \n')
    message = user_error(
        "tournament",
        "new",
        "cup",
        "--game",
        "amazes",
        "--bots",
        "bots.toml",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert "bots.toml:3:" in message
    assert not (tmp_path / "b.db").exists()  # checked before the store is opened
