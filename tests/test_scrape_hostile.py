"""A crafted answer is rejected with its reason and the rest are scraped (#25): a huge
answer id, a NUL or a lone surrogate in a post's name, a deeply nested JSON file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from botarena.games.labyrinth.answers import read_source
from botarena.games.labyrinth.scrape import scrape
from conftest import debian_program

pytestmark = pytest.mark.slow

CODE = "return {startRound(n) {}, takeTurn(views) { return [1, 1]; }};"


def body(name: str) -> str:
    return f"<h1>Adventurers: {name}</h1><pre><code>{CODE}</code></pre>"


def test_bad_answers_are_rejected_and_the_good_one_kept(tmp_path: Path) -> None:
    debian_program("node", "nodejs")
    debian_program("bwrap", "bubblewrap")
    items = [
        {"answer_id": 10**400, "body": body("Big")},
        {"answer_id": 5, "body": body("Nul\0x")},
        {"answer_id": 6, "body": body("Sur\ud800x")},
        {"answer_id": 7, "body": body("Good")},
    ]
    page = tmp_path / "page.json"
    page.write_text(json.dumps({"items": items}))
    report = scrape(read_source(page), tmp_path / "posts")
    assert [
        (v.answer_id == 10**400 or v.answer_id, v.kept, v.reason if not v.kept else v.bot)
        for v in report.verdicts
    ] == [
        (True, False, "answer id out of range (1 to 2**63 - 1)"),
        (5, False, "a NUL character in its name or code"),
        (6, False, "a lone surrogate in its name or code (not UTF-8)"),
        (7, True, "Good"),
    ]
    assert (tmp_path / "posts" / "Good.md").is_file()


def test_deeply_nested_json_is_no_traceback(tmp_path: Path) -> None:
    page = tmp_path / "deep.json"
    page.write_text("[" * 100_000 + "]" * 100_000)
    from botarena.games.labyrinth.answers import ScrapeError

    with pytest.raises(ScrapeError):
        read_source(page)
