"""Multi-file bots: an upload written by write_upload builds from its folder in each language."""

from __future__ import annotations

import io
import shlex
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

import botarena
from botarena.arena.uploads import check_upload, write_upload
from botarena.tournament import build
from botarena.tournament.build import BuildError, build_folder

BOTS = {
    "C++": (
        {
            "main.cpp": '#include <iostream>\n#include "lib/board.h"\n'
            "int main() { std::cout << add(2, 3) << std::endl; }\n",
            "lib/board.h": "int add(int a, int b);\n",
            "lib/board.cc": '#include "board.h"\nint add(int a, int b) { return a + b; }\n',
        },
        "main.cpp",
        "5",
    ),
    "C": (
        {
            "bot.c": "#include <stdio.h>\ndouble root(double);\nint main(void) {"
            ' printf("%.2f\\n", root(9.0)); return 0; }\n',
            "util.c": "#include <math.h>\ndouble root(double x) { return sqrt(x); }\n",
        },
        "bot.c",
        "3.00",
    ),
    "Java": (
        {
            "Bot.java": "public class Bot { public static void main(String[] a) {"
            " System.out.println(new Board().size()); } }\n",
            "Board.java": "class Board { int size() { return 7; } }\n",
        },
        "Bot.java",
        "7",
    ),
    "Python": (
        {
            "bot.py": "import helpers\nfrom pkg import sub\nprint(helpers.TWO + sub.THREE)\n",
            "helpers.py": "TWO = 2\n",
            "pkg/__init__.py": "",
            "pkg/sub.py": "THREE = 3\n",
        },
        "bot.py",
        "5",
    ),
    "Go": (
        {
            "main.go": 'package main\nimport "fmt"\nfunc main() { fmt.Println(size()) }\n',
            "board.go": "package main\nfunc size() int { return 11 }\n",
        },
        "main.go",
        "11",
    ),
    "Rust": (
        {
            "main.rs": 'mod board;\nfn main() { println!("{}", board::size()); }\n',
            "board.rs": "pub fn size() -> i32 { 13 }\n",
        },
        "main.rs",
        "13",
    ),
}
TOOL = {"C++": "g++", "C": "gcc", "Java": "javac", "Python": "python3", "Go": "go", "Rust": "rustc"}


