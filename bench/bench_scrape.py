"""Scrape: `labyrinth scrape` of 1 000 answers (quick: 100) of one API page, every answer's
JavaScript checked in the bots' sandbox (#25): wall seconds in all and per answer.

`python bench/run.py scrape` (a sandboxed Node start per answer dominates).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from botarena.games.labyrinth.answers import read_source
from botarena.games.labyrinth.scrape import scrape
from tempdirs import readable_tempdir

CODE = "return {startRound(n) {}, takeTurn(views) { return [%d %% 5, 1]; }};"


def page(count: int) -> dict:
    """An API page of `count` distinct, valid adventurers answers."""
    return {
        "items": [
            {
                "answer_id": number + 1,
                "owner": {"display_name": f"author {number}"},
                "body": f"<h1>Adventurers: Bot {number}</h1><pre><code>"
                f"{CODE % number}</code></pre>",
            }
            for number in range(count)
        ]
    }


def run(quick: bool) -> list[dict]:
    count = 100 if quick else 1000
    with readable_tempdir() as name:
        folder = Path(name)
        source = folder / "page.json"
        source.write_text(json.dumps(page(count)))
        started = time.perf_counter()
        report = scrape(read_source(source), folder / "posts")
        took = time.perf_counter() - started
    assert sum(v.kept for v in report.verdicts) == count, [v.reason for v in report.verdicts][:3]
    return [
        {"name": f"scrape of {count} answers", "value": took, "unit": "s", "goal": ""},
        {"name": "scrape, per answer", "value": took / count * 1000, "unit": "ms", "goal": ""},
    ]
