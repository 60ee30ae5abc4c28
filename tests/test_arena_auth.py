"""Credentials: password hashes, user names, tokens, CSRF tokens and the rate limiter."""

from __future__ import annotations

import hashlib
import hmac
import re

import pytest
from argon2 import PasswordHasher
from hypothesis import given
from hypothesis import strategies as st

from botarena.arena.auth import (
    RateLimiter,
    check_password,
    csrf_ok,
    csrf_token,
    hash_password,
    needs_rehash,
    new_token,
    token_digest,
    valid_password,
    valid_user,
)

pytestmark = pytest.mark.real_hasher  # the hashing itself: the site's own parameters

SECRET = b"0123456789abcdef0123456789abcdef"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- passwords -------------------------------------------------------------------------------


def test_password_round_trip_and_wrong_password_refused():
    stored = hash_password("correct horse")
    assert stored.startswith("$argon2id$")
    assert "correct horse" not in stored
    assert check_password(stored, "correct horse")
    assert not check_password(stored, "correct hors")
    assert not check_password(stored, "Correct horse")
    assert hash_password("correct horse") != stored  # salted


def test_unknown_user_and_damaged_hash_never_match():
    assert not check_password(None, "anything at all")
    assert not check_password("", "anything at all")
    assert not check_password("$argon2id$garbage", "anything at all")
    assert not check_password("plain text password", "plain text password")


def test_a_hash_with_weaker_parameters_needs_rehash():
    weak = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash("pw-123456")
    assert check_password(weak, "pw-123456")
    assert needs_rehash(weak)
    assert not needs_rehash(hash_password("pw-123456"))


def test_password_length_rule():
    assert valid_password("1234567") == "a password has at least 8 characters"
    assert valid_password("12345678") is None
    assert valid_password("x" * 1024) is None
    assert valid_password("x" * 1025) == "a password has at most 1024 characters"


# -- user names ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["a", "Z", "0", "alice", "bob_2", "a.b-c", "_x", "x" * 32, "x."])
def test_good_user_names(name):
    assert valid_user(name) is None


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "a user name has 1 to 32 characters"),
        ("x" * 33, "a user name has 1 to 32 characters"),
        (".alice", "a user name does not start with '.' or '-'"),
        ("-alice", "a user name does not start with '.' or '-'"),
        ("..", "a user name does not start with '.' or '-'"),
        ("al ice", "a user name is made of letters, digits and _ . - only"),
        ("<script>", "a user name is made of letters, digits and _ . - only"),
        ("élodie", "a user name is made of letters, digits and _ . - only"),
        ("a/b", "a user name is made of letters, digits and _ . - only"),
        ("alice\n", "a user name is made of letters, digits and _ . - only"),
        ("٣", "a user name is made of letters, digits and _ . - only"),
    ],
)
def test_bad_user_names_give_their_reason(name, reason):
    assert valid_user(name) == reason


ALLOWED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"


@given(st.one_of(st.text(max_size=40), st.text(ALLOWED + "é /", max_size=40)))
def test_user_name_rule_is_exactly_the_spec(name):
    allowed = ALLOWED
    expected = (
        1 <= len(name) <= 32 and all(char in allowed for char in name) and name[0] not in ".-"
    )
    assert (valid_user(name) is None) == expected


# -- tokens ----------------------------------------------------------------------------------


def test_new_token_is_random_and_its_digest_is_its_sha256():
    token, digest = new_token()
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)
    assert digest == hashlib.sha256(token.encode()).hexdigest()
    assert token_digest(token) == digest
    assert token not in digest
    assert len({new_token()[0] for _ in range(100)}) == 100


# -- CSRF ------------------------------------------------------------------------------------


def test_csrf_token_is_the_hmac_of_the_session():
    expected = hmac.new(SECRET, b"csrf\0session-1", hashlib.sha256).hexdigest()
    assert csrf_token(SECRET, "session-1") == expected
    assert csrf_ok(SECRET, "session-1", expected)