def upload_folder(tmp_path: Path, files: dict[str, str], label: str = "bot") -> tuple[Path, str]:
    """The folder write_upload makes from a zip of `files`, and the upload's main file."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    upload = check_upload(f"{label}.zip", buffer.getvalue())
    assert write_upload(upload, tmp_path / label) == tmp_path / label / upload.main
    return tmp_path / label, upload.main


def run_spec(spec: str) -> str:
    done = subprocess.run(shlex.split(spec), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("upload-build-cache")


@pytest.mark.parametrize("language", list(BOTS))
@pytest.mark.slow
def test_a_multi_file_upload_builds_and_runs(tmp_path, cache, language):
    if shutil.which(TOOL[language]) is None:
        pytest.skip(f"{TOOL[language]} is not installed")
    files, main, printed = BOTS[language]
    folder, found = upload_folder(tmp_path, files)
    assert found == main
    spec = build_folder(folder, main, cache, name="multi")
    assert str(cache) in spec
    assert run_spec(spec) == printed


def test_a_folder_builds_once_and_again_when_any_file_changes(tmp_path, cache, monkeypatch):
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    files, main, _ = BOTS["C"]
    first_folder, _ = upload_folder(tmp_path, files, "first")
    first = build_folder(first_folder, main, cache, name="c")
    same_folder, _ = upload_folder(tmp_path, files, "same")

    def no_compiler(*args, **kwargs):
        raise AssertionError("built again")

    monkeypatch.setattr(build, "run_tool", no_compiler)
    assert build_folder(same_folder, main, cache, name="other name") == first
    monkeypatch.undo()
    changed = dict(files, **{"util.c": files["util.c"].replace("sqrt(x)", "sqrt(x) + 1")})
    changed_folder, _ = upload_folder(tmp_path, changed, "changed")
    second = build_folder(changed_folder, main, cache, name="c")
    assert second != first
    assert run_spec(second) == "4.00"


def test_an_error_in_a_second_file_names_that_file(tmp_path, cache):
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    files = dict(BOTS["C++"][0], **{"lib/board.cc": "int add(int a, int b) { return a + ; }\n"})
    folder, main = upload_folder(tmp_path, files)
    with pytest.raises(BuildError) as caught:
        build_folder(folder, main, cache, name="broken")
    message = str(caught.value)
    assert message.startswith(f"bot 'broken' did not build: C++ source {folder / 'main.cpp'}")
    assert "lib/board.cc:1:" in message


def test_a_folder_with_a_link_or_too_much_is_refused_unbuilt(tmp_path, monkeypatch):
    def no_compiler(*args, **kwargs):
        raise AssertionError("a compiler ran")

    monkeypatch.setattr(build, "run_tool", no_compiler)
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text("print(1)\n")
    (folder / "secret.txt").symlink_to("/etc/shadow")
    with pytest.raises(
        BuildError, match=r"secret\.txt is a link: a bot.s folder holds plain files"
    ):
        build_folder(folder, "bot.py", tmp_path / "cache", name="thief")
    (folder / "secret.txt").unlink()
    (folder / "book.txt").write_bytes(b"x" * 100)
    with pytest.raises(BuildError, match="larger than 100 bytes together"):
        build_folder(folder, "bot.py", tmp_path / "cache", name="big", max_bytes=100)
    with pytest.raises(BuildError, match="more than 1 files"):
        build_folder(folder, "bot.py", tmp_path / "cache", name="many", max_files=1)
    with pytest.raises(BuildError, match=r"nothere\.py is not a file of"):
        build_folder(folder, "nothere.py", tmp_path / "cache", name="lost")
    assert not (tmp_path / "cache").exists()


def test_the_compiler_is_given_the_languages_sources_main_first():
    files = dict.fromkeys(["main.cpp", "b.cc", "a.cpp", "x.h", "notes.txt", "t/c.cpp"], b"")
    assert build._given(build.LANGUAGES[".cpp"], files, "main.cpp") == [
        "main.cpp",
        "a.cpp",
        "b.cc",
        "t/c.cpp",
    ]
    go = dict.fromkeys(["main.go", "board.go", "tools/gen.go"], b"")
    assert build._given(build.LANGUAGES[".go"], go, "main.go") == ["main.go", "board.go"]
    rust = dict.fromkeys(["main.rs", "board.rs"], b"")
    assert build._given(build.LANGUAGES[".rs"], rust, "main.rs") == ["main.rs"]


HAND = (
    "import sys\nfrom pathlib import Path\nimport helpers\n"
    "ORDER = (Path(__file__).parent / 'book.txt').read_text().split()\n"
    "lines = []\n"
    "for line in sys.stdin:\n"
    "    line = line.strip()\n"
    "    if line == 'Start':\n        continue\n"
    "    if line == 'Quit':\n        break\n"
    "    lines.append(line)\n"
    "    if len(lines) == 5:\n"
    "        print(helpers.choose(lines, ORDER), flush=True)\n"
    "        lines = []\n"
)
HELPERS = (
    "def choose(lines, order):\n"
    "    ahead, right, _, left, _ = lines\n"
    "    open_ = {'R': len(right) > 1, 'F': len(ahead) > 1, 'L': len(left) > 1, 'T': True}\n"
    "    return next(move for move in order if open_[move])\n"
)


def test_a_built_multi_file_bot_plays_sandboxed_with_its_modules_and_data(tmp_path, cache):
    """The built bot runs from its cache folder in the sandbox: its module and its data file
    beside the main file are there."""
    files = {"bot.py": HAND, "helpers.py": HELPERS, "book.txt": "R F L T\n"}
    folder, main = upload_folder(tmp_path, files)
    spec = build_folder(folder, main, cache, name="hand")
    result = botarena.play("amazes", [spec, "builtin:amazes/random"], seed=3, sandbox=True)
    player = result.to_dict()["players"][0]
    assert (player["status"], player["faults"]) == ("ok", 0)
