"""The line reader: the lines and the cap a bot's output gives, whatever the chunks."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.core.lines import LineReader

PIECES = [b"a", b"xyz", b"\r", b"\n", b"\r\n", b"\xc3\xa9", b"\xc3", b" "]

outputs = st.lists(st.sampled_from(PIECES), max_size=30).map(b"".join)


def expected(data: bytes, java: bool, cap: int) -> tuple[list[str], bool]:
    """The lines of `data` by the rule's own words (not the reader's code): split at LF
    (one CR at a line's end dropped) or, Java's way, at CR LF, CR or LF; what follows the
    last break is a line; the first line over `cap` bytes ends the reading."""
    pieces = re.split(rb"\r\n|\r|\n" if java else rb"\n", data)
    if pieces[-1] == b"":
        pieces.pop()  # the output ended with a line break
    if not java:
        pieces = [piece.removesuffix(b"\r") for piece in pieces]
    lines = []
    for piece in pieces:
        if len(piece) > cap:
            return lines, True
        lines.append(piece.decode("utf-8", errors="replace"))
    return lines, False


def read(data: bytes, cuts: list[int], java: bool, cap: int) -> tuple[list[str], bool]:
    """Feed `data` cut at `cuts`, taking every line after each chunk, then the end."""
    reader = LineReader(cap=cap, java_line_breaks=java)
    lines: list[str] = []
    bounds = [0, *sorted(cut % (len(data) + 1) for cut in cuts), len(data)]
    for start, end in pairwise(bounds):
        if end > start:
            reader.feed(data[start:end])
        while (line := reader.take()) is not None:
            lines.append(line)
    reader.feed(b"")
    while (line := reader.take()) is not None:
        lines.append(line)
    assert reader.too_long or reader.ended
    return lines, reader.too_long


@settings(max_examples=400)
@given(outputs, st.lists(st.integers(0, 400), max_size=8), st.booleans(), st.integers(0, 6))
@pytest.mark.slow
def test_any_chunking_gives_the_rule_s_lines_and_cap(
    data: bytes, cuts: list[int], java: bool, cap: int
) -> None:
    assert read(data, cuts, java, cap) == expected(data, java, cap)


def test_a_line_streamed_without_end_is_cut_off_before_it_ends() -> None:
    """The cap holds while the line is still coming: the jury never buffers a line of
    unbounded length waiting for its end."""
    reader = LineReader(cap=10)
    reader.feed(b"ok\n" + b"x" * 8)
    assert reader.take() == "ok"
    assert reader.take() is None and not reader.too_long
    reader.feed(b"xxx")
    assert reader.take() is None and reader.too_long
    reader.feed(b"\nlater\n")
    assert reader.take() is None  # nothing more is read from a bot out of the game


def test_a_cr_waiting_for_its_lf_does_not_count_against_the_cap() -> None:
    reader = LineReader(cap=3)
    reader.feed(b"abc\r")
    assert reader.take() is None and not reader.too_long
    reader.feed(b"\n")
    assert reader.take() == "abc"


def test_java_line_breaks_take_a_lone_cr_and_one_lf_after_it() -> None:
    reader = LineReader(java_line_breaks=True)
    reader.feed(b"1\r")
    assert reader.take() == "1"
    reader.feed(b"\n2\n\n")
    assert [reader.take(), reader.take(), reader.take()] == ["2", "", None]
