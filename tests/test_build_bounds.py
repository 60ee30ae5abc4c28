"""Builds bounded and blind to links (#25): a source that links out of its folder is refused
unread, a source over the size limit is refused, a name like `-o.c` is never an option, and a
compiler's flood of output is cut at OUTPUT_CAP_BYTES, saying so."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from botarena.tournament import build
from botarena.tournament.build import BuildError, build_bot, run_tool
from conftest import debian_program

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bwrap() -> str:
    return debian_program("bwrap", "bubblewrap")


@pytest.mark.parametrize(("name", "target"), [("bot.c", "/etc/shadow"), ("p.py", "/etc/passwd")])
def test_a_source_linking_out_of_its_folder_is_refused_unread(
    name: str, target: str, tmp_path: Path
) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / name).symlink_to(target)
    with pytest.raises(BuildError) as error:
        build_bot(folder / name, tmp_path / "cache", name="thief")
    text = str(error.value)
    assert f"the source is a link out of its folder ({name} -> {target}): refused" in text
    assert "root:" not in text  # nothing of the file is quoted
    assert not (tmp_path / "cache").exists()


def test_a_link_inside_its_folder_is_read(tmp_path: Path) -> None:
    (tmp_path / "real.py").write_text("print('T')\n")
    (tmp_path / "bot.py").symlink_to("real.py")
    assert build.read_source(tmp_path / "bot.py") == b"print('T')\n"


def test_a_source_over_the_limit_is_refused(tmp_path: Path) -> None:
    assert build.SOURCE_LIMIT_BYTES == 1_474_560  # the contest's limit (issue #23)
    source = tmp_path / "big.py"
    source.write_bytes(b"#" * 100 + b"\n")
    assert build.read_source(source, 101) == b"#" * 100 + b"\n"
    with pytest.raises(BuildError, match="the source is larger than 100 bytes: refused"):
        build_bot(source, tmp_path / "cache", name="big", max_bytes=100)


def test_a_device_is_not_a_source(tmp_path: Path) -> None:
    (tmp_path / "zero.c").symlink_to("/dev/zero")
    with pytest.raises(BuildError, match="link out of its folder"):
        build_bot(tmp_path / "zero.c", tmp_path / "cache", name="zero")
    os.mkfifo(tmp_path / "fifo.c")
    with pytest.raises(BuildError, match="not a regular file: refused"):
        build_bot(tmp_path / "fifo.c", tmp_path / "cache", name="fifo")


def test_a_source_named_like_an_option_is_a_file(bwrap: str, tmp_path: Path) -> None:
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    source = tmp_path / "-o.c"
    source.write_text('#include <stdio.h>\nint main(void) { puts("T"); return 0; }\n')
    spec = build_bot(source, tmp_path / "cache", name="dash")
    binary = Path(spec)
    assert binary.name == "-o" and binary.is_file()


def test_a_flood_of_compiler_output_is_cut(bwrap: str, tmp_path: Path) -> None:
    status, output = run_tool(
        [sys.executable, "-c", "print('e' * 50_000_000)"], tmp_path, timeout=120
    )
    assert status == 0
    assert output.endswith(f"\n... (output cut at {build.OUTPUT_CAP_BYTES >> 10} KiB)")
    assert len(output) <= build.OUTPUT_CAP_BYTES + 100
