"""Uploads: each hostile kind refused with its reason; good uploads accepted with the right main."""

from __future__ import annotations

import gzip
import io
import os
import stat
import tarfile
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from botarena.arena.uploads import Upload, UploadRefused, check_path, check_upload, write_upload

CODECUP_LIMIT = 1_474_560


def make_zip(files: dict[str, bytes], *, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def zip_entry(name: str, content: bytes, mode: int) -> bytes:
    """A zip of one entry whose Unix mode (file type included) is `mode`."""
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(info, content)
    return buffer.getvalue()


def tar_member(name: str, kind: bytes = tarfile.REGTYPE, content: bytes = b"", **extra) -> tuple:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = len(content) if kind == tarfile.REGTYPE else 0
    for key, value in extra.items():
        setattr(info, key, value)
    return info, content


def make_tar(members: list[tuple], *, gz: bool = True, **options) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz" if gz else "w", **options) as archive:
        for info, content in members:
            archive.addfile(info, io.BytesIO(content) if info.isreg() else None)
    return buffer.getvalue()


def make_tgz(files: dict[str, bytes]) -> bytes:
    return make_tar([tar_member(name, content=content) for name, content in files.items()])


def refused(filename: str, data: bytes, **limits) -> str:
    with pytest.raises(UploadRefused) as caught:
        check_upload(filename, data, **limits)
    return str(caught.value)


# -- sizes -----------------------------------------------------------------------------------


def test_zip_bomb_is_refused_by_its_declared_size_before_inflating():
    bomb = make_zip({"bot.py": b"\0" * 10_000_000})
    assert len(bomb) < CODECUP_LIMIT // 100  # ~10 KB compressed
    assert (
        refused("bomb.zip", bomb)
        == "the archive's files inflate to 10000000 bytes: the limit is 1474560 bytes"
    )


def test_zip_whose_header_understates_the_inflated_size_is_refused():
    """The central directory and local header say 10 bytes; the data inflates to 100 000."""
    honest = make_zip({"bot.py": b"#" * 100_000})
    size = (100_000).to_bytes(4, "little")
    assert honest.count(size) == 2  # file_size in the local header and the central directory
    lying = honest.replace(size, (10).to_bytes(4, "little"))
    message = refused("bot.zip", lying)
    assert message.startswith("the .zip file is damaged at 'bot.py'")


def test_sources_over_the_codecup_limit_are_refused_and_the_limit_itself_accepted():
    exact = b"#" * CODECUP_LIMIT
    assert check_upload("bot.py", exact).files == {"bot.py": exact}
    assert refused("bot.py", exact + b"#") == "bot.py is 1474561 bytes: the limit is 1474560 bytes"
    half = b"#" * (CODECUP_LIMIT // 2)
    two = make_zip({"bot.py": half, "util.py": half + b"#"})
    assert refused("bot.zip", two) == (
        "the archive's files inflate to 1474561 bytes: the limit is 1474560 bytes"
    )
    assert refused("bot.py", b"#" * 101, max_source_bytes=100) == (
        "bot.py is 101 bytes: the limit is 100 bytes"
    )


def test_sources_and_other_files_have_their_own_limits():
    upload = make_zip({"bot.py": b"#" * 60, "book.txt": b"x" * 60})
    assert refused("b.zip", upload, max_source_bytes=100) == (
        "the archive's files inflate to 120 bytes: the limit is 100 bytes"
    )
    accepted = check_upload("b.zip", upload, max_source_bytes=100, max_unpacked_bytes=200)
    assert accepted.files["book.txt"] == b"x" * 60
    sources = make_zip({"bot.py": b"#" * 60, "util.py": b"#" * 60})
    assert refused("b.zip", sources, max_source_bytes=100, max_unpacked_bytes=200) == (
        "the sources are 120 bytes together: the limit is 100 bytes"
    )


def test_tgz_that_inflates_past_the_limit_is_refused_while_inflating():
    bomb = gzip.compress(b"\0" * 50_000_000)
    assert refused("bomb.tar.gz", bomb).startswith("the archive inflates to more than ")


def test_tar_whose_header_lies_about_its_size_is_refused():
    honest = make_tar([tar_member("bot.py", content=b"#" * 2000)], gz=False)
    header = bytearray(honest[:512])
    assert bytes(header[124:136]) == b"00000003720\0"  # 2000 in octal
    header[124:136] = b"00000000012\0"  # 10
    header[148:156] = b" " * 8
    header[148:156] = b"%06o\0 " % sum(header)
    lying = gzip.compress(bytes(header) + honest[512:])
    assert refused("bot.tgz", lying) == (
        "the tar file holds data after its last member's declared size"
        " (a header that lies about its size): the archive is damaged"
    )


def test_tar_member_claiming_more_than_the_archive_holds_is_refused():
    honest = make_tar([tar_member("bot.py", content=b"#" * 2000)], gz=False)
    header = bytearray(honest[:512])
    header[124:136] = b"00000372000\0"  # 128 000 bytes: under the limit, past the archive
    header[148:156] = b" " * 8
    header[148:156] = b"%06o\0 " % sum(header)
    lying = bytes(header) + honest[512:]
    assert refused("bot.tar", lying) == "the tar file is damaged (unexpected end of data)"


# -- counts ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_ten_thousand_files_are_refused_by_count():
    many = make_zip({f"f{n}.txt": b"" for n in range(10_000)} | {"bot.py": b""})
    assert refused("many.zip", many) == "the archive holds 10001 files: the limit is 64"
    tgz = make_tgz({f"f{n}.txt": b"" for n in range(10_000)})  # 5 MB of tar headers
    assert refused("many.tgz", tgz) == (
        "the archive inflates to more than 1835008 bytes: the limit is 1474560 bytes"
    )
    tgz = make_tgz({f"f{n}.txt": b"" for n in range(65)})
    assert refused("many.tgz", tgz) == "the archive holds more than 64 files: the limit is 64"


def test_sixty_four_files_are_accepted_and_the_count_limit_is_a_parameter():
    files = {f"m{n}.py": b"" for n in range(63)} | {"bot.py": b"print(1)\n"}
    assert len(check_upload("b.zip", make_zip(files)).files) == 64
    assert refused("b.zip", make_zip(files), max_files=10) == (
        "the archive holds 64 files: the limit is 10"
    )


def test_too_many_folders_are_refused():
    folders = [tar_member(f"d{n}/", tarfile.DIRTYPE) for n in range(65)]
    tgz = make_tar([*folders, tar_member("bot.py", content=b"")])
    assert refused("b.tgz", tgz) == "the archive holds more than 64 folders"


# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("../x.py", "the name '../x.py' holds '..': names must stay inside the archive"),
        ("a/../../x.py", "the name 'a/../../x.py' holds '..': names must stay inside the archive"),
        ("/etc/x.py", "the name '/etc/x.py' is an absolute path: use paths inside the archive"),
        ("C:/x.py", "the name 'C:/x.py' starts with a drive letter: use relative paths"),
        ("c:x.py", "the name 'c:x.py' starts with a drive letter: use relative paths"),
        ("a\\b.py", "the name 'a\\\\b.py' holds a backslash: use '/' between folders"),
        ("bot\n.py", "the name 'bot\\n.py' holds the character U+000A: use plain names"),
        (
            "\x1b[31mbot.py",
            "the name '\\x1b[31mbot.py' holds the character U+001B: use plain names",
        ),
        ("bot\u00a0.py", "the name 'bot\\xa0.py' holds the character U+00A0: use plain names"),
        (
            "bot\u202eyp.txt",
            "the name 'bot\\u202eyp.txt' holds the character U+202E: use plain names",
        ),
        ("-o.py", "the name '-o.py' has a part starting with '-': rename it"),
        ("-rf/bot.py", "the name '-rf/bot.py' has a part starting with '-': rename it"),
        ("a//bot.py", "the name 'a//bot.py' has an empty part ('//')"),
    ],
)
def test_hostile_names_are_refused_in_zips_and_tars(name, reason):
    assert refused("b.zip", make_zip({name: b"#", "bot.py": b"#"})) == reason
    assert refused("b.tar.gz", make_tgz({name: b"#", "bot.py": b"#"})) == reason


