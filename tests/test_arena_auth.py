"""Credentials: password hashes, user names, tokens and CSRF tokens (the rate limits:
test_arena_limits.py)."""

from __future__ import annotations

import hashlib
import hmac
import re

import pytest
from argon2 import PasswordHasher
from hypothesis import given
from hypothesis import strategies as st

from botarena.arena.auth import (
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


# -- passwords -------------------------------------------------------------------------------


@pytest.mark.slow
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
