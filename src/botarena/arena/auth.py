"""The contest site's credentials: password hashes, user names, tokens, CSRF tokens.

Nothing here stores anything: the store keeps a password's hash, a token's digest (never the
token) and deletes a digest to revoke its token or session (docs/sandbox.md "Accounts").
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_PASSWORD = 8
MAX_PASSWORD = 1024
"""Characters: more only makes each login attempt cost the server more."""

TOKEN_BYTES = 32
"""Random bytes in a token (256 bits, shown as 43 URL-safe characters)."""

_USER = re.compile(r"[A-Za-z0-9_.-]{1,32}")

_hasher = PasswordHasher()
"""argon2id with argon2-cffi's defaults (RFC 9106's low-memory choice: 3 passes, 64 MiB,
4 lanes); a hash made with other parameters is checked and flagged by `needs_rehash`."""

HASH_WAIT_S = 2.0
"""How long a hash or check waits for a slot before it is refused (the site answers 503)."""


def slots_for(cores: int, memory: int) -> int:
    """Hashes at once on a machine of `cores` and `memory` bytes: two a core (argon2 runs
    its 4 lanes on one thread here), and no more than a quarter of the memory in hashes
    (each costs `_hasher.memory_cost` KiB, 64 MiB); at least one."""
    return max(1, min(2 * cores, memory // 4 // (_hasher.memory_cost * 1024)))


class HashesBusy(Exception):
    """Every hash slot stayed taken for HASH_WAIT_S: try again in `retry_after` seconds."""

    def __init__(self, retry_after: float) -> None:
        super().__init__("the server is busy checking passwords: try again in a moment")
        self.retry_after = retry_after


class HashSlots:
    """A bound on the password hashes running at once, so a burst of log-ins costs at most
    `count` times a hash's memory; a hash that finds no slot within `wait_s` is refused."""

    def __init__(self, count: int, wait_s: float = HASH_WAIT_S) -> None:
        self.count, self.wait_s = count, wait_s
        self.free = threading.BoundedSemaphore(count)

    @contextmanager
    def held(self) -> Iterator[None]:
        if not self.free.acquire(timeout=self.wait_s):
            raise HashesBusy(self.wait_s)
        try:
            yield
        finally:
            self.free.release()


MACHINE_SLOTS = slots_for(
    os.cpu_count() or 1, os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
)
hash_slots = HashSlots(MACHINE_SLOTS)
"""This process's slots: every hash and check of `hash_password` and `check_password`."""


def share_hash_slots(processes: int) -> None:
    """Keep this process to its share of the machine's slots when `processes` web processes
    run on it (`arena serve --web-workers N`): together they stay within its memory bound."""
    global hash_slots
    hash_slots = HashSlots(max(1, MACHINE_SLOTS // processes))


def hash_password(password: str) -> str:
    """The argon2id hash of `password` to store (salted: two calls give two hashes);
    HashesBusy when no hash slot frees in time."""
    with hash_slots.held():
        return _hasher.hash(password)


def check_password(stored: str | None, password: str) -> bool:
    """Whether `password` matches the `stored` hash. `None` (an unknown user) checks against
    a dummy hash, so an unknown name takes as long to refuse as a wrong password. A hash that
    is not argon2 (damaged) never matches. HashesBusy when no hash slot frees in time."""
    against = stored or _dummy_hash()
    try:
        with hash_slots.held():
            return _hasher.verify(against, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether a hash that just matched should be replaced by `hash_password` of the same
    password: it was made with weaker parameters than the ones in force now."""
    return _hasher.check_needs_rehash(stored)


@cache
def _dummy_hash() -> str:
    return _hasher.hash(secrets.token_urlsafe(16))


def valid_password(password: str) -> str | None:
    """Why `password` cannot be chosen, or None when it can."""
    if len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password has at most {MAX_PASSWORD} characters"
    return None


def valid_user(name: str) -> str | None:
    """Why `name` cannot be a user name, or None when it can: 1 to 32 letters, digits and
    `_ . -` (ASCII), not starting with `.` or `-`.

    >>> valid_user("alice_2") is None
    True
    >>> valid_user(".alice")
    "a user name does not start with '.' or '-'"
    """
    if not 1 <= len(name) <= 32:
        return "a user name has 1 to 32 characters"
    if not _USER.fullmatch(name):
        return "a user name is made of letters, digits and _ . - only"
    if name[0] in ".-":
        return "a user name does not start with '.' or '-'"
    return None


def new_token() -> tuple[str, str]:
    """A new random token (shown to its user once) and its digest (what the store keeps)."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token, token_digest(token)


def token_digest(token: str) -> str:
    """The SHA-256 hex digest of a token: the store looks a presented token up by it, so a
    copy of the store's table gives no usable token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def csrf_token(secret: bytes, session_id: str) -> str:
    """The CSRF token of a session: an HMAC-SHA256 of its id under the site's secret, put in
    every form of that session's pages."""
    return hmac.new(secret, b"csrf\0" + session_id.encode(), hashlib.sha256).hexdigest()


def csrf_ok(secret: bytes, session_id: str, token: str) -> bool:
    """Whether `token` is this session's CSRF token (compared in constant time)."""
    if not isinstance(token, str) or not token.isascii():
        return False
    return hmac.compare_digest(csrf_token(secret, session_id), token)
