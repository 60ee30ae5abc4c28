"""A Labyrinth post that escapes Node's `vm` realm changes nothing outside its sandbox (#25):
`play`, `labyrinth scrape` and `labyrinth check-post` run every post's JavaScript in the
bots' sandbox (docs/sandbox.md), so the published escapes (a `util.inspect.custom` hook
handed Node's `inspect`, `this.constructor.constructor`, `Error.prepareStackTrace`, getter
and Proxy traps on objects passed in) reach at most a process that can write nowhere."""

from __future__ import annotations

import html
import json
import os
from pathlib import Path

import pytest

import botarena
from botarena.games.labyrinth.answers import read_source
from botarena.games.labyrinth.post import check_post
from botarena.games.labyrinth.scrape import scrape
from conftest import debian_program

pytestmark = pytest.mark.slow

ESCAPES = r"""
const MARKERS = %s;
function pwn(process) {
    for (const marker of MARKERS) {
        try { process.mainModule.require("fs").writeFileSync(marker, "escaped"); } catch (e) {}
        try { process.binding("fs"); } catch (e) {}
    }
}
function via(fn) { try { const p = fn(); if (p && p.pid) pwn(p); } catch (e) {} }
via(() => this.constructor.constructor("return process")());
via(() => ({}).constructor.constructor("return process")());
const hook = {};
hook[Symbol.for("nodejs.util.inspect.custom")] = (depth, options, inspect) => {
    via(() => inspect.constructor("return process")());
    via(() => options.stylize.constructor("return process")());
    return "hook";
};
try { console.log(hook); } catch (e) {}
try { console.log(new Proxy({}, {get: (t, k, r) => { via(() => r.constructor.constructor(
    "return process")()); return undefined; }})); } catch (e) {}
Error.prepareStackTrace = (error, frames) => {
    for (const frame of frames) {
        via(() => frame.getThis().constructor.constructor("return process")());
        via(() => frame.getFunction().constructor("return process")());
    }
    return "";
};
try { null.x; } catch (e) { e.stack; }
function trap(value) {
    if (value && typeof value === "object") {
        via(() => value.constructor.constructor("return process")());
        via(() => Object.getPrototypeOf(value).constructor.constructor("return process")());
    }
}
return {
    startRound(n) { trap(arguments); },
    takeTurn(views) { trap(views); trap(views && views[0]); return [1, 1]; },
};"""


@pytest.fixture(scope="module", autouse=True)
def tools() -> None:
    debian_program("node", "nodejs")
    debian_program("bwrap", "bubblewrap")


def markers(tmp_path: Path) -> list[Path]:
    """Places an escaped post would write to: the test's folder, /var/tmp, the jury's
    working folder (outside its sandbox's private /tmp)."""
    token = f"botarena-escape-{os.getpid()}-{tmp_path.name}"
    return [tmp_path / token, Path("/var/tmp") / token, Path.cwd() / token]


def code(tmp_path: Path) -> str:
    return ESCAPES % json.dumps([str(path) for path in markers(tmp_path)])


def post_file(tmp_path: Path) -> Path:
    body = "\n".join("    " + line for line in code(tmp_path).strip("\n").split("\n"))
    path = tmp_path / "escape.md"
    path.write_text(f"# Adventurers: Escape\n\nTries every way out.\n\n{body}\n")
    return path


def assert_nothing_written(tmp_path: Path) -> None:
    written = [str(path) for path in markers(tmp_path) if path.exists()]
    for path in written:
        Path(path).unlink()
    assert written == []


def test_check_post(tmp_path: Path) -> None:
    ok, message = check_post(str(post_file(tmp_path)))
    assert ok, message
    assert_nothing_written(tmp_path)


def test_play(tmp_path: Path) -> None:
    result = botarena.play(
        "labyrinth",
        [f"post:{post_file(tmp_path)}", "builtin:labyrinth/static"],
        seed=3,
        max_rounds=1,
    )
    assert result.players[0].status in ("ok", "strike")
    assert_nothing_written(tmp_path)


def test_scrape(tmp_path: Path) -> None:
    body = (
        f"<h1>Adventurers: Escape</h1>\n<p>Tries every way out.</p>\n"
        f"<pre><code>{html.escape(code(tmp_path).strip(chr(10)))}\n</code></pre>\n"
    )
    page = tmp_path / "page.json"
    page.write_text(
        json.dumps({"items": [{"answer_id": 7, "body": body, "owner": {"display_name": "x"}}]})
    )
    report = scrape(read_source(page), tmp_path / "posts")
    assert [(v.answer_id, v.kept) for v in report.verdicts] == [(7, True)]
    assert_nothing_written(tmp_path)
