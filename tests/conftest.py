"""Shared test fixtures: where the shared data lives, and system tools the tests need."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


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


@pytest.fixture(scope="session")
def shared() -> Path:
    """The shared data folder (rules, maps, golden recordings) beside the repository."""
    assert SHARED.is_dir(), f"the shared folder is missing: {SHARED}"
    return SHARED


@pytest.fixture(scope="session")
def cc() -> str:
    """A C compiler, installed from Debian when missing."""
    return ensure_debian_package("gcc", "gcc")
