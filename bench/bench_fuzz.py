"""Fuzzing at scale: 10^5 mutated inputs per parser and reader (tests/fuzzing.py), called
in-process; reports the inputs tried, the failures (any exception but the documented
refusal) and the time per input. The first input of each failure kind goes to stderr."""

from __future__ import annotations

import random
import sys
import time
import traceback

from fuzzing import TARGETS, target

FULL, QUICK = 100_000, 1_000


def run(quick: bool) -> list[dict]:
    count = QUICK if quick else FULL
    rows = []
    for name in sorted(TARGETS):
        fuzz = target(name)
        rng = random.Random(name)
        seen: set[str] = set()
        failures = 0
        started = time.perf_counter()
        for _ in range(count):
            try:
                fuzz.one(rng)
            except Exception as exc:  # a failure: counted, its first example shown
                failures += 1
                where = traceback.extract_tb(exc.__traceback__)[-1]
                kind = f"{exc.__class__.__name__} at {where.filename}:{where.lineno}"
                if kind not in seen:
                    seen.add(kind)
                    print(f"fuzz {name}: {kind}: {str(exc)[:200]}", file=sys.stderr)
        spent = time.perf_counter() - started
        rows += [
            {
                "name": f"fuzz {name}: inputs tried",
                "value": count,
                "unit": "inputs",
                "goal": f">= {count}",
            },
            {"name": f"fuzz {name}: failures", "value": failures, "unit": "inputs", "goal": "0"},
            {
                "name": f"fuzz {name}: time per input",
                "value": spent / count * 1e6,
                "unit": "µs",
                "goal": "",
            },
        ]
    return rows
