"""After the SPRT stopped, compare says plainly what its Elo interval is: a fixed-sample one,
leaning toward the bound crossed (#22); docs/compare.md explains it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ARGS = ["compare", "builtin:amazes/explorer", "builtin:amazes/random", "--game", "amazes",
        "--sprt", "0,200", "--seed", "1", "--workers", "1"]  # fmt: skip


def run(*extra: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "botarena", *ARGS, *extra],
        cwd=cwd, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_interval_is_named_after_an_sprt_stop(tmp_path: Path) -> None:
    facts = json.loads(run("--json", cwd=tmp_path))
    assert facts["verdict"] == "H1"
    assert facts["elo_interval"] == "fixed-sample, SPRT-stopped"
    text = run(cwd=tmp_path)
    assert "note: the Elo and its interval are fixed-sample estimates" in text
    assert "covers less than 95 %" in text
