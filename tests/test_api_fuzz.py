"""The API fuzzer: schemathesis against a live `arena serve` (its own OpenAPI document at
/api/openapi.json), as a contestant and as the organiser, stateful links included (sign up
-> its token -> my bots, an upload -> its bot, my games -> a game and its replay). No
answer may be a 5xx, and every answer must match its documented status, type and shape."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena_helpers import PASSWORD, call_live, good_bot, new_contest, upload_live

pytest.importorskip("schemathesis", reason="the API fuzzer (the test extras)")

CHECKS = ",".join(
    (
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
        "response_headers_conformance",
    )
)
FUZZ_SECONDS = "10"
"""Each of the two runs' time budget (the slow tier's share; raise it to look harder)."""


def _fuzz(url: str, token: str, seed: int, folder: Path) -> subprocess.CompletedProcess[str]:
    """One schemathesis run, in `folder`: it keeps a cache of crashes in its working folder
    (`.schemathesis/`), which must not land in the repository."""
    st = shutil.which("st", path=str(Path(sys.executable).parent))
    assert st, "schemathesis's `st` beside this Python"
    return subprocess.run(
        [
            st,
            "run",
            url + "api/openapi.json",
            "--header",
            f"Authorization: Bearer {token}",
            "--checks",
            CHECKS,
            "--phases",
            "coverage,fuzzing,stateful",
            "--max-time",
            FUZZ_SECONDS,
            "--workers",
            "1",
            "--seed",
            str(seed),
            "--max-failures",
            "20",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=int(FUZZ_SECONDS) * 4 + 60,
    )


@pytest.mark.slow
def test_no_answer_of_a_live_site_is_a_server_error_or_off_its_schema(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cup.db'}"
    new_contest(db, tmp_path)
    serve = subprocess.Popen(
        [sys.executable, "-m", "botarena", "arena", "serve", "cup", "--db", db, "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert serve.stdout is not None
        first = serve.stdout.readline()
        url = first.split()[2]
        assert url.startswith("http://127.0.0.1:"), first
        alice = call_live(url, "/api/register", {"user": "alice", "password": "password-1"})[
            "token"
        ]
        assert upload_live(url, alice, "bot.py", good_bot().encode()) == 202
        deadline = time.monotonic() + 120  # a bot that plays, so games and replays exist
        while call_live(url, "/api/bots/alice", token=alice)["games"] < 1:
            assert time.monotonic() < deadline, "alice's bot never played"
            time.sleep(0.5)
        admin = call_live(url, "/api/login", {"user": "admin", "password": PASSWORD})["token"]
        runs = {
            "a contestant": _fuzz(url, alice, 1, tmp_path),
            "the organiser": _fuzz(url, admin, 2, tmp_path),
        }
    finally:
        serve.send_signal(signal.SIGINT)
        _, stderr = serve.communicate(timeout=60)
    for who, run in runs.items():
        assert run.returncode == 0, f"as {who}:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}"
    assert "Traceback" not in stderr, stderr[-4000:]
