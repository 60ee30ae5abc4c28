"""Bot builds: the same Amazes walker in six languages, built, cached and played for real.

Every built walker must send exactly the replies of the in-process walker below on the same
seed, so the build and the command it returns run the program the source describes.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import botarena
from botarena.tournament import build
from botarena.tournament.build import BuildError, build_bot, run_tool
from conftest import leftovers

SEED = 3
SLEEPER = f"{sys.executable} -c 'import time; time.sleep(1000)'"
"""A long-running child whose command line can carry a marker argument."""


class Walker:
    """The walker every tests/data/bots/walker.* implements: ahead, else right, else left,
    else turn around."""

    def act(self, observation) -> str:
        ahead, right, _, left = observation.corridors
        return "F" if ahead != "W" else "R" if right != "W" else "L" if left != "W" else "T"


def replies(bot, tmp_path: Path, name: str) -> tuple[list[str], dict]:
    """Seat 0's replies in an Amazes game against the built-in random bot, and its result."""
    replay = tmp_path / f"{name}.json"
    result = botarena.play("amazes", [bot, "builtin:amazes/random"], seed=SEED, replay=replay)
    steps = json.loads(replay.read_text())["steps"]
    sent = [act["reply"] for step in steps for act in step["acts"] if act["seat"] == 0]
    return sent, result.to_dict()["players"][0]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build cache for the module: each toolchain warms up once."""
    return tmp_path_factory.mktemp("build-cache")


@pytest.mark.parametrize(
    "source", ["walker.py", "walker.c", "walker.cpp", "Walker.java", "walker.rs", "walker.go"]
)
@pytest.mark.slow
def test_a_built_bot_plays_as_its_source_says(
    data: Path, cache: Path, tmp_path: Path, source: str
) -> None:
    spec = build_bot(data / "bots" / source, cache, name="walker")
    assert str(cache) in spec
    expected, _ = replies(Walker(), tmp_path, "reference")
    sent, player = replies(spec, tmp_path, source)
    assert len(expected) == 150
    assert sent == expected
    assert (player["status"], player["faults"]) == ("ok", 0)


def test_a_second_build_comes_from_the_cache(
    data: Path, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = build_bot(data / "bots" / "walker.c", cache, name="walker")

    def no_compiler(*args, **kwargs):
        raise AssertionError("the compiler ran although the build is cached")

    monkeypatch.setattr(build, "run_tool", no_compiler)
    assert build_bot(data / "bots" / "walker.c", cache, name="other name") == first
    changed = tmp_path / "walker.c"
    changed.write_bytes((data / "bots" / "walker.c").read_bytes() + b"\n")
    with pytest.raises(AssertionError, match="compiler ran"):
        build_bot(changed, cache, name="walker")


def test_a_broken_c_bot_is_one_block_naming_the_line(data: Path, cache: Path) -> None:
    with pytest.raises(BuildError) as error:
        build_bot(data / "bots" / "broken.c", cache, name="broken")
    lines = str(error.value).splitlines()
    assert lines[0] == (
        f"bot 'broken' did not build: C source {data / 'bots' / 'broken.c'} (exit status 1)"
    )
    assert lines[1].startswith("  $ ") and "gcc" in lines[1]
    assert any(line.startswith("  broken.c:5:") and "error" in line for line in lines)
    assert not [p for p in cache.iterdir() if p.name.startswith(".build-")]


def test_a_python_syntax_error_names_the_line(tmp_path: Path, cache: Path) -> None:
    source = tmp_path / "bad.py"
    source.write_text("print('T')\nif True\n    print('F')\n")
    with pytest.raises(BuildError) as error:
        build_bot(source, cache, name="bad")
    text = str(error.value)
    assert text.startswith(f"bot 'bad' did not build: Python source {source}")
    assert "line 2" in text and "SyntaxError" in text


def test_an_unknown_extension_is_refused(tmp_path: Path, cache: Path) -> None:
    with pytest.raises(
        BuildError,
        match=r"cannot build a \.pas file \(known extensions: "
        r"\.c, \.cc, \.cpp, \.go, \.java, \.py, \.rs\)",
    ):
        build_bot(tmp_path / "bot.pas", cache, name="pascal")


def test_a_missing_toolchain_names_the_package_when_not_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "bot.rs"
    source.write_text("fn main() {}\n")
    monkeypatch.setattr(build.shutil, "which", lambda name: None)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(BuildError) as error:
        build_bot(source, tmp_path / "cache", name="crab")
    assert str(error.value) == (
        f"bot 'crab' did not build: Rust source {source}\n"
        "  rustc not found: install the Debian package rustc (apt-get install rustc)"
    )


def test_a_tool_past_its_time_is_stopped_with_its_children(tmp_path: Path) -> None:
    # A process bot has played in this process (walker tests): it is a child subreaper, so
    # the orphaned `sleep` is our child and must be reaped, not left a zombie.
    marker = tmp_path / "tool-marker"
    status, output = run_tool(
        ["sh", "-c", f"echo started; {SLEEPER} {marker} & wait"], tmp_path, timeout=0.5
    )
    assert (status, output) == (None, "started\n")
    assert leftovers(marker) == []


def test_a_tool_that_ends_leaves_nothing_behind(tmp_path: Path) -> None:
    marker = tmp_path / "tool-marker"
    status, output = run_tool(
        ["sh", "-c", f"{SLEEPER} {marker} >/dev/null 2>&1 & echo done"], tmp_path, timeout=60
    )
    assert (status, output) == (0, "done\n")
    assert leftovers(marker) == []
