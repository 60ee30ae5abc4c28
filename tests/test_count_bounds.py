"""Every count a user sets is bounded where its option is declared, the bound in the one-line
error (#34): workers of compare, run, work and demo share MAX_WORKERS; the counts of new and
finals; a build's total output."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from botarena.cli import app
from botarena.tournament import build

BOTS = ("builtin:amazes/random", "builtin:amazes/random")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("compare", *BOTS, "--game", "amazes", "--workers", "1000"), "--workers must be"
         " between 1 and 256"),
        (("compare", *BOTS, "--game", "amazes", "--games", str(10**12)), "--games must be"
         " between 1 and 1000000000"),
        (("compare", *BOTS, "--game", "amazes", "--players", "100000"), "--players must be"
         " between 1 and 64"),
        (("compare", *BOTS, "--game", "amazes", "--seed", str(2**64)), "--seed must be"
         " between 0 and 9223372036854775807"),
        (("tournament", "work", "--db", "sqlite:///x.db", "--workers", "1000"), "--workers must"
         " be between 0 and 256"),
        (("tournament", "work", "--db", "sqlite:///x.db", "--games", "0"), "--games must be"
         " between 1 and 1000000000"),
        (("tournament", "finals", "l", "--games-per-pair", str(10**9)), "--games-per-pair must"
         " be at most 1000"),
        (("tournament", "finals", "l", "--top", str(10**9)), "--top must be at most 1000"),
        (("tournament", "new", "t", "--game", "amazes", "--games-per-pair", "5000"),
         "--games-per-pair must be between 1 and 1000"),
        (("tournament", "new", "t", "--game", "amazes", "--rounds", str(10**9)), "--rounds must"
         " be between 0 and 10000"),
        (("tournament", "new", "t", "--game", "amazes", "--seed", str(2**63)), "--seed must be"
         " between 0 and 9223372036854775807"),
        (("tournament", "new", "t", "--game", "amazes", "--max-rounds", str(10**9)),
         "--max-rounds must be at most 10000"),
        (("tournament", "new", "t", "--game", "amazes", "--bot", BOTS[0], "--seats", "9" * 5000),
         "--seats has 5000 digits; it must be 1 to 64 (a number N or a range MIN-MAX)"),
        (("demo", "--workers", "1000"), "--workers must be between 0 and 256"),
    ],
)  # fmt: skip
def test_a_count_past_its_bound_is_one_line(
    args: tuple[str, ...], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, list(args))
    assert (result.exit_code, result.output) == (2, f"botarena: error: {message}\n")
    assert list(tmp_path.iterdir()) == []  # refused before anything was made


def test_a_build_that_writes_too_much_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build, "BUILT_MAX_FILES", 10)
    for index in range(11):
        (tmp_path / f"C{index}.class").write_bytes(b"\xca\xfe")
    assert build._too_much(tmp_path) == (
        "the build wrote more than 64 MiB or 10 files (docs/bot-builds.md)"
    )
    (tmp_path / "C0.class").unlink()
    assert build._too_much(tmp_path) == ""
