"""The renderer contract is a typed interface (web/static/botarena.d.ts), and TypeScript's
checker holds the worked example's renderer and the generic one to it (#38)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
CONTRACT = ROOT / "src/botarena/web/static/botarena.d.ts"
RENDERERS = [
    ROOT / "examples/connect4/botarena_connect4/renderer.js",
    ROOT / "src/botarena/web/static/generic.js",
]
TYPESCRIPT = "typescript@5.4.5"
"""The checker CI installs when tsc is missing (.ci/run)."""


def tsc(*files: Path) -> subprocess.CompletedProcess[str]:
    program = shutil.which("tsc")
    if program is None or shutil.which("node") is None:
        pytest.skip(f"tsc or node is missing: npm install {TYPESCRIPT} (as .ci/run does)")
    return subprocess.run(
        [
            program,
            "--noEmit",
            "--allowJs",
            "--checkJs",
            "--target",
            "es2020",
            "--lib",
            "es2020,dom",
            str(CONTRACT),
            *map(str, files),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_the_renderers_keep_the_typed_contract() -> None:
    checked = tsc(*RENDERERS)
    assert checked.returncode == 0, checked.stdout


@pytest.mark.slow
def test_a_renderer_that_breaks_the_contract_is_caught(tmp_path: Path) -> None:
    text = RENDERERS[0].read_text().replace("stepsPerSecond: 2,", 'stepsPerSecond: "2",')
    broken = tmp_path / "renderer.js"
    broken.write_text(text)
    checked = tsc(broken)
    assert checked.returncode != 0
    assert "error TS2322: Type 'string' is not assignable to type 'number'." in checked.stdout
