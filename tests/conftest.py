"""Test fixtures: the repository's data folder, and system tools the tests need."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
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


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A real PostgreSQL server for this test session (Debian's, installed when missing):
    `initdb` in a temporary folder, a free port on 127.0.0.1, run as the `postgres` user
    when the tests run as root (initdb refuses root); yields its URL without a database."""
    import glob
    import socket
    import tempfile
    import time

    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        ensure_debian_package("pg_ctlcluster", "postgresql")
    bindir = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))[-1]).parent
    folder = Path(tempfile.mkdtemp(prefix="botarena-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    subprocess.run([*as_user, str(bindir / "initdb"), "-D", str(folder / "data"), "-U",
                    "postgres", "--auth=trust", "-E", "UTF8"], check=True, capture_output=True)
    server = subprocess.Popen([*as_user, str(bindir / "postgres"), "-D", str(folder / "data"),
                               "-p", str(port), "-h", "127.0.0.1", "-k", str(folder)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, driven by Playwright (tests/browser.py), installed from
    Debian when missing (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    from browser import launch

    ensure_debian_package("chromium", "chromium")
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def cgroups_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
                    ) -> Iterator[str]:
    """BOTARENA_CGROUPS set to the test's parameter (v1, v2 or off; none: the machine's
    choice), the cached choice cleared around the test."""
    from botarena.core import cgroups

    choice = getattr(request, "param", "")
    if choice:
        monkeypatch.setenv(cgroups.CHOICE, choice)
    cgroups.available.cache_clear()
    yield choice
    cgroups.available.cache_clear()


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """pytest's tmp_path, readable by the sandbox's user (nobody, when the tests run as
    root): pytest makes it 0700, and a bot in it could not read its own files."""
    tmp_path.chmod(0o755)
    return tmp_path