def test_nul_in_a_name_is_refused():
    assert refused("a\0.py", b"#") == "the name 'a\\x00.py' holds a NUL character: use plain names"
    pax = make_tar(
        [tar_member("x.py", content=b"#", pax_headers={"path": "a\0b.py"})],
        format=tarfile.PAX_FORMAT,
    )
    assert refused("b.tgz", pax) == "the name 'a\\x00b.py' holds a NUL character: use plain names"


def test_hostile_single_file_names_are_refused():
    assert refused("-o.c", b"int main(){}") == (
        "the name '-o.c' has a part starting with '-': rename it"
    )
    assert refused("../../bot.py", b"#").endswith("holds '..': names must stay inside the archive")
    assert refused("/etc/x.py", b"#").endswith("is an absolute path: use paths inside the archive")
    assert refused("C:\\fakepath\\bot.py", b"#").endswith(
        "starts with a drive letter: use relative paths"
    )


def test_file_named_dash_o_inside_an_archive_is_refused():
    assert refused("b.zip", make_zip({"-o.c": b"int main(){}"})) == (
        "the name '-o.c' has a part starting with '-': rename it"
    )


def test_non_utf8_names_are_refused():
    plain = make_zip({"X.py": b"#"})
    assert plain.count(b"X.py") == 2
    latin = plain.replace(b"X.py", b"\xff.py")
    assert (
        refused("b.zip", latin)
        == "the name b'\\xff.py' is not UTF-8: rename the file with plain letters"
    )
    tgz = make_tar(
        [tar_member("\xff.py", content=b"#")], format=tarfile.GNU_FORMAT, encoding="latin-1"
    )
    assert (
        refused("b.tgz", tgz)
        == "the name b'\\xff.py' is not UTF-8: rename the file with plain letters"
    )


