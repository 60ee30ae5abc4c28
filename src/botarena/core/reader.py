"""Bounded reading of the jury's own input files: maps, replays, and the
games' own files (each game names its `Kind`).

Every such file may come from a stranger, so one reader caps what it costs: the raw bytes
and the inflated bytes of a gzip file (streamed, so the cap is hit before the memory is
used), files that are not regular (a FIFO, `/dev/zero`) only when small, JSON nested no
deeper than `MAX_NESTING`, and no NaN or infinity. The caps are in docs/limits.md; the
environment variable `BOTARENA_MAX_READ_MB` raises the per-kind size caps for all readers
(a long tournament's replays may need it).
"""

from __future__ import annotations

import os
import stat
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botarena.core.bounds import MAX_NESTING, depth, nested, path_problem, shown, stack_depth
from botarena.core.rules import GameError

MiB = 1 << 20
NON_REGULAR_MAX = 1 * MiB  # a pipe or device is read only this far
CHUNK = 1 * MiB
LIMIT_VARIABLE = "BOTARENA_MAX_READ_MB"


class ReadError(GameError):
    """An input file that cannot be read within its limits; the message names the file."""


@dataclass(frozen=True)
class Kind:
    """One kind of input file: what to call it and how many bytes it may hold."""

    noun: str  # "map file", "replay", ...
    max_bytes: int  # raw and inflated alike, unless raised by LIMIT_VARIABLE
    gzip: bool = False  # whether gzip files are inflated


MAP = Kind("map file", 4 * MiB)
REPLAY = Kind("replay", 256 * MiB, gzip=True)


def limit(kind: Kind) -> int:
    """`kind`'s byte cap, or the larger one the user set in BOTARENA_MAX_READ_MB."""
    text = os.environ.get(LIMIT_VARIABLE, "").strip()
    if not text:
        return kind.max_bytes
    try:
        value = int(text)
    except ValueError:
        raise ReadError(f"{LIMIT_VARIABLE}={text!r} is not a whole number of MiB") from None
    if value <= 0:
        raise ReadError(f"{LIMIT_VARIABLE}={text!r} must be a positive number of MiB")
    return max(kind.max_bytes, value * MiB)


