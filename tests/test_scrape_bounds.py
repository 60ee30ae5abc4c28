"""The scraper's reads and parse are bounded (#25): crafted HTML parses in time linear in its
length, a page, file or download past the limit (inflated size included) is refused in one
reason, and an API that always says `has_more` is not followed forever."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.games.labyrinth import answers
from botarena.games.labyrinth.answers import ScrapeError, fetch_api_pages, read_source
from botarena.games.labyrinth.htmlposts import _TreeBuilder, parse_html

CRAFTED = {
    "stray end tags under deep nesting": "<div>" * 50_000 + "</span>" * 50_000,
    "end tag openers without an end": "</" * 500_000,
    "processing instructions without an end": "<?" * 500_000,
    "declarations without an end": "<!" * 500_000,
    "lone less-than signs": "x<" * 500_000,
}


@pytest.mark.parametrize("text", CRAFTED.values(), ids=CRAFTED.keys())
@pytest.mark.slow
def test_crafted_pages_parse_in_linear_time(text: str) -> None:
    started = time.process_time()
    parse_html(text)
    # linear: well under a second here; the quadratic parse took minutes on these
    assert time.process_time() - started < 10


def plain_parse(text: str) -> str:
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root.text()


@settings(max_examples=300)
@given(st.text(alphabet="<>/!?-ab &;\n", max_size=40))
def test_the_linear_parse_reads_what_the_plain_parser_reads(text: str) -> None:
    assert parse_html(text).text() == plain_parse(text)


def test_a_file_past_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answers, "MAX_SOURCE_BYTES", 1000)
    page = tmp_path / "page.html"
    page.write_text("<p>" + "x" * 2000)
    with pytest.raises(ScrapeError, match="more than 0 MiB; refused"):
        read_source(page)
    bomb = tmp_path / "bomb.json"
    bomb.write_bytes(gzip.compress(b"{" + b" " * 100_000 + b"}"))  # 100 KB inflated
    with pytest.raises(ScrapeError, match="refused"):
        read_source(bomb)


def test_an_api_that_always_has_more_is_not_followed_forever() -> None:
    asked: list[str] = []

    def get(url: str) -> bytes:
        asked.append(url)
        return json.dumps({"items": [], "has_more": True}).encode()

    with pytest.raises(ScrapeError, match="has_more never ends"):
        list(fetch_api_pages("https://api.stackexchange.com/2.3/questions/1/answers", get))
    assert len(asked) == answers.MAX_API_PAGES


def test_text_that_is_not_utf8_is_one_reason(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(b"<p>\xff\xfe</p>")
    with pytest.raises(ScrapeError, match="not UTF-8 text"):
        read_source(page)