def test_utf8_names_are_accepted_with_or_without_the_zip_flag():
    flagged = make_zip({"élan.py": b"#"})
    assert check_upload("b.zip", flagged).main == "élan.py"
    unflagged = make_zip({"XXXXX.py": b"#"}).replace(b"XXXXX", "élan".encode())
    assert check_upload("b.zip", unflagged).main == "élan.py"


def test_duplicate_names_are_refused_also_by_case():
    buffer = io.BytesIO()
    with pytest.warns(UserWarning), zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.py", b"one")
        archive.writestr("bot.py", b"two")
    assert refused("b.zip", buffer.getvalue()) == "the archive holds the name 'bot.py' twice"
    assert refused("b.zip", make_zip({"Bot.py": b"#", "bot.py": b"#"})) == (
        "the archive holds the name 'bot.py' twice ('Bot.py' and 'bot.py')"
    )
    tgz = make_tar([tar_member("bot.py", content=b"1"), tar_member("./bot.py", content=b"2")])
    assert refused("b.tgz", tgz) == "the archive holds the name 'bot.py' twice"


def test_a_name_used_as_file_and_folder_is_refused():
    assert refused("b.zip", make_zip({"bot.py": b"#", "bot.py/x.py": b"#"})) == (
        "the archive uses 'bot.py' as both a file and a folder"
    )


def test_long_and_deep_names_are_refused():
    deep = "/".join(["d"] * 9) + "/bot.py"
    assert refused("b.zip", make_zip({deep: b"#"})) == (
        f"the name {deep!r} is more than 8 folders deep"
    )
    long = "a" * 256 + ".py"
    assert refused("b.zip", make_zip({long: b"#"})) == (
        f"a part of {long!r} is longer than 255 bytes"
    )


