"""A contest season rehearsed on this machine (issue #36): tests/season.py with 40 scripted
contestants in every language and 200 readers on the site, its figures and checks as rows.

PostgreSQL started for it, two web processes of the Amazes contest and one of the Ants
contest, three workers in folders of their own, the faults (kill -9 of workers mid-build and
mid-game, of a web process, a PostgreSQL restart, a new release mid-season), a deadline,
finals and the export; docs/cluster.md, "The rehearsal", reads the figures. With
BOTARENA_AMAZES_2009 naming a checkout of maksverver/Amazes, one more contestant uploads
the 2009 CodeCup Amazes player built from its sources.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import bench_site
from season import Plan, Season, rehearse

GOALS = {
    "upload to active p95 (s)": "",
    "web p95 (ms)": "<= 100",
    "store transactions per game (every client)": "",
}
UNITS = {"games played": "games", "games per minute per worker": "games/min"}
"""The unit of a figure whose name does not end in it ("... (s)", "... (ms)")."""


def readers(url: str, owners: list[tuple[str, str]], bot: str) -> Callable[[], list[float]]:
    """bench_site's 200 readers on the site in a thread of their own, until stopped; a
    request that fails (a web process killed under it) is counted, not fatal."""
    stop = threading.Event()
    found: dict[str, list] = {"times": [], "failures": []}
    paths = (*bench_site.PATHS[:-1], f"/api/bots/{bot}")

    def read() -> None:
        found["times"] = asyncio.run(
            bench_site.readers(
                url, owners, lambda: not stop.is_set(), paths=paths, failures=found["failures"]
            )
        )

    thread = threading.Thread(target=read, daemon=True)
    thread.start()

    def finish() -> list[float]:
        stop.set()
        thread.join(120)
        print(f"season: {len(found['failures'])} readers' requests failed", file=sys.stderr)
        return found["times"]

    return finish


def rows(season: Season) -> list[dict]:
    """The figures, then the checks, each a row."""
    found = [
        {
            "name": f"season: {name}",
            "value": value,
            "unit": UNITS.get(name, name[name.rfind("(") + 1 : -1] if name.endswith("s)") else ""),
            "goal": GOALS.get(name, ""),
        }
        for name, value in season.figures.items()
    ]
    for name, value in season.checks.items():
        shown = len(value) if name == "export" else value
        found.append({"name": f"season check: {name}", "value": str(shown), "unit": "", "goal": ""})
    return found


def run(quick: bool) -> list[dict]:
    outside = os.environ.get("BOTARENA_AMAZES_2009")
    plan = Plan(
        contestants=20 if quick else 40,
        ladder_s=60.0 if quick else 120.0,
        finals_top=6,
        outside=Path(outside) if outside else None,
    )
    return rows(rehearse(plan, readers))


if __name__ == "__main__":
    for row in run("--quick" in sys.argv):
        print(row)
