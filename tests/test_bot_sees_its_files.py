"""A bot sees its own files only (#25): with the README's layout (`--bot mine=./mybot` in
the tournament folder, beside the store, the replays, the build cache and another bot), the
bot is shown its own file alone, never the folder; a folder a bot's command names (`-cp .`)
is shown with the jury's files in it covered."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

import botarena
from botarena.core import sandbox
from conftest import debian_program
from hostile_bots import HARNESS, SPY_BODY

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bwrap() -> str:
    return debian_program("bwrap", "bubblewrap")


def tournament_folder(tmp_path: Path) -> dict[str, Path]:
    """The README's layout: the store, replays, the build cache and another bot."""
    files = {
        "store": tmp_path / "botarena.db",
        "replay": tmp_path / "replays" / "g.json.gz",
        "built": tmp_path / ".botarena-build" / "python-0" / "theirs.py",
        "other": tmp_path / "theirs.py",
    }
    for what, path in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"the {what}")
    return files


def test_a_bot_in_the_tournament_folder_sees_only_itself(
    bwrap: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    files = tournament_folder(tmp_path)
    header = (
        f"SECRETS = {[str(path) for path in files.values()]!r}\nPORT = 1\n"
        f"TOKEN = 'breach-token'\nWRITE_TO = [{str(tmp_path)!r}]\n"
    )
    mine = tmp_path / "mybot"
    mine.write_text(f"#!{sys.executable}\n{HARNESS}\n{header}{SPY_BODY}\n")
    mine.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    result = botarena.play("amazes", ["./mybot amazes", "builtin:amazes/random"], seed=3, turns=6)
    assert result.players[0].status == "ok", result.to_dict()["players"]
    assert "breach" not in json.dumps(result.to_dict())
    assert not (tmp_path / "breach-token").exists()
    assert (
        f"botarena: note: {tmp_path} also holds the jury's files (store, replays, build"
        " cache): its bots see only the files their command names, not the folder"
        in caplog.messages
    )


def test_a_named_folder_is_shown_without_the_jury_files(bwrap: str, tmp_path: Path) -> None:
    files = tournament_folder(tmp_path)
    (tmp_path / "Bot.class").write_text("the bot's own")
    listing = sandbox.run(
        [
            "sh",
            "-c",
            f"ls -A {shlex.quote(str(tmp_path))}; cat"
            f" {' '.join(shlex.quote(str(p)) for p in files.values())}",
        ],
        cwd=str(tmp_path),
    ).stdout.decode()
    assert "the bot's own" not in listing  # cat was not asked; it lists the name only
    assert "Bot.class" in listing and "theirs.py" in listing
    for what in ("store", "replay", "built"):
        assert f"the {what}" not in listing
    assert os.path.exists(files["store"])  # untouched outside


@pytest.mark.skipif(os.geteuid() != 0, reason="the jury warns of modes only as root")
def test_a_bot_file_shown_alone_is_warned_of_only_when_its_user_cannot_read_it(
    bwrap: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A 0644 script beside the jury's files is readable by the bots' user: no warning (one
    said it was not, asking for o+rx, as for a folder). A 0600 one is, and its bot fails."""
    tournament_folder(tmp_path)
    script = (
        "import sys\nfor line in sys.stdin:\n"
        "    if line.startswith(('ready', 'go')):\n        print('go', flush=True)\n"
    )  # an Ants bot that gives no orders
    for name, mode in (("open.py", 0o644), ("closed.py", 0o600)):
        (tmp_path / name).write_text(script)
        (tmp_path / name).chmod(mode)
    monkeypatch.chdir(tmp_path)
    bots = [f"{shlex.quote(sys.executable)} open.py", f"{shlex.quote(sys.executable)} closed.py"]
    result = botarena.play("ants", bots, seed=3, map="ants:tutorial1", turns=2)
    assert [player.status for player in result.players] == ["ok", "crashed"]
    warnings = [message for message in caplog.messages if "not readable" in message]
    assert warnings == [
        f"botarena: WARNING: {tmp_path / 'closed.py'} is not readable by the bots' user"
        f" ({sandbox.BOT_UID}): its bot cannot read it (chmod o+r)"
    ]