# -- entry kinds -----------------------------------------------------------------------------


def test_tar_symlink_to_etc_shadow_is_refused():
    link = tar_member("bot.py", tarfile.SYMTYPE, linkname="/etc/shadow")
    assert refused("b.tgz", make_tar([link])) == (
        "'bot.py' is a link: only plain files are accepted"
    )


def test_tar_hardlink_is_refused():
    members = [
        tar_member("a.py", content=b"#"),
        tar_member("bot.py", tarfile.LNKTYPE, linkname="a.py"),
    ]
    assert (
        refused("b.tgz", make_tar(members)) == "'bot.py' is a link: only plain files are accepted"
    )
    outside = tar_member("bot.py", tarfile.LNKTYPE, linkname="/etc/shadow")
    assert refused("b.tgz", make_tar([outside])) == (
        "'bot.py' is a link: only plain files are accepted"
    )


@pytest.mark.parametrize(
    ("kind", "word"),
    [
        (tarfile.CHRTYPE, "a device"),
        (tarfile.BLKTYPE, "a device"),
        (tarfile.FIFOTYPE, "a FIFO"),
        (tarfile.GNUTYPE_SPARSE, "not a plain file"),
        (b"V", "not a plain file"),  # a GNU volume label
    ],
)
def test_tar_devices_fifos_and_other_kinds_are_refused(kind, word):
    member = tar_member("bot.py", kind)
    assert refused("b.tgz", make_tar([member])) == (
        f"'bot.py' is {word}: only plain files are accepted"
    )


@pytest.mark.parametrize(
    ("mode", "word"),
    [
        (stat.S_IFLNK | 0o777, "a symbolic link"),
        (stat.S_IFCHR | 0o644, "a device"),
        (stat.S_IFIFO | 0o644, "a FIFO"),
        (stat.S_IFSOCK | 0o644, "a socket"),
    ],
)
def test_zip_links_devices_and_fifos_are_refused(mode, word):
    assert refused("b.zip", zip_entry("bot.py", b"/etc/shadow", mode)) == (
        f"'bot.py' is {word}: only plain files are accepted"
    )


def test_nested_archives_and_compiled_files_are_refused():
    inner = make_zip({"bot.py": b"#"})
    assert refused("b.zip", make_zip({"bot.py": b"#", "more.zip": inner})) == (
        "more.zip is an archive or a compiled file: upload sources only, in one archive"
    )
    assert refused("b.zip", make_zip({"bot.py": b"#", "data.txt": inner})) == (
        "data.txt is an archive: upload sources only, in one archive"
    )
    assert refused("b.zip", make_zip({"bot.py": b"#", "data.txt": gzip.compress(b"x")})) == (
        "data.txt is an archive: upload sources only, in one archive"
    )
    elf = b"\x7fELF\x02\x01\x01\0" + bytes(100)
    assert refused("b.zip", make_zip({"bot.c": b"int main(){}", "bot": elf})) == (
        "bot is a compiled program: upload sources only, in one archive"
    )
    assert refused("b.zip", make_zip({"Bot.java": b"", "Bot.class": b"\xca\xfe\xba\xbe"})) == (
        "Bot.class is an archive or a compiled file: upload sources only, in one archive"
    )


def test_text_that_starts_like_a_magic_number_is_a_source():
    assert check_upload("bot.py", b"MZ = 3\nprint(MZ)\n").main == "bot.py"
    assert check_upload("bot.py", b"BZh = 1\n").main == "bot.py"


def test_encrypted_and_damaged_archives_are_refused():
    plain = bytearray(make_zip({"bot.py": b"#"}, method=zipfile.ZIP_STORED))
    plain[6] |= 1  # local header: encrypted
    central = plain.rfind(b"PK\x01\x02")
    plain[central + 8] |= 1
    assert refused("b.zip", bytes(plain)) == (
        "'bot.py' is encrypted: upload an archive without a password"
    )
    assert refused("b.zip", b"not a zip").startswith("the .zip file cannot be read")
    assert refused("b.tgz", b"not gzip").startswith("the .tar.gz file cannot be read")
    assert refused("b.tar", b"x" * 1024).startswith("the tar file cannot be read")


