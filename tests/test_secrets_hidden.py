"""The machine's secrets out of a sandboxed program's reach: bots and builds run as an
unprivileged user with a minimal /etc (docs/sandbox.md), so neither a bot nor a compiler
reads /etc/shadow, /etc/gshadow, /root or the jury's files, even with the jury as root."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path

import pytest

from botarena.core import sandbox
from botarena.tournament.build import BuildError, build_bot
from conftest import debian_program

pytestmark = pytest.mark.slow

SECRETS = ("/etc/shadow", "/etc/gshadow")


@pytest.fixture(scope="module")
def bwrap() -> str:
    return debian_program("bwrap", "bubblewrap")


def secret_lines() -> list[str]:
    """The lines of the secret files this test can read (as root: all of them)."""
    lines = []
    for path in SECRETS:
        with contextlib.suppress(OSError):
            lines += [line for line in Path(path).read_text().splitlines() if line.strip()]
    return lines


PEEK = r"""
import os, sys
for path in sys.stdin.read().split():
    try:
        if os.path.isdir(path):
            print(path, os.listdir(path))
        else:
            print(path, open(path).read())
    except OSError as exc:
        print(path, "refused:", type(exc).__name__)
print("uid", os.getuid(), os.getgid(), os.getgroups())
"""


def test_a_sandboxed_program_reads_no_secret(bwrap: str, tmp_path: Path) -> None:
    store = tmp_path / "jury"
    store.mkdir()
    (store / "botarena.db").write_text("the jury's store")
    (store / "botarena.db").chmod(0o600)
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "peek.py").write_text(PEEK)
    targets = [
        *SECRETS,
        "/root/.bashrc",
        "/root/.ssh",
        "/etc/ssh",
        "/etc/sudoers",
        str(store / "botarena.db"),
    ]
    done = sandbox.run(
        [sys.executable, str(bot / "peek.py")], cwd=str(bot), input=" ".join(targets).encode()
    )  # not named: not bound
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    for line in secret_lines():
        assert line not in out
    assert "the jury's store" not in out
    for target in targets:
        assert f"{target} refused:" in out
    if os.geteuid() == 0:
        assert f"uid {sandbox.BOT_UID} {sandbox.BOT_GID} []" in out


def test_the_sandbox_etc_holds_no_secret_and_a_minimal_passwd(bwrap: str) -> None:
    done = sandbox.run(["sh", "-c", "ls -A /etc; echo ---; cat /etc/passwd /etc/group"], cwd="/")
    listing, _, users = done.stdout.decode().partition("---\n")
    names = set(listing.split())
    assert not names & {
        "shadow",
        "gshadow",
        "shadow-",
        "gshadow-",
        "ssh",
        "sudoers",
        "subuid",
        "subgid",
        "machine-id",
    }
    assert {"passwd", "group", "ld.so.cache"} <= names
    uid, gid = sandbox.bot_user()
    assert users.splitlines() == [
        "root:x:0:0:root:/tmp:/usr/sbin/nologin",
        f"nobody:x:{uid}:{gid}:nobody:/tmp:/usr/sbin/nologin"
        if uid == sandbox.BOT_UID
        else f"bot:x:{uid}:{gid}:bot:/tmp:/usr/sbin/nologin",
        "root:x:0:",
        "nogroup:x:65534:" if gid == sandbox.BOT_GID else f"bot:x:{gid}:",
    ]


SOURCES = {
    "c": '#include "/etc/shadow"\nint main(void) { return 0; }\n',
    "rs": 'const S: &str = include_str!("/etc/shadow");\nfn main() { println!("{}", S); }\n',
}


@pytest.mark.parametrize("ext", list(SOURCES))
def test_a_build_including_a_secret_fails_without_quoting_it(
    ext: str, bwrap: str, tmp_path: Path
) -> None:
    compiler = {"c": "gcc", "rs": "rustc"}[ext]
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed")
    source = tmp_path / f"thief.{ext}"
    source.write_text(SOURCES[ext])
    with pytest.raises(BuildError) as error:
        build_bot(source, tmp_path / "cache", name="thief")
    text = str(error.value)
    assert text.startswith(
        f"bot 'thief' did not build: {'C' if ext == 'c' else 'Rust'}"
        f" source {source} (exit status 1)"
    )
    assert "/etc/shadow" in text  # the compiler says it found no such file
    for line in secret_lines():
        assert line not in text
