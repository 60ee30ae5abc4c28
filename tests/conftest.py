"""Test fixtures: the repository's data folder, and system tools the tests need."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from testdata import DATA


def ensure_debian_package(program: str, package: str) -> str:
    """The path of `program`, installing Debian's `package` first if it is missing."""
    path = shutil.which(program)
    if path is None:
        subprocess.run(["apt-get", "update", "-qq"], check=True, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True,
                       capture_output=True)
        path = shutil.which(program)
    assert path is not None, f"{program} is still missing after installing {package}"
    return path


def leftovers(marker: str | Path) -> list[str]:
    """Processes still alive whose command line names `marker`, and zombie children of this
    process (a zombie has no command line): what a finished game must not leave behind."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        state, parent = stat[stat.rfind(")") + 2:].split()[:2]
        if str(marker).encode() in cmdline or (state == "Z" and int(parent) == os.getpid()):
            found.append(f"{entry}: {cmdline!r} {state}")
    return found


@pytest.fixture(scope="session")
def data() -> Path:
    """The test data folder inside the repository (tests/data, see its README)."""
    return DATA


@pytest.fixture(scope="session")
def cc() -> str:
    """A C compiler, installed from Debian when missing."""
    return ensure_debian_package("gcc", "gcc")
