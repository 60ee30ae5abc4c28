"""Values from users and strangers, checked by kind before anything is built from them: names
that become paths, whole numbers written as text, nesting of parsed documents, and times.

Each kind has one function here, called at the one entry of the readers that meet it (the
bounded file reader, the output rule, bot specs, the bots file, the scraper), so a NUL byte,
a 5 000-digit id or a year 10 000 is refused in one line naming the input, never an
exception from deep inside. The bounds are listed in docs/limits.md.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

from botarena.core.rules import GameError

if TYPE_CHECKING:
    from datetime import datetime

MAX_NAME_BYTES = 255
"""The most bytes of one component of a path (Linux's NAME_MAX)."""
MAX_PATH_BYTES = 4096
"""The most bytes of a whole path (Linux's PATH_MAX)."""
MAX_DIGITS = 40
"""The most digits a whole number written as text may have (an int64 has 19): past it a
number is refused unparsed, well before Python's own 4 300-digit limit raises."""
MAX_NESTING = 64
"""Arrays, objects or tables inside each other in a parsed document; real ones use under 10."""
EARLIEST_YEAR, LATEST_YEAR = 1970, 9000
"""The times botarena stores or shows: from the epoch to before a year any datetime, in any
time zone, can still hold (datetime is imported only when a time is checked: start-up)."""

T = TypeVar("T")


def shown(text: str | bytes, limit: int = 60) -> str:
    """`text` quoted for a one-line message, cut to about `limit` characters."""
    quoted = repr(text)
    return quoted if len(quoted) <= limit else f"{quoted[: limit - 5]}...{quoted[-1]}"


def path_problem(path: str | os.PathLike[str]) -> str:
    """Why `path` cannot name a file ('' if it can): a NUL byte, a component longer than
    MAX_NAME_BYTES or the whole longer than MAX_PATH_BYTES (in the file system's encoding)."""
    text = os.fspath(path)
    if "\0" in text:
        return "holds a NUL byte"
    encoded = os.fsencode(text) if _encodable(text) else text.encode("utf-8", "surrogatepass")
    if len(encoded) > MAX_PATH_BYTES:
        return f"is longer than {MAX_PATH_BYTES} bytes"
    if any(len(part) > MAX_NAME_BYTES for part in encoded.split(b"/")):
        return f"has a name longer than {MAX_NAME_BYTES} bytes"
    return ""


def _encodable(text: str) -> bool:
    try:
        os.fsencode(text)
    except UnicodeEncodeError:  # a lone surrogate that no file name can hold
        return False
    return True


def checked_path(
    path: str | os.PathLike[str], what: str, error: Callable[[str], Exception] = GameError
) -> Path:
    """`path` as a Path, once it can name a file; raises `error("WHAT 'PATH': why")`."""
    problem = path_problem(path)
    if problem:
        raise error(f"{what} {shown(os.fspath(path))}: {problem}")
    return Path(path)


def whole_number(text: str, what: str, low: int, high: int) -> int:
    """`text` (digits, an optional sign, spaces around) as an int in [low, high]; raises
    GameError naming `what` and the bounds. Long texts are refused before int() reads them."""
    stripped = text.strip()
    digits = stripped.lstrip("+-")
    if not digits.isdigit() or not digits.isascii() or len(stripped) - len(digits) > 1:
        raise GameError(f"{what} {shown(text)} is not a whole number")
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise GameError(f"{what} has {len(digits)} digits; it must be {low} to {high}")
    value = int(stripped)
    if not low <= value <= high:
        raise GameError(f"{what} {value} is out of range ({low} to {high})")
    return value


def digits_int(text: str) -> int | None:
    """A text of ASCII digits (and a sign) as an int, or None when it has more digits than
    Python's int() converts (4 300 by default: it would raise ValueError), so a stranger's
    huge number is one item's problem, not the whole document's."""
    limit = sys.get_int_max_str_digits()
    if limit and len(text.lstrip("+-").lstrip("0")) > limit:
        return None
    return int(text)


def nested(parse: Callable[[], T], name: str, noun: str) -> T:
    """`parse()` with Python's recursion capped at MAX_NESTING levels past this frame (a few
    frames a level for a recursive parser); a deeper document raises GameError naming
    `name`, not RecursionError."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(stack_depth() + 4 * MAX_NESTING + 16)
    try:
        return parse()
    except RecursionError:
        raise GameError(
            f"{name}: the {noun} nests arrays or tables more than {MAX_NESTING} deep"
        ) from None
    finally:
        sys.setrecursionlimit(old)


def depth(value: Any) -> int:
    """How deeply lists and dicts nest in `value` (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in item)
    return deepest


def stack_depth() -> int:
    """How many Python frames are below this call (a recursion limit is counted from 0)."""
    frame: FrameType | None = sys._getframe()
    count = 0
    while frame is not None:
        frame, count = frame.f_back, count + 1
    return count


def moment(value: datetime | float | int, what: str) -> datetime:
    """A time (a datetime, naive ones in UTC, or seconds since the epoch) from EARLIEST_YEAR
    to before LATEST_YEAR, in UTC; raises GameError naming `what` for one out of range or
    not finite."""
    from datetime import UTC, datetime

    earliest = datetime(EARLIEST_YEAR, 1, 1, tzinfo=UTC)
    latest = datetime(LATEST_YEAR, 1, 1, tzinfo=UTC)
    if isinstance(value, datetime):
        when = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        try:
            when = when.astimezone(UTC)
        except (OverflowError, ValueError):
            raise GameError(f"{what} {value.isoformat()} is out of range") from None
    else:
        try:
            when = datetime.fromtimestamp(value, UTC)
        except (OverflowError, ValueError, OSError):
            raise GameError(f"{what} {value!r} is not a time botarena can hold") from None
    if not earliest <= when < latest:
        raise GameError(
            f"{what} {when.isoformat()} is out of range ({EARLIEST_YEAR} to {LATEST_YEAR - 1})"
        )
    return when
