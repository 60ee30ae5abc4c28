"""After the SPRT stopped, compare says plainly what its Elo interval is: a fixed-sample one,
leaning toward the bound crossed (#22); docs/compare.md explains it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import botarena_ok

ARGS = ["compare", "builtin:amazes/explorer", "builtin:amazes/random", "--game", "amazes",
        "--sprt", "0,200", "--seed", "1", "--workers", "1"]  # fmt: skip


@pytest.mark.slow  # seconds on 2 cores
def test_the_interval_is_named_after_an_sprt_stop(tmp_path: Path) -> None:
    facts = json.loads(botarena_ok(*ARGS, "--json", cwd=tmp_path))
    assert facts["verdict"] == "H1"
    assert facts["elo_interval"] == "fixed-sample, SPRT-stopped"
    text = botarena_ok(*ARGS, cwd=tmp_path)
    assert "note: the Elo and its interval are fixed-sample estimates" in text
    assert "covers less than 95 %" in text
