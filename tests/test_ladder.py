"""The ladder on SQLite: matchmaking's rules (waiting, new versions first, match quality, seats,
maps), claims and late results, retire/stage/finals/test competitions, and bad input."""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st

from botarena.games import get_game
from botarena.tournament import ladder, stages
from botarena.tournament.ladder import Entry, quality
from botarena.tournament.manage import BotRequest, Settings, TournamentError, create, put_bot
from botarena.tournament.store import Store, games, ladder_bots, store_meta

RANDOM, EXPLORER = "builtin:amazes/random", "builtin:amazes/explorer"
ANTS_MAPS = Path(__file__).resolve().parents[1] / "src/botarena/games/ants/maps"


def botarena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def user_error(*args: str, cwd: Path) -> str:
    run = botarena(*args, cwd=cwd)
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert run.stderr.startswith("botarena: error: ") and run.stderr.count("\n") == 1, run.stderr
    return run.stderr


def make_ladder(
    tmp_path: Path, names: list[str], game: str = "amazes", spec: str = RANDOM, **settings
) -> tuple[Store, object]:
    store = Store.open(f"sqlite:///{tmp_path / 'l.db'}")
    requests = [BotRequest(name, spec) for name in names]
    tournament, _ = create(
        store,
        "L",
        get_game(game),
        requests,
        Settings(schedule="ladder", seed=1, replay_dir=tmp_path / "r", **settings),
        tmp_path / "build",
        print,
    )
    return store, tournament


def settle(store: Store, tournament, labels: list[str], mu: float = 25.0) -> None:
    """Give these versions a settled rating as if they had played for long."""
    with store.transaction() as conn:
        conn.execute(
            ladder_bots.update()
            .where(ladder_bots.c.tournament_id == tournament.id, ladder_bots.c.label.in_(labels))
            .values(sigma=1.0, mu=mu, last_seq=0, queue=1)
        )


rating = st.tuples(st.floats(0, 50), st.floats(0.1, 10))


@given(rating, rating, rating)
def test_match_quality_is_symmetric_at_most_one_and_falls_with_the_gap(a, b, c) -> None:
    ea, eb = Entry("a", a[0], a[1], 0), Entry("b", b[0], b[1], 0)
    assert quality(ea, eb) == pytest.approx(quality(eb, ea))
    assert 0 < quality(ea, eb) <= 1
    near, far = sorted([b[0], c[0]], key=lambda mu: abs(mu - a[0]))
    assert quality(ea, Entry("n", near, 1.0, 0)) >= quality(ea, Entry("f", far, 1.0, 0))


def test_two_equal_certain_ratings_make_a_perfect_match() -> None:
    assert quality(Entry("a", 30, 0, 0), Entry("b", 30, 0, 0)) == 1.0


def test_seat_zero_goes_to_the_bot_that_sat_there_least() -> None:
    group = [
        Entry("a", 25, 1, 0, firsts=3),
        Entry("b", 25, 1, 0, firsts=1),
        Entry("c", 25, 1, 0, firsts=2),
    ]
    for seed in range(20):
        assert ladder.seat_order(group, random.Random(seed))[0].label == "b"


def test_the_bot_that_waited_longest_is_always_in_the_next_game(tmp_path: Path) -> None:
    store, tournament = make_ladder(tmp_path, [f"b{i}" for i in range(6)])
    settle(store, tournament, [f"b{i}" for i in range(6)])
    rng = random.Random(3)
    played = []
    for _ in range(6):
        with store.engine.connect() as conn:
            waits = dict(conn.execute(sa.select(ladder_bots.c.label, ladder_bots.c.last_seq)).all())
        game = ladder.make_and_claim(store, tournament, "runner", rng)
        assert min(waits[label] for label in game.seats) == min(waits.values())
        played += game.seats
    assert set(played) == {f"b{i}" for i in range(6)}  # no bot waits more than 6 games


