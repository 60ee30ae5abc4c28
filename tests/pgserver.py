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


class Server:
    """A PostgreSQL server in its own temporary folder on a free port of 127.0.0.1, run as
    the `postgres` user when run as root (initdb refuses root); it can be stopped and
    started again on the same port and data (a restart the store must survive)."""

    def __init__(self) -> None:
        programs = bindir()
        if programs is None:
            raise FileNotFoundError("PostgreSQL's initdb is missing: apt-get install postgresql")
        self.programs = programs
        self.folder = Path(tempfile.mkdtemp(prefix="botarena-pg-"))
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.data = str(self.folder / "data")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        initdb = [str(programs / "initdb"), "-D", self.data, "-U", "postgres", "--auth=trust"]
        subprocess.run([*self.as_user, *initdb, "-E", "UTF8"], check=True, capture_output=True)

    def start(self) -> None:
        """Start the server and wait (at most 30 s) until it takes connections (pg_isready: not
        only its port open, its recovery done)."""
        postgres = [str(self.programs / "postgres"), "-D", self.data, "-p", str(self.port)]
        self.process = subprocess.Popen(
            [*self.as_user, *postgres, "-h", "127.0.0.1", "-k", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        ready = [str(self.programs / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)]
        for _ in range(300):
            if subprocess.run(ready, check=False).returncode == 0:
                return
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop the server (a fast shutdown: open connections are ended) and wait for it."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=60)
            self.process = None

    def remove(self) -> None:
        """Stop the server and remove its folder."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def running() -> Iterator[str]:
    """A started `Server`; yields its URL without a database, and stops and removes it
    after."""
    server = Server()
    try:
        server.start()
        yield server.url
    finally:
        server.remove()