def test_a_zip_of_a_newer_version_is_refused():
    newer = bytearray(make_zip({"bot.py": b"#"}))
    central = newer.rfind(b"PK\x01\x02")
    newer[central + 6] = 99  # version needed to extract: 9.9
    assert refused("b.zip", bytes(newer)) == ("the .zip file cannot be read (zip file version 9.9)")


def test_unknown_compression_is_refused():
    archive = make_zip({"bot.py": b"#" * 100}, method=zipfile.ZIP_LZMA)
    assert refused("b.zip", archive) == (
        "'bot.py' is compressed with a method this site does not read: use plain zip (deflate)"
    )


# -- languages and main ----------------------------------------------------------------------


def test_several_languages_are_refused_naming_them():
    assert refused("b.zip", make_zip({"bot.c": b"", "x.py": b""})) == (
        "a bot is written in one language, this upload has several (C: bot.c; Python: x.py)"
    )
    assert refused("b.zip", make_zip({"main.cpp": b"", "a.java": b"", "b.go": b""})) == (
        "a bot is written in one language, this upload has several"
        " (C++: main.cpp; Go: b.go; Java: a.java)"
    )


def test_no_source_is_refused():
    assert refused("notes.txt", b"hello") == (
        "notes.txt is not a source file this site builds (.c .cc .cpp .go .java .py .rs)"
    )
    assert refused("b.zip", make_zip({"a.txt": b"", "b.h": b""})) == (
        "the archive holds no source file this site builds (.c .cc .cpp .go .java .py .rs)"
    )
    assert refused("b.zip", make_zip({})) == "the archive holds no file"


@pytest.mark.parametrize(
    ("filename", "language"),
    [
        ("bot.py", "Python"),
        ("bot.c", "C"),
        ("bot.cpp", "C++"),
        ("bot.cc", "C++"),
        ("Walker.java", "Java"),
        ("bot.rs", "Rust"),
        ("bot.go", "Go"),
    ],
)
def test_one_source_file_of_each_language_is_accepted(filename, language):
    upload = check_upload(filename, b"// a bot\n")
    assert upload == Upload({filename: b"// a bot\n"}, language, filename)


@pytest.mark.parametrize(
    ("files", "language", "main"),
    [
        ({"main.cpp": b"", "board.h": b"", "board.cpp": b""}, "C++", "main.cpp"),
        ({"bot.cc": b"", "lib/board.hpp": b"", "lib/board.cc": b""}, "C++", "bot.cc"),
        ({"bot.c": b"", "util.c": b"", "util.h": b""}, "C", "bot.c"),
        ({"Bot.java": b"", "Board.java": b""}, "Java", "Bot.java"),
        ({"Main.java": b"", "Board.java": b""}, "Java", "Main.java"),
        ({"bot.py": b"", "helpers.py": b"", "book.txt": b"e4 e5"}, "Python", "bot.py"),
        ({"main.py": b"", "pkg/__init__.py": b"", "pkg/search.py": b""}, "Python", "main.py"),
        ({"main.go": b"", "board.go": b""}, "Go", "main.go"),
        ({"main.rs": b"", "board.rs": b""}, "Rust", "main.rs"),
        ({"src/walker.py": b"", "README.md": b"# mine"}, "Python", "src/walker.py"),
    ],
)
def test_multi_file_uploads_of_each_language_find_their_main(files, language, main):
    for name, data in (
        ("b.zip", make_zip(files)),
        ("b.tar.gz", make_tgz(files)),
        ("b.tgz", make_tgz(files)),
    ):
        upload = check_upload(name, data)
        assert (upload.language, upload.main, upload.files) == (language, main, files)


