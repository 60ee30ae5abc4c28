"""A throwaway PostgreSQL server on loopback (Debian's), for the tests and the benches."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def bindir() -> Path | None:
    """The folder of Debian's newest PostgreSQL programs (None: not installed)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


@contextmanager
def running() -> Iterator[str]:
    """`initdb` in a temporary folder, a free port on 127.0.0.1, run as the `postgres` user
    when run as root (initdb refuses root); yields its URL without a database, and stops
    and removes it after."""
    programs = bindir()
    if programs is None:
        raise FileNotFoundError("PostgreSQL's initdb is missing: apt-get install postgresql")
    folder = Path(tempfile.mkdtemp(prefix="botarena-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = str(folder / "data")
    initdb = [str(programs / "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]
    subprocess.run([*as_user, *initdb], check=True, capture_output=True)
    postgres = [str(programs / "postgres"), "-D", data, "-p", str(port), "-h", "127.0.0.1"]
    server = subprocess.Popen(
        [*as_user, *postgres, "-k", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
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