def test_a_new_bot_plays_first_and_keeps_playing_until_its_sigma_settles(tmp_path: Path) -> None:
    names = [f"b{i}" for i in range(8)]
    store, tournament = make_ladder(tmp_path, names)
    settle(store, tournament, names)
    put_bot(
        store,
        tournament,
        get_game("amazes"),
        BotRequest("new", RANDOM),
        tmp_path,
        print,
        update=False,
    )
    rng = random.Random(5)
    for _ in range(10):  # σ 8.3 -> still above 2.5 after 10 games: every game is its
        game = ladder.make_and_claim(store, tournament, "r", rng)
        assert "new" in game.seats
        ladder.finish(
            store,
            game,
            "r",
            {
                "scores": [1, 0],
                "ranks": [1, 2],
                "statuses": ["ok", "ok"],
                "faults": [0, 0],
                "turns": 1,
                "end_reason": "x",
                "replay": None,
            },
            True,
        )


def played(store: Store, tournament, game, strength: dict[str, int]) -> None:
    """Finish a claimed ladder game: the stronger bot (a higher `strength`) ranks first."""
    order = sorted(game.seats, key=lambda label: -strength[label])
    ranks = [order.index(label) + 1 for label in game.seats]
    result = {
        "scores": [float(-rank) for rank in ranks],
        "ranks": ranks,
        "statuses": ["ok"] * len(ranks),
        "faults": [0] * len(ranks),
        "turns": 1,
        "end_reason": "x",
        "replay": None,
    }
    assert ladder.finish(store, game, "r", result, True)


def test_a_bot_added_to_a_running_ladder_plays_two_thirds_of_the_next_games(
    tmp_path: Path,
) -> None:
    """#36: six Amazes bots 30 games into their ladder, one added: it played 3 of the next 12
    games (the six, still unsettled, took turns as seed with it); it must play at least 8."""
    names = [f"b{i}" for i in range(6)]
    store, tournament = make_ladder(tmp_path, names)
    strength = {name: i for i, name in enumerate(names)} | {"new": 3}
    rng = random.Random(11)
    for _ in range(30):
        played(store, tournament, ladder.make_and_claim(store, tournament, "r", rng), strength)
    put_bot(store, tournament, get_game("amazes"), BotRequest("new", RANDOM), tmp_path, print,
            update=False)  # fmt: skip
    seated = []
    for _ in range(12):
        game = ladder.make_and_claim(store, tournament, "r", rng)
        seated.append("new" in game.seats)
        played(store, tournament, game, strength)
    assert sum(seated) >= 8
    assert seated == [True] * 11 + [False]  # seed of every game while the least sure, then
    # one of the least sure, taking turns with them
    with store.engine.connect() as conn:
        sigmas = dict(conn.execute(sa.select(ladder_bots.c.label, ladder_bots.c.sigma)).all())
    assert sigmas["new"] <= sorted(sigmas.values())[3]  # down to the seven's median by then


def test_retired_bots_leave_scheduling_and_standings_and_keep_their_games(tmp_path: Path) -> None:
    store, tournament = make_ladder(tmp_path, ["a", "b", "c", "d"])
    rng = random.Random(1)
    first = ladder.make_and_claim(store, tournament, "r", rng)
    with store.transaction() as conn:
        assert ladder.retire(conn, tournament, first.seats[0]) == 1
    for _ in range(20):
        assert first.seats[0] not in ladder.make_and_claim(store, tournament, "r", rng).seats
    assert first.seats[0] not in [row.bot for row in ladder.standings(store, tournament)]
    assert len(ladder.standings(store, tournament)) == 3
    assert store.games(tournament)[0].seats == first.seats


def test_a_result_for_a_claim_that_was_handed_back_is_not_counted(tmp_path: Path) -> None:
    store, tournament = make_ladder(tmp_path, ["a", "b"])
    game = ladder.make_and_claim(store, tournament, "dead", random.Random(0))
    store.retire_runner("dead")  # its lease is over: the game goes back to pending
    result = {
        "scores": [1, 0],
        "ranks": [1, 2],
        "statuses": ["ok", "ok"],
        "faults": [0, 0],
        "turns": 1,
        "end_reason": "x",
        "replay": None,
    }
    assert ladder.finish(store, game, "dead", result, True) is False
    assert [row.games for row in ladder.standings(store, tournament)] == [0, 0]
    claimed = ladder.claim_pending(store, [tournament.id], "alive")
    assert claimed is not None and claimed[1].id == game.id
    assert ladder.finish(store, game, "alive", result, True) is True
    assert ladder.finish(store, game, "alive", result, True) is False  # not twice
    assert sorted(row.games for row in ladder.standings(store, tournament)) == [1, 1]