def read_bytes(path: str | Path, kind: Kind) -> bytearray:
    """The file's bytes (inflated when `kind` takes gzip), within `kind`'s cap."""
    cap = limit(kind)
    name = str(path)
    problem = path_problem(path)
    if problem:  # before any file is opened: open() would raise ValueError on a NUL
        raise ReadError(f"{kind.noun} {shown(name)}: {problem}")
    try:
        with open(path, "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if stat.S_ISDIR(mode):
                raise ReadError(f"{name}: is a folder, not a {kind.noun}")
            regular = stat.S_ISREG(mode)
            raw_cap = cap if regular else min(cap, NON_REGULAR_MAX)
            raw = _read_capped(handle, raw_cap)
    except IsADirectoryError:
        raise ReadError(f"{name}: is a folder, not a {kind.noun}") from None
    except OSError as exc:
        raise ReadError(f"{name}: cannot read the {kind.noun} ({exc.strerror or exc})") from None
    if raw is None and not regular:
        raise ReadError(
            f"{name}: not a regular file, and it gives more than"
            f" {_mib(raw_cap)}; save the {kind.noun} to a file first"
        )
    if raw is None:
        raise ReadError(f"{name}: the {kind.noun} is larger than {_mib(raw_cap)}; {_raise_hint()}")
    if kind.gzip and raw[:2] == b"\x1f\x8b":
        raw = _inflate(raw, cap, name, kind)
    return raw


def read_text(path: str | Path, kind: Kind) -> str:
    """The file as UTF-8 text (a leading byte-order mark dropped), within `kind`'s cap."""
    data = read_bytes(path, kind)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ReadError(
            f"{path}: the {kind.noun} is not UTF-8 text (line {line}, byte {exc.start})"
        ) from None


def read_json(path: str | Path, kind: Kind) -> Any:
    """The file parsed as JSON, within `kind`'s cap and `MAX_NESTING`."""
    return parse_json(read_bytes(path, kind), f"{path}", kind.noun)


def parse_json(data: bytes | bytearray | str, name: str, noun: str = "document") -> Any:
    """`data` parsed as strict JSON (no NaN or infinity), nested at most MAX_NESTING deep;
    raises ReadError with one line naming `name`."""
    import msgspec

    if isinstance(data, str):
        data = data.encode()
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(stack_depth() + MAX_NESTING + 2)
    try:
        return msgspec.json.decode(data)
    except RecursionError:
        raise ReadError(
            f"{name}: the {noun} nests arrays or objects more than {MAX_NESTING} deep"
        ) from None
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise ReadError(f"{name}: the {noun} is not JSON ({exc})") from None
    finally:
        sys.setrecursionlimit(old)


def read_toml(path: str | Path, kind: Kind) -> dict[str, Any]:
    """The file parsed as TOML, within `kind`'s cap and MAX_NESTING."""
    return parse_toml(read_text(path, kind), str(path), kind.noun)


def parse_toml(text: str, name: str, noun: str = "document") -> dict[str, Any]:
    """`text` parsed as TOML, nested at most MAX_NESTING deep; raises ReadError with one
    line naming `name` (and the line, `NAME:LINE: invalid TOML: ...`, for a syntax error):
    tomllib itself raises RecursionError on deep nesting and ValueError on a number of
    more than 4 300 digits."""
    import re
    import tomllib

    try:
        document = nested(lambda: tomllib.loads(text), name, noun)
    except GameError as exc:
        raise ReadError(str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        line = found.group(1) if found else max(1, len(text.splitlines()))
        raise ReadError(f"{name}:{line}: invalid TOML: {exc}") from None
    except ValueError as exc:  # int() of a number past Python's digit limit
        reason = str(exc).split(":")[0]
        raise ReadError(f"{name}: the {noun} holds a value Python cannot read ({reason})") from None
    if depth(document) > MAX_NESTING:
        raise ReadError(f"{name}: the {noun} nests arrays or tables more than {MAX_NESTING} deep")
    return document


def _read_capped(handle: Any, cap: int) -> bytearray | None:
    """Up to `cap` bytes; None when there are more."""
    data = bytearray()
    while True:
        chunk = handle.read(min(CHUNK, cap + 1 - len(data)))
        if not chunk:
            return data
        data += chunk
        if len(data) > cap:
            return None


def _inflate(raw: bytearray, cap: int, name: str, kind: Kind) -> bytearray:
    """gzip members inflated one bounded piece at a time into one buffer (the peak is the
    cap, not twice it); refused past `cap` bytes."""
    data, rest = bytearray(), bytes(raw)
    del raw[:]
    try:
        while rest:
            inflater = zlib.decompressobj(wbits=31)
            pending = rest
            while not inflater.eof:
                piece = inflater.decompress(pending, min(CHUNK, cap + 1 - len(data)))
                data += piece
                if len(data) > cap:
                    raise ReadError(
                        f"{name}: the {kind.noun} inflates to more than"
                        f" {_mib(cap)}; {_raise_hint()}"
                    )
                pending = inflater.unconsumed_tail
                if not pending and not piece:
                    break
            if not inflater.eof:
                raise ReadError(f"{name}: the gzip {kind.noun} is cut short")
            rest = inflater.unused_data.lstrip(b"\0")
    except zlib.error as exc:
        raise ReadError(f"{name}: the gzip {kind.noun} is corrupt ({exc})") from None
    return data


def _mib(count: int) -> str:
    return f"{count / MiB:g} MiB"


def _raise_hint() -> str:
    return f"set {LIMIT_VARIABLE} to read larger files (docs/limits.md)"
