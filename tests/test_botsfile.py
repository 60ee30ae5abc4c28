"""The TOML bots file: a good file, and each mistake reported with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from botarena.tournament.botsfile import BotEntry, BotsFileError, load_bots_file


def write(folder: Path, text: str) -> Path:
    path = folder / "bots.toml"
    path.write_text(text)
    return path


def test_a_good_file_resolves_paths_against_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "bob.c").write_text("int main(void) { return 0; }\n")
    path = write(
        tmp_path,
        """\
# a comment
[[bot]]
name = "alice"
command = "./bots/alice --fast 'two words'"
workdir = "bots"

[[bot]]
name = "bob"
source = "bots/bob.c"
role = "maze master"

[[bot]]
name = "carol"
command = "builtin:amazes/explorer"

[[bot]]
name = "dave"
command = "python3 -u bot.py"

[[bot]]
name = "eve"
command = "post:posts/eve.md"
""",
    )
    monkeypatch.chdir("/")
    assert load_bots_file(Path(path)) == [
        BotEntry(
            name="alice",
            command=f"{tmp_path}/bots/alice --fast 'two words'",
            workdir=tmp_path / "bots",
        ),
        BotEntry(name="bob", source=tmp_path / "bots" / "bob.c", role="maze master"),
        BotEntry(name="carol", command="builtin:amazes/explorer"),
        BotEntry(name="dave", command="python3 -u bot.py"),
        BotEntry(name="eve", command=f"post:{tmp_path}/posts/eve.md"),
    ]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('[[bot]]\nname = "a"\ncommand = "x"\n[[bot]\n', 4, "invalid TOML"),
        ('[[bot]]\nname = "a"\ncommand = "x\n', 3, "invalid TOML"),
        ('[[bot]]\nname = "a"\n\ncommand "x"\n', 4, "invalid TOML"),
        ('[[bot]]\ncommand = "x"\n', 1, "has no name"),
        (
            '[[bot]]\nname = "a"\ncommand = "x"\n\n[[bot]]\nname = "b"\n',
            6,
            "bot 'b' has no command or source: give exactly one",
        ),
        (
            '[[bot]]\nname = "a"\ncommand = "x"\nsource = "a.c"\n',
            4,
            "bot 'a' has both a command and a source",
        ),
        (
            '[[bot]]\nname = "a"\ncommand = "x"\n[[bot]]\nname = "b"\ncommand = "y"\n'
            '[[bot]]\n  name = "a"\ncommand = "z"\n',
            8,
            "bot name 'a' is already used on line 2",
        ),
        ('[[bot]]\nname = "a"\ncomand = "x"\n', 3, "unknown key 'comand'"),
        ('[[bot]]\nname = "a"\ncommand = 7\n', 3, "command must be a non-empty string"),
        ('[[bot]]\nname = "a b"\ncommand = "x"\n', 2, "bot name 'a b' may hold only"),
        ('[[bot]]\nname = "a"\nsource = "missing.c"\n', 3, "does not exist"),
        ('[[bot]]\nname = "a"\ncommand = "x"\nworkdir = "nowhere"\n', 4, "is not a folder"),
        ('[[bot]]\nname = "a"\ncommand = "\'x"\n', 3, "No closing quotation"),
        ('title = "cup"\n[[bot]]\nname = "a"\ncommand = "x"\n', 1, "unknown top-level key 'title'"),
        ("# nothing\n", 1, "no bots"),
    ],
)
def test_mistakes_name_the_file_and_line(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(BotsFileError) as error:
        load_bots_file(path)
    assert str(error.value).startswith(f"{path}:{line}: ")
    assert message in str(error.value)


def test_a_missing_file_is_a_bots_file_error(tmp_path: Path) -> None:
    with pytest.raises(BotsFileError, match=f"^{tmp_path}/none.toml: cannot read"):
        load_bots_file(tmp_path / "none.toml")