def test_an_ants_game_fills_the_map_drawn_first_and_takes_its_turns(tmp_path: Path) -> None:
    folder = tmp_path / "maps"
    folder.mkdir()
    for players in (2, 4):
        text = (ANTS_MAPS / f"p{players:02d}.map").read_text()
        (folder / f"p{players}.map").write_text(f"# turns {players * 50}\n{text}")
    store, tournament = make_ladder(
        tmp_path,
        [f"b{i}" for i in range(5)],
        game="ants",
        spec="builtin:ants/hold",
        maps=(folder,),
        seats_range=(2, 4),
    )
    sizes = set()
    for seed in range(30):
        game = ladder.make_and_claim(store, tournament, "r", random.Random(seed))
        assert len(game.seats) == (2 if game.map.endswith("p2.map") else 4)
        assert ladder.map_turns(game.map) == len(game.seats) * 50
        sizes.add(len(game.seats))
    assert sizes == {2, 4}


def test_after_the_deadline_new_bots_and_updates_are_refused(tmp_path: Path) -> None:
    store, tournament = make_ladder(tmp_path, ["a", "b"])
    from botarena.tournament.store import tournaments

    with store.transaction() as conn:
        conn.execute(
            tournaments.update().values(plan={**tournament.plan, "deadline": time.time() - 1})
        )
    frozen = store.tournament("L")
    for update, name in ((False, "c"), (True, "a")):
        with pytest.raises(TournamentError, match="frozen since its deadline"):
            put_bot(
                store,
                frozen,
                get_game("amazes"),
                BotRequest(name, RANDOM),
                tmp_path,
                print,
                update=update,
            )
    assert [b.name for b in store.bots(frozen)] == ["a", "b"]


def test_a_test_competition_is_a_round_robin_every_so_many_hours(tmp_path: Path) -> None:
    store, tournament = make_ladder(tmp_path, ["a", "b", "c"], test_every=1.0)
    assert stages.maybe_test_competition(store, tournament, now=time.time() + 60) is None
    child = stages.maybe_test_competition(store, tournament, now=time.time() + 3601)
    assert child is not None and child.name == "L-test-1"
    assert len(store.games(child)) == 6  # 3 bots, every ordered pair once
    assert stages.maybe_test_competition(store, tournament, now=time.time() + 3602) is None
    assert stages.children(store, tournament, "test") == [store.tournament("L-test-1")]