def test_csrf_of_another_session_or_secret_is_refused():
    mine = csrf_token(SECRET, "session-1")
    assert not csrf_ok(SECRET, "session-2", mine)
    assert not csrf_ok(SECRET, "session-2", csrf_token(b"another secret", "session-2"))
    assert not csrf_ok(SECRET, "session-1", "")
    assert not csrf_ok(SECRET, "session-1", mine[:-1])
    assert not csrf_ok(SECRET, "session-1", mine.upper())
    assert not csrf_ok(SECRET, "session-1", "é" * 64)
    assert not csrf_ok(SECRET, "session-1", None)  # type: ignore[arg-type]


# -- rate limits -----------------------------------------------------------------------------


def test_rate_limiter_allows_limit_events_per_window_and_slides():
    clock = FakeClock()
    limiter = RateLimiter(3, 60, clock=clock)
    assert [limiter.allow("alice@1.2.3.4") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("bob@1.2.3.4")  # another key is counted apart
    clock.now += 59.9
    assert not limiter.allow("alice@1.2.3.4")
    assert limiter.retry_after("alice@1.2.3.4") == pytest.approx(0.1)
    clock.now += 0.1  # the first three events are exactly 60 s old: out of the window
    assert limiter.retry_after("alice@1.2.3.4") == 0
    assert [limiter.allow("alice@1.2.3.4") for _ in range(4)] == [True, True, True, False]


def test_rate_limiter_window_slides_event_by_event():
    clock = FakeClock()
    limiter = RateLimiter(2, 10, clock=clock)
    assert limiter.allow("k")  # t = 0
    clock.now += 6
    assert limiter.allow("k")  # t = 6
    clock.now += 3
    assert not limiter.allow("k")  # t = 9: two in (−1, 9]
    clock.now += 1
    assert limiter.allow("k")  # t = 10: the event at 0 left, 6 and 10 in
    clock.now += 5
    assert not limiter.allow("k")  # t = 15: 6 and 10 still in
    clock.now += 1
    assert limiter.allow("k")  # t = 16


def test_uploads_per_hour():
    clock = FakeClock()
    uploads = RateLimiter(10, 3600, clock=clock)
    for _ in range(10):
        assert uploads.allow("alice")
        clock.now += 60
    assert not uploads.allow("alice")
    assert uploads.retry_after("alice") == pytest.approx(3600 - 600)


def test_rate_limiter_memory_is_bounded():
    clock = FakeClock()
    limiter = RateLimiter(5, 60, clock=clock, max_keys=100)
    for n in range(1000):
        limiter.allow(f"attacker-{n}")
    assert len(limiter) == 100
    clock.now += 60
    limiter.allow("late")
    assert len(limiter) == 1  # every key idle for a whole window is dropped


def test_a_full_limiter_drops_the_key_with_the_oldest_event():
    clock = FakeClock()
    limiter = RateLimiter(1, 60, clock=clock, max_keys=2)
    assert limiter.allow("a")
    clock.now += 1
    assert limiter.allow("b")
    assert not limiter.allow("a")  # refused: does not make "a" recent
    clock.now += 1
    assert limiter.allow("c")  # "a" is dropped, "b" kept
    assert not limiter.allow("b")
    assert limiter.allow("a")


def test_rate_limiter_refuses_nonsense_limits():
    for limit, per in ((0, 60), (1, 0), (1, -1)):
        with pytest.raises(ValueError):
            RateLimiter(limit, per)


@given(
    limit=st.integers(1, 5),
    per=st.integers(1, 20),
    steps=st.lists(st.tuples(st.integers(0, 7), st.sampled_from("abc")), max_size=60),
)
def test_rate_limiter_never_allows_more_than_limit_in_any_window(limit, per, steps):
    clock = FakeClock()
    limiter = RateLimiter(limit, per, clock=clock)
    allowed: dict[str, list[float]] = {}
    for advance, key in steps:
        clock.now += advance
        recent = [t for t in allowed.get(key, []) if t > clock.now - per]
        assert limiter.allow(key) == (len(recent) < limit)
        if len(recent) < limit:
            allowed.setdefault(key, []).append(clock.now)