def test_without_a_main_by_name_the_upload_is_refused():
    assert refused("b.zip", make_zip({"a.py": b"", "b.py": b""})) == (
        "2 Python files and none at the top named bot.py or main.py:"
        " name the file the bot starts from so (and only that one)"
    )
    assert refused("b.zip", make_zip({"bot.py": b"", "main.py": b""})) == (
        "2 Python files and both at the top named bot.py or main.py:"
        " name the file the bot starts from so (and only that one)"
    )
    assert refused("b.zip", make_zip({"A.java": b"", "B.java": b""})) == (
        "2 Java files and none at the top named Bot.java or Main.java:"
        " name the file the bot starts from so (and only that one)"
    )
    assert refused("b.zip", make_zip({"x/bot.py": b"", "y/util.py": b""})).startswith(
        "2 Python files and none at the top"
    )


def test_java_main_must_be_a_class_name():
    assert refused("my-bot.java", b"class X {}") == (
        "my-bot.java is not named after a Java class: name it after its public class"
        " (Bot.java holds public class Bot)"
    )


def test_one_top_folder_and_archiver_files_are_left_out():
    zipped = make_zip(
        {
            "mybot/": b"",
            "mybot/bot.py": b"#",
            "mybot/util.py": b"#",
            "__MACOSX/mybot/._bot.py": b"\0\x05\x16\x07",
            "mybot/.DS_Store": b"\0\0\0\1Bud1",
        }
    )
    upload = check_upload("mybot.zip", zipped)
    assert upload.files == {"bot.py": b"#", "util.py": b"#"}
    assert upload.main == "bot.py"
    dotted = make_tar(
        [
            tar_member("./", tarfile.DIRTYPE),
            tar_member("./bot.py", content=b"#"),
            tar_member("./lib/", tarfile.DIRTYPE),
            tar_member("./lib/a.py", content=b"#"),
        ]
    )
    assert check_upload("b.tgz", dotted).files == {"bot.py": b"#", "lib/a.py": b"#"}


# -- writing ---------------------------------------------------------------------------------


def test_write_upload_makes_the_folder_and_files_with_fixed_modes(tmp_path):
    upload = check_upload("b.zip", make_zip({"main.cpp": b"int main(){}", "lib/b.h": b"//"}))
    old = os.umask(0o077)
    try:
        main = write_upload(upload, tmp_path / "v1")
    finally:
        os.umask(old)
    assert main == tmp_path / "v1" / "main.cpp"
    assert main.read_bytes() == b"int main(){}"
    assert (tmp_path / "v1/lib/b.h").read_bytes() == b"//"
    assert stat.S_IMODE((tmp_path / "v1").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "v1/lib").stat().st_mode) == 0o755
    assert stat.S_IMODE(main.stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "v1/lib/b.h").stat().st_mode) == 0o644


def test_write_upload_never_follows_a_link_nor_writes_into_a_used_folder(tmp_path):
    upload = check_upload("bot.py", b"#")
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "link").symlink_to(target)
    with pytest.raises(OSError):
        write_upload(upload, tmp_path / "link")
    assert list(target.iterdir()) == []
    used = tmp_path / "used"
    used.mkdir()
    (used / "x").write_text("")
    with pytest.raises(FileExistsError):
        write_upload(upload, used)
    empty = tmp_path / "empty"
    empty.mkdir(mode=0o700)
    assert write_upload(upload, empty) == empty / "bot.py"
    assert stat.S_IMODE(empty.stat().st_mode) == 0o755


def test_an_upload_made_by_hand_is_checked_too():
    with pytest.raises(UploadRefused, match=r"holds '\.\.'"):
        Upload({"../x.py": b""}, "Python", "../x.py")
    with pytest.raises(UploadRefused, match="not a plain relative path"):
        Upload({"./x.py": b""}, "Python", "./x.py")
    with pytest.raises(UploadRefused, match="not among the files"):
        Upload({"a.py": b""}, "Python", "bot.py")
    with pytest.raises(UploadRefused, match="is not a C source"):
        Upload({"a.py": b""}, "C", "a.py")
    assert check_path("./a/./b.py") == "a/b.py"