@pytest.mark.slow
def test_run_plays_n_games_rates_them_and_keeps_the_replays_in_the_store(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    assert (
        botarena(
            "tournament",
            "new",
            "L",
            "--game",
            "amazes",
            "--schedule",
            "ladder",
            "--bot",
            f"a={RANDOM}",
            "--bot",
            f"b={EXPLORER}",
            "--bot",
            f"c={RANDOM}",
            "--db",
            db,
            cwd=tmp_path,
        ).returncode
        == 0
    )
    run = botarena(
        "tournament", "run", "L", "--games", "4", "--workers", "0", "--db", db, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert "4 games, " in run.stdout and run.stdout.rstrip().endswith("4 games played")
    table = json.loads(
        botarena("tournament", "standings", "L", "--json", "--db", db, cwd=tmp_path).stdout
    )
    assert sum(row["games"] for row in table) == 8 and sum(r["last_hour"] for r in table) == 8
    assert [row["ordinal"] for row in table] == sorted((r["ordinal"] for r in table), reverse=True)
    store = Store.open(db)
    done = [g for g in store.games(store.tournament("L")) if g.status == "done"]
    assert len(done) == 4
    document = json.loads(gzip.decompress(ladder.replay_bytes(store, done[0].id)))
    assert document["result"]["players"][0]["score"] == done[0].scores[0]
    out = tmp_path / "got.json.gz"
    got = botarena(
        "tournament", "replay", "L", done[0].key, "-o", str(out), "--db", db, cwd=tmp_path
    )
    assert got.returncode == 0, got.stderr
    assert out.read_bytes() == ladder.replay_bytes(store, done[0].id)
    verified = subprocess.run(
        [sys.executable, "-m", "botarena", "verify", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr


@pytest.mark.slow
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    assert user_error(
        "tournament",
        "new",
        "L",
        "--game",
        "amazes",
        "--schedule",
        "ladder",
        "--bot",
        f"a={RANDOM}",
        "--seats",
        "2-x",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert not (tmp_path / "s.db").exists()  # nothing half-written
    botarena(
        "tournament",
        "new",
        "L",
        "--game",
        "amazes",
        "--schedule",
        "ladder",
        "--bot",
        f"a={RANDOM}",
        "--bot",
        f"b={RANDOM}",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert "no tournament 'M'" in user_error("tournament", "run", "M", "--db", db, cwd=tmp_path)
    assert "no active bot 'z'" in user_error(
        "tournament", "retire-bot", "L", "z", "--db", db, cwd=tmp_path
    )
    assert "not an ISO time" in user_error(
        "tournament", "stage", "L", "--deadline", "soon", "--db", db, cwd=tmp_path
    )
    assert "cannot open the database" in user_error(
        "tournament", "work", "--db", "postgresql://nobody@127.0.0.1:1/none", cwd=tmp_path
    )
    store = Store.open(db)
    with store.transaction() as conn:
        conn.execute(store_meta.update().values(value="0.0.1"))
    from botarena import __version__

    message = user_error("tournament", "work", "--db", db, "--games", "1", cwd=tmp_path)
    assert f"botarena {__version__}" in message and "botarena 0.0.1" in message
    assert store.counts(store.tournament("L")) == {}  # the refused worker claimed nothing


def test_spearman_of_known_orders() -> None:
    from botarena.tournament.simulate import spearman

    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert spearman([1, 2, 3, 4], [40, 30, 20, 10]) == -1.0
    assert spearman([1, 2, 3], [1, 3, 2]) == 0.5  # 1 - 6*2/(3*8)


def test_the_simulated_ladder_ranks_a_small_field_well() -> None:
    """40 bots, 40 games each: the ordinals' order is close to the true one for every
    pairing, and matchmaking is at least as close as uniform random pairing (a small
    version of bench/bench_ladder.py)."""
    from botarena.tournament.simulate import curve

    found = {p: curve(40, p, [40], seed=2)[40] for p in ("matchmaking", "uniform")}
    assert found["matchmaking"] >= 0.85 and found["uniform"] >= 0.8
    assert found["matchmaking"] >= found["uniform"] - 0.03


def test_an_update_starts_a_new_version_that_plays_next_and_replaces_the_old(
    tmp_path: Path,
) -> None:
    names = ["a", "b", "c", "d"]
    store, tournament = make_ladder(tmp_path, names)
    settle(store, tournament, names)
    done = put_bot(
        store,
        tournament,
        get_game("amazes"),
        BotRequest("b", EXPLORER),
        tmp_path,
        print,
        update=True,
    )
    assert done is not None and done[0].label == "b@v2"
    game = ladder.make_and_claim(store, tournament, "r", random.Random(0))
    assert "b@v2" in game.seats and "b" not in game.seats
    labels = [row.label for row in ladder.standings(store, tournament)]
    assert sorted(labels) == ["a", "b@v2", "c", "d"]


@pytest.mark.slow
def test_sigterm_lets_the_game_in_progress_finish_and_leaves_no_claim(tmp_path: Path) -> None:
    import signal

    db = f"sqlite:///{tmp_path / 's.db'}"
    bots = [f"--bot=b{i}={EXPLORER}" for i in range(3)]
    made = botarena(
        "tournament",
        "new",
        "L",
        "--game",
        "amazes",
        "--schedule",
        "ladder",
        *bots,
        "--db",
        db,
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    process = subprocess.Popen(
        [sys.executable, "-m", "botarena", "tournament", "run", "L", "--workers", "0", "--db", db],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(4.0)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "stopping: the games in progress finish" in err
    store = Store.open(db)
    counts = store.counts(store.tournament("L"))
    assert set(counts) == {"done"} and out.rstrip().endswith(f"{counts['done']} games played")
    assert sum(row.games for row in ladder.standings(store, store.tournament("L"))) == (
        2 * counts["done"]
    )


@given(st.lists(rating, min_size=1, max_size=12), st.integers(1, 9), st.integers(0, 99))
def test_opponents_are_distinct_never_the_seed_and_as_many_as_there_are(
    ratings, count, seed
) -> None:
    pool = [Entry(str(i), mu, sigma, 0) for i, (mu, sigma) in enumerate(ratings)]
    chosen = ladder.pick_opponents(pool[0], pool + pool, count, random.Random(seed))
    labels = [entry.label for entry in chosen]
    assert len(labels) == len(set(labels)) == min(count, len(pool) - 1)
    assert "0" not in labels


def test_a_map_that_says_its_turns_is_played_for_them(tmp_path: Path) -> None:
    from botarena.tournament import executors, runner

    (tmp_path / "short.map").write_text("# turns 7\n" + (ANTS_MAPS / "p02.map").read_text())
    store, _ = make_ladder(
        tmp_path,
        ["a", "b", "c"],
        game="ants",
        spec="builtin:ants/hold",
        maps=(tmp_path / "short.map",),
    )
    executor = executors.LocalExecutor(0)
    assert runner.work(store, executor, ["L"], games=2) == 2
    from botarena.tournament.store import games

    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(games.c.status, games.c.turns)).all()
    assert [tuple(row) for row in rows] == [("done", 7)] * 2


@pytest.mark.slow
def test_update_bot_and_add_bot_build_a_source(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    source = tmp_path / "mine.py"
    source.write_text("from botarena.games.amazes.bots.random import main\nmain()\n")
    made = botarena(
        "tournament",
        "new",
        "L",
        "--game",
        "amazes",
        "--schedule",
        "ladder",
        "--bot",
        f"a={RANDOM}",
        "--bot",
        f"b={RANDOM}",
        "--db",
        db,
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    updated = botarena(
        "tournament", "update-bot", "L", "b", "--source", str(source), "--db", db, cwd=tmp_path
    )
    assert updated.stdout == "L: bot b updated to version 2; it plays the next games\n"
    added = botarena(
        "tournament", "add-bot", "L", "c", "--source", str(source), "--db", db, cwd=tmp_path
    )
    assert added.stdout == "L: bot c added; it plays the next games\n", added.stderr
    store = Store.open(db)
    bots = {bot.label: bot for bot in store.bots(store.tournament("L"))}
    assert sorted(bots) == ["a", "b@v2", "c"]
    assert bots["c"].source == str(source) and bots["b@v2"].source == str(source)
    assert "one of them" in user_error(
        "tournament", "update-bot", "L", "b", "--db", db, cwd=tmp_path
    )


def test_a_played_game_waits_out_a_store_outage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A worker whose store fails twice while it records a game (a database restarting)
    tries again and records it once; past STORE_RETRY_S it gives the game back and waits
    for the store (tests/test_worker_boundary.py), stopping with the error only when its
    steps keep failing (MAX_FAILURES in a row)."""
    import sqlalchemy.exc

    from botarena.tournament import runner
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    store, _ = make_ladder(tmp_path, ["a", "b"])
    monkeypatch.setattr(runner, "STORE_RETRY_S", (0.01, 0.01))
    finish = ladder.finish
    failures = [2]

    def flaky(*args: object) -> bool:
        if failures[0]:
            failures[0] -= 1
            raise sqlalchemy.exc.OperationalError("UPDATE games", {}, Exception("server closed"))
        return finish(*args)

    monkeypatch.setattr(ladder, "finish", flaky)
    assert work(store, LocalExecutor(0), ["L"], games=1, sandbox=False) == 1
    assert caplog.text.count("the store failed (server closed): trying again") == 2
    with store.engine.connect() as conn:
        done = conn.execute(sa.select(ladder_bots.c.games)).scalars().all()
    assert sorted(done) == [1, 1]

    failures[0] = 10**6  # a store whose writes keep failing: the error is the worker's
    with pytest.raises(sqlalchemy.exc.OperationalError):
        work(store, LocalExecutor(0), ["L"], games=1, sandbox=False)
    with store.engine.connect() as conn:
        statuses = conn.execute(sa.select(games.c.status)).scalars().all()
    assert sorted(statuses) == ["done", "pending"]  # its claim went back as it stopped
