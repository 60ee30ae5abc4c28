"""The tutorial is the game: docs/new-game.md's code blocks, assembled, are examples/connect4's
files, and installed in a fresh virtualenv the game keeps the contract (`check_game`), so
the page cannot drift from the platform (#38)."""

from __future__ import annotations

import re
import site
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGE = ROOT / "docs/new-game.md"
EXAMPLE = ROOT / "examples/connect4"
BLOCK = re.compile(r"^```(?:python|toml)\n# (\S+\.(?:py|toml))\n(.*?)^```$", re.S | re.M)


def tutorial_files() -> dict[str, str]:
    """Each file the page shows whole: the block's first line names it."""
    return {path: text for path, text in BLOCK.findall(PAGE.read_text())}


def test_the_page_shows_every_file_of_the_example_as_it_is() -> None:
    files = tutorial_files()
    shipped = {
        str(path.relative_to(EXAMPLE)): path.read_text()
        for path in EXAMPLE.rglob("*")
        if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts
    }
    assert files == shipped


@pytest.mark.slow
def test_the_tutorial_s_game_installs_and_keeps_the_contract(tmp_path: Path) -> None:
    game = tmp_path / "connect4"
    for path, text in tutorial_files().items():
        (game / path).parent.mkdir(parents=True, exist_ok=True)
        (game / path).write_text(text)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    inner = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # botarena, its dependencies and pip come from this environment (no network, no time),
    # after the game's own (.pth files are read in name order): not the example's copy
    outer = [folder for folder in site.getsitepackages() if Path(folder).is_dir()]
    lines = [f"import site; site.addsitedir({folder!r})" for folder in outer]
    (Path(inner) / "zz_botarena_from_tests.pth").write_text("\n".join(lines) + "\n")
    install = [str(python), "-m", "pip", "install", "-q", "--no-deps", "-e", str(game)]
    done = subprocess.run(install, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    check = (
        "import botarena_connect4, sys\n"
        f"assert botarena_connect4.__file__.startswith({str(game)!r}), botarena_connect4.__file__\n"
        "from botarena.testing import check_game\n"
        "check_game('connect4', seeds=range(2))\n"
    )
    done = subprocess.run(
        [str(python), "-c", check], capture_output=True, text=True, timeout=600, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
