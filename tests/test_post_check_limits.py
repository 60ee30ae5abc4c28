"""`labyrinth check-post` caps Node: a post whose body loops forever or allocates without end
is reported in one line, within the documented time and heap (post.CHECK_TIME_S,
post.CHECK_HEAP_MIB), never with V8's heap dump."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from botarena.cli import app
from botarena.games.labyrinth import post
from conftest import debian_program


@pytest.fixture(autouse=True)
def node() -> str:
    return debian_program("node", "nodejs")


def check(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["labyrinth", "check-post", str(path)])
    return result.exit_code, result.stdout


@pytest.mark.slow
def test_a_body_that_loops_forever_is_stopped_at_the_time_cap(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(post, "CHECK_TIME_S", 1.5)
    path = tmp_path / "loop.md"
    path.write_text("# Adventurers: loop\n\n```js\nwhile (true) {}\nreturn {};\n```\n")
    assert check(path) == (1, f"{path}: building the bot took more than 1.5 s (an endless loop?)\n")


@pytest.mark.slow
def test_a_body_that_allocates_without_end_is_stopped_at_the_heap_cap(tmp_path: Path) -> None:
    path = tmp_path / "hog.md"
    path.write_text(
        "# Adventurers: hog\n\n```js\nconst a = [];\n"
        "while (true) a.push(new Array(100000).fill(1));\nreturn {};\n```\n"
    )
    assert check(path) == (1, f"{path}: building the bot used more than 256 MiB of memory\n")
