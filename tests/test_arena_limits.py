"""Rate limits in the store (#36): a sliding window per key that holds across every process
of one store, a refused attempt not counted, Retry-After exact, old events pruned."""

from __future__ import annotations

import itertools
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.arena.limits import SWEEP_BATCH, RateLimiter
from botarena.arena.store import limit_events
from botarena.tournament.store import Store

T = TypeVar("T")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(f"sqlite:///{tmp_path / 'site.db'}")
    yield opened
    opened.close()


def events(store: Store) -> int:
    with store.engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(limit_events)).scalar_one()


def race(db: str, tries: int, attempt: Callable[[int, Store], T]) -> list[T]:
    """Eight threads, each with its own store (its own connections, as a process has), start
    at once and each makes `tries` attempts (`attempt(thread's index, its store)`): every
    outcome, in the order they came."""
    stores = [Store.open(db) for _ in range(8)]
    start = threading.Barrier(len(stores))
    outcomes: list[T] = []
    lock = threading.Lock()

    def run(index: int, store: Store) -> None:
        start.wait()
        for _ in range(tries):
            outcome = attempt(index, store)
            with lock:
                outcomes.append(outcome)

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(stores)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for store in stores:
            store.close()
    return outcomes


def test_limit_events_per_window_and_the_window_slides(store: Store) -> None:
    clock = FakeClock()
    limiter = RateLimiter(store, "cup/logins", 3, 60, clock=clock)
    assert [limiter.allow("alice|1.2.3.4") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("bob|1.2.3.4")  # another key is counted apart
    clock.now += 59.5
    assert not limiter.allow("alice|1.2.3.4")
    assert limiter.retry_after("alice|1.2.3.4") == 0.5
    clock.now += 0.5  # the first three events are exactly 60 s old: out of the window
    assert limiter.retry_after("alice|1.2.3.4") == 0
    assert [limiter.allow("alice|1.2.3.4") for _ in range(4)] == [True, True, True, False]


def test_the_window_slides_event_by_event(store: Store) -> None:
    clock = FakeClock()
    limiter = RateLimiter(store, "k", 2, 10, clock=clock)
    allowed = []
    for advance in (0, 6, 3, 1, 5, 1):  # t = 0, 6, 9, 10, 15, 16
        clock.now += advance
        allowed.append(limiter.allow("k"))
    # at 9: 0 and 6 in (-1, 9]; at 10: 0 left; at 15: 6 and 10 in; at 16: 6 left
    assert allowed == [True, True, False, True, False, True]


def test_retry_after_is_when_the_oldest_counted_event_leaves(store: Store) -> None:
    clock = FakeClock()
    uploads = RateLimiter(store, "cup/uploads", 10, 3600, clock=clock)
    for _ in range(10):
        assert uploads.allow("alice")
        clock.now += 60
    assert not uploads.allow("alice")
    assert uploads.retry_after("alice") == 3600 - 600
    assert uploads.retry_after("bob") == 0


def test_a_tighter_limit_on_the_same_events_waits_for_its_own_last_one(store: Store) -> None:
    clock = FakeClock()
    three = RateLimiter(store, "cup/logins", 3, 60, clock=clock)
    for _ in range(3):  # t = 1000, 1010, 1020
        assert three.allow("alice")
        clock.now += 10
    one = RateLimiter(store, "cup/logins", 1, 60, clock=clock)  # t = 1030
    assert not one.allow("alice")
    assert one.retry_after("alice") == 1020 + 60 - 1030


def test_limits_of_other_names_are_counted_apart(store: Store) -> None:
    clock = FakeClock()
    logins = RateLimiter(store, "cup/logins", 1, 60, clock=clock)
    signups = RateLimiter(store, "cup/signups", 1, 60, clock=clock)
    other = RateLimiter(store, "league/logins", 1, 60, clock=clock)
    assert [logins.allow("1.2.3.4"), signups.allow("1.2.3.4"), other.allow("1.2.3.4")] == [
        True,
        True,
        True,
    ]
    assert not logins.allow("1.2.3.4")


def test_a_limit_holds_across_two_stores_on_one_file(tmp_path: Path) -> None:
    """Two Store objects on one SQLite file are what two web processes hold."""
    url = f"sqlite:///{tmp_path / 'site.db'}"
    first, second = Store.open(url), Store.open(url)
    clock = FakeClock()
    try:
        here = RateLimiter(first, "cup/logins", 4, 60, clock=clock)
        there = RateLimiter(second, "cup/logins", 4, 60, clock=clock)
        turns = [here.allow("alice"), there.allow("alice"), here.allow("alice")]
        clock.now += 30
        turns += [there.allow("alice"), here.allow("alice"), there.allow("alice")]
        assert turns == [True, True, True, True, False, False]
        assert here.retry_after("alice") == there.retry_after("alice") == 30
    finally:
        first.close()
        second.close()


def test_racing_checks_from_many_connections_allow_exactly_the_limit(db: str) -> None:
    """Eight threads, each with its own store (its own connections, as a process has),
    check one key at once: the count and the insert are one indivisible step."""
    Store.open(db).close()  # made once, before the racers open it
    allowed = race(db, 4, lambda _, store: RateLimiter(store, "cup/logins", 5, 60).allow("alice"))
    assert (allowed.count(True), allowed.count(False)) == (5, 27)


def test_events_that_left_the_window_are_deleted_as_checks_go(store: Store) -> None:
    clock = FakeClock()
    limiter = RateLimiter(store, "cup/signups", 1, 60, clock=clock)
    for n in range(150):
        assert limiter.allow(f"address-{n}")
    assert events(store) == 150
    clock.now += 60  # every one of them is out of the window now
    assert limiter.allow("late")
    assert events(store) == 150 - SWEEP_BATCH + 1
    assert not limiter.allow("late")  # refused, and 50 more swept
    assert events(store) == 1


def test_nonsense_limits_are_refused(store: Store) -> None:
    for limit, per in ((0, 60), (1, 0), (1, -1)):
        with pytest.raises(ValueError, match="limit >= 1 and per_seconds > 0"):
            RateLimiter(store, "cup/logins", limit, per)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    opened = Store.open(f"sqlite:///{tmp_path_factory.mktemp('limits') / 'site.db'}")
    yield opened
    opened.close()


NAMES = itertools.count()


@settings(max_examples=40, deadline=None)
@given(
    limit=st.integers(1, 5),
    per=st.integers(1, 20),
    steps=st.lists(st.tuples(st.integers(0, 7), st.sampled_from("abc")), max_size=40),
)
def test_never_more_than_limit_in_any_window(shared: Any, limit: int, per: int, steps: Any) -> None:
    clock = FakeClock()
    limiter = RateLimiter(shared, f"example-{next(NAMES)}", limit, per, clock=clock)
    allowed: dict[str, list[float]] = {}
    for advance, key in steps:
        clock.now += advance
        recent = [t for t in allowed.get(key, []) if t > clock.now - per]
        assert limiter.allow(key) == (len(recent) < limit)
        if len(recent) < limit:
            allowed.setdefault(key, []).append(clock.now)


def test_uploads_at_once_through_many_connections_stay_within_the_hours_bound(
    db: str, tmp_path: Path
) -> None:
    """Eight web processes' uploads of one user at once (each thread its own store): the
    hour's count and the upload are one step, so exactly `uploads_per_hour` get in."""
    from arena_helpers import new_contest
    from botarena.arena import store as arena

    new_contest(db, tmp_path, "uploads_per_hour=3")
    setup = Store.open(db)
    try:
        contest = arena.contest(setup, "cup")
        assert contest is not None
        with setup.transaction() as conn:
            arena.add_user(conn, contest, "alice", "not-a-hash")
        row = arena.user_row(setup, contest, "alice")
        alice = arena.User(row.id, row.name, False)
    finally:
        setup.close()

    def upload(index: int, store: Store) -> str:
        source = f"print({index}, {uuid.uuid4().hex})\n".encode()
        try:
            arena.add_upload(store, contest, alice, f"bot{index}", "bot.py", source, "Python")
        except arena.TooManyUploads:
            return "too many"
        return "in"

    outcomes = race(db, 2, upload)
    assert (outcomes.count("in"), outcomes.count("too many")) == (3, 13)