# -- round trip ------------------------------------------------------------------------------

_part = st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=12)
_file = st.builds(
    lambda folders, stem, ext: "/".join([*folders, stem + ext]),
    st.lists(_part, max_size=3),
    _part,
    st.sampled_from([".py", ".txt", ".json", ""]),
)


@settings(max_examples=60, deadline=None)
@given(
    others=st.dictionaries(
        _file.filter(lambda name: name != "bot.py"),
        st.binary(max_size=600).map(lambda data: b"#" + data),
        max_size=12,
    ),
    main=st.binary(max_size=600).map(lambda data: b"#" + data),
    kind=st.sampled_from(["zip", "stored.zip", "tar.gz", "tgz", "tar"]),
)
def test_any_archive_of_safe_names_round_trips_byte_for_byte(others, main, kind):
    names = set(others)
    folders = {
        "/".join(name.split("/")[:n]) for name in names for n in range(1, name.count("/") + 1)
    }
    others = {name: data for name, data in others.items() if name not in folders}
    files = {"bot.py": main, **others}
    if kind.endswith("zip"):
        method = zipfile.ZIP_STORED if kind == "stored.zip" else zipfile.ZIP_DEFLATED
        data = make_zip(files, method=method)
    else:
        members = [tar_member(name, content=content) for name, content in files.items()]
        data = make_tar(members, gz=kind != "tar")
    upload = check_upload(f"bot.{kind}", data)
    assert upload.main == "bot.py"
    with tempfile.TemporaryDirectory() as scratch:
        written = Path(scratch) / "bot"
        assert write_upload(upload, written) == written / "bot.py"
        on_disk = {
            str(path.relative_to(written)): path.read_bytes()
            for path in written.rglob("*")
            if path.is_file()
        }
    assert on_disk == files


_GOOD = {
    "b.zip": make_zip({"bot.py": b"print(1)\n" * 20, "lib/a.py": b"x = 1\n", "d/": b""}),
    "b.tgz": make_tgz({"bot.py": b"print(1)\n" * 20, "lib/\u00e9.py": b"x = 1\n"}),
    "b.tar": make_tar([tar_member("bot.py", content=b"print(1)\n" * 20)], gz=False),
}


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(sorted(_GOOD)),
    edits=st.lists(
        st.tuples(st.integers(0, 10_000), st.integers(0, 255), st.sampled_from("sdi")),
        min_size=1,
        max_size=4,
    ),
)
@pytest.mark.slow
def test_a_damaged_archive_is_accepted_or_refused_never_a_crash(name, edits):
    """Bytes set, cut or inserted anywhere in a good archive: check_upload returns an Upload
    or raises UploadRefused, never another exception (zipfile and tarfile raise a dozen)."""
    data = bytearray(_GOOD[name])
    for position, byte, kind in edits:
        at = position % len(data)
        if kind == "s":
            data[at] = byte
        elif kind == "d":
            del data[at : at + 1 + byte % 40]
        else:
            data[at:at] = bytes([byte]) * (1 + byte % 7)
    try:
        upload = check_upload(name, bytes(data))
    except UploadRefused as refusal:
        assert str(refusal)
    else:
        assert upload.main in upload.files


@example("a\u00a0b.py")
@given(st.text(max_size=60) | st.text("ab./\\-:\0\n \u00a0\u2028", max_size=30))
def test_a_checked_path_is_always_safe_and_checks_again_to_itself(name):
    """Whatever the name, check_path refuses it or returns a path that stays inside the
    folder it is written to."""
    try:
        path = check_path(name)
    except UploadRefused:
        return
    parts = path.split("/")
    assert path and not path.startswith("/") and "\\" not in path
    assert all(part not in ("", ".", "..") and not part.startswith("-") for part in parts)
    assert all(char.isprintable() for char in path)
    assert check_path(path) == path
