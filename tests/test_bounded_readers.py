"""Every reader of the jury's own inputs (maps, replays, Bookmaker files, posts) is bounded:
/dev/zero, /dev/urandom, a gzip bomb, an oversized file, deep nesting and a folder each end
in one line naming the file, without using more memory than the documented cap."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

from botarena.core import reader
from botarena.core.rules import GameError
from botarena.core.spec import BotSpecError
from testdata import AMAZES_MAZES

# reader name -> (the call, as Python source taking `path`, its cap in MiB, reads gzip)
READERS = {
    "amazes maze": ("from botarena.games.amazes.maze import load_maze as read", 1, False),
    "ants map": ("from botarena.games.ants.mapfile import load_map as read", 4, False),
    "falldown bookmaker": (
        "from botarena.games.falldown.bookmaker import read_bookmaker as read",
        16,
        False,
    ),
    "labyrinth post": ("from botarena.games.labyrinth.post import load_post as read", 1, False),
    "replay": ("from botarena.core.replay import load as read", 256, True),
    "ants 2011 replay": ("from botarena.games.ants.replay2011 import read_2011 as read", 256, True),
}
JSON_READERS = ("falldown bookmaker", "replay", "ants 2011 replay")

# Runs one reader on one file in a fresh interpreter and prints the peak memory it added
# (KiB) and the one-line error, so no test's memory depends on another's.
PROBE = """
import resource, sys
{importer}
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    read(sys.argv[1])
    message = "read without error"
except Exception as exc:
    message = f"{{exc.__class__.__name__}}: {{exc}}"
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(after - before)
print(message)
"""


def probe(name: str, path: str) -> tuple[int, str]:
    """(peak memory added in MiB, the error line) of reader `name` on `path`."""
    importer = READERS[name][0]
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(importer=importer), path],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    added, message = done.stdout.splitlines()
    return int(added) // 1024, message


@pytest.mark.parametrize("name", sorted(READERS))
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_after_a_small_read(name: str, device: str) -> None:
    added, message = probe(name, device)
    assert message.endswith(
        f"{device}: not a regular file, and it gives more than 1 MiB;"
        f" save the {_noun(name)} to a file first"
    )
    assert added <= 8


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(READERS))
def test_a_file_over_the_cap_is_refused_naming_the_limit(name: str, tmp_path: Path) -> None:
    cap = READERS[name][1]
    big = tmp_path / "big"
    with big.open("wb") as out:
        out.truncate((cap << 20) + 1)  # sparse: no disk used
    added, message = probe(name, str(big))
    assert message.endswith(
        f"{big}: the {_noun(name)} is larger than {cap} MiB; set"
        " BOTARENA_MAX_READ_MB to read larger files (docs/limits.md)"
    )
    assert added <= cap + 8


@pytest.mark.slow
@pytest.mark.parametrize("name", [name for name in sorted(READERS) if READERS[name][2]])
def test_a_gzip_bomb_stops_at_the_inflated_cap(name: str, tmp_path: Path) -> None:
    cap = READERS[name][1]
    bomb = tmp_path / "bomb.gz"
    with bomb.open("wb") as out, gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as packed:
        block = b"[" * (1 << 20)
        for _ in range(cap + 64):  # 1 MiB of gzip per 1 GiB or so: inflates past the cap
            packed.write(block)
    assert bomb.stat().st_size < (1 << 20)
    added, message = probe(name, str(bomb))
    assert message.endswith(
        f"{bomb}: the {_noun(name)} inflates to more than {cap} MiB;"
        " set BOTARENA_MAX_READ_MB to read larger files (docs/limits.md)"
    )
    assert added <= cap + 32  # the inflated bytes, held once


@pytest.mark.parametrize("name", JSON_READERS)
def test_deep_nesting_is_refused(name: str, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"a":' * 100_000 + "1" + "}" * 100_000)
    _, message = probe(name, str(deep))
    assert message.endswith(
        f"{deep}: the {_noun(name)} nests arrays or objects more than {reader.MAX_NESTING} deep"
    )


@pytest.mark.parametrize("name", sorted(READERS))
def test_a_folder_is_named_as_a_folder(name: str, tmp_path: Path) -> None:
    _, message = probe(name, str(tmp_path))
    assert message.endswith(f"{tmp_path}: is a folder, not a {_noun(name)}")


def test_the_limit_can_be_raised_but_not_lowered(monkeypatch, tmp_path: Path) -> None:
    big = tmp_path / "big.map"
    big.write_bytes(b"x" * ((4 << 20) + 1))
    with pytest.raises(GameError, match="larger than 4 MiB"):
        reader.read_bytes(big, reader.MAP)
    monkeypatch.setenv("BOTARENA_MAX_READ_MB", "5")
    assert len(reader.read_bytes(big, reader.MAP)) == (4 << 20) + 1
    monkeypatch.setenv("BOTARENA_MAX_READ_MB", "1")
    with pytest.raises(GameError, match="larger than 4 MiB"):
        reader.read_bytes(big, reader.MAP)
    monkeypatch.setenv("BOTARENA_MAX_READ_MB", "lots")
    with pytest.raises(GameError, match="BOTARENA_MAX_READ_MB='lots' is not a whole number"):
        reader.read_bytes(big, reader.MAP)


def test_a_fifo_with_a_small_map_is_read(tmp_path: Path) -> None:
    """Process substitution (`--map <(generate)`) hands over a pipe: small ones are read."""
    text = "rows 2\ncols 2\n"
    fifo = tmp_path / "map.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["bash", "-c", f"printf {text!r} > {fifo}"])
    assert reader.read_text(fifo, reader.MAP) == text
    writer.wait(timeout=30)


def test_maps_may_start_with_a_byte_order_mark(tmp_path: Path, data: Path) -> None:
    from botarena.games.amazes.maze import load_maze

    official = sorted(AMAZES_MAZES.glob("*.txt"))[0]
    marked = tmp_path / "bom.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + official.read_bytes())
    assert load_maze(marked).walls == load_maze(official).walls


def test_a_post_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    from botarena.games.labyrinth.post import load_post

    post = tmp_path / "post.md"
    post.write_bytes(b"# title\n\nok\n\xff\xfe\n")
    with pytest.raises(BotSpecError, match=r"post.md: the post is not UTF-8 text \(line 4,"):
        load_post(str(post))


def _noun(name: str) -> str:
    return {
        "amazes maze": "maze file",
        "ants map": "map file",
        "falldown bookmaker": "Bookmaker file",
        "labyrinth post": "post",
    }.get(name, "replay")
