"""The upload languages' toolchain versions (`/api/contest`, `/rules`) are probed once a
process, even when the site's first requests come together: each probe runs a compiler
(a JVM's start among them), and 200 readers each running all of them took the site's p95
from 0.3 s to 3 s (bench/bench_site.py)."""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest

from botarena.arena import statement


def test_requests_that_come_together_probe_each_toolchain_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    probed: Counter[str] = Counter()

    def slow_probe(tool: str) -> str:
        probed[tool] += 1
        time.sleep(0.02)  # long enough for every other thread to arrive meanwhile
        return f"{tool} 1.0"

    monkeypatch.setattr(statement, "toolchain", slow_probe)
    statement._languages.cache_clear()
    try:
        answers: list[list[dict]] = []
        threads = [
            threading.Thread(target=lambda: answers.append(statement.languages())) for _ in range(8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert probed and set(probed.values()) == {1}
        assert len(answers) == 8 and all(answer == answers[0] for answer in answers)
        answers[0][0]["endings"].append(".oops")  # each caller has its own copy
        assert ".oops" not in statement.languages()[0]["endings"]
    finally:
        statement._languages.cache_clear()
