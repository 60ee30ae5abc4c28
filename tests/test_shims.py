"""A bot command through an interpreter shim (pyenv, asdf): `python3 bot.py` with a shim
first on the PATH runs the real interpreter in the sandbox, or is refused in one line (#38).
The shims here are fakes made as pyenv's are: a script that runs a manager outside what the
sandbox shows, which runs the real program."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import botarena
from botarena.core import shims
from botarena.core.starters import source

MANAGER = '#!/bin/sh\n# a version manager: "exec PROGRAM ARGS"\nshift\nexec "$@"\n'
SHIM = '#!/bin/sh\nset -e\nprogram="${{0##*/}}"\nexec "{manager}" exec {real} "$@"\n'


def fake_manager(folder: Path, name: str, real: str) -> Path:
    """`folder/shims/NAME`, a shim running `folder/libexec/fakeenv exec REAL ...`."""
    for sub in ("shims", "libexec"):
        (folder / sub).mkdir(exist_ok=True)
        (folder / sub).chmod(0o755)
    manager = folder / "libexec" / "fakeenv"
    manager.write_text(MANAGER)
    manager.chmod(0o755)
    shim = folder / "shims" / name
    shim.write_text(SHIM.format(manager=manager, real=real))
    shim.chmod(0o755)
    return shim


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake pyenv whose python3 shim is first on the PATH."""
    fake_manager(tmp_path, "python3", sys.executable)
    fake_manager(tmp_path, "ruby", "/usr/bin/ruby")
    monkeypatch.setenv("PATH", f"{tmp_path / 'shims'}{os.pathsep}{os.environ['PATH']}")
    shims.resolve.cache_clear()
    yield tmp_path
    shims.resolve.cache_clear()


def test_a_python_shim_resolves_to_the_real_interpreter(on_path: Path) -> None:
    found = shims.resolve(str(on_path / "shims" / "python3"))
    assert found is not None and found.program == sys.executable
    assert str(Path(sys.prefix).resolve()) in found.folders
    assert shims.resolve(sys.executable) is None  # no shim


@pytest.mark.slow
def test_the_readme_s_python3_bot_plays_through_a_shim(on_path: Path) -> None:
    (on_path / "mine").mkdir(mode=0o755)  # the bot's folder, shown to it: not the manager's
    bot = on_path / "mine" / "bot.py"
    bot.write_text(source("amazes", "bot", "python"))
    result = botarena.play("amazes", [f"python3 {bot}", "builtin:amazes/random"], seed=1, turns=5)
    assert result.players[0].status == "ok", result.stderr[0]


def test_a_shim_it_cannot_resolve_is_refused_before_the_game(on_path: Path) -> None:
    shim = on_path / "shims" / "ruby"
    with pytest.raises(shims.ShimError) as refused:
        botarena.play("amazes", ["ruby bot.rb", "builtin:amazes/random"], seed=1)
    assert str(refused.value) == (
        f"{shim} is an interpreter shim (it runs {on_path / 'libexec' / 'fakeenv'}, which the"
        " sandbox does not show): name the real program in the bot command (pyenv which,"
        " asdf which, or type -a give it)"
    )


def test_doctor_says_when_python3_on_the_path_is_a_shim(on_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "botarena", "doctor"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "300"},
    )
    assert run.returncode == 0, run.stderr
    assert (
        f"python3 on the PATH is an interpreter shim ({on_path / 'shims' / 'python3'}): bot"
        f" commands naming python3 run {sys.executable}"
    ) in " ".join(run.stdout.split())
