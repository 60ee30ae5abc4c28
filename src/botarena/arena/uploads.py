"""Check a contestant's upload (a source file or an archive of sources) before storing anything.

An upload is refused with one sentence (`UploadRefused`) unless every rule of docs/sandbox.md
"Uploads" holds; archives are read in memory with bounded reads, never extracted, and
`write_upload` writes an accepted upload into a fresh folder without following any link.
"""

from __future__ import annotations

import codecs
import contextlib
import gzip
import io
import os
import re
import stat
import tarfile
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from botarena.tournament.build import LANGUAGES

MAX_SOURCE_BYTES = 1_474_560
"""CodeCup's limit on a bot's sources (all source files together)."""

MAX_FILES = 64
MAX_DEPTH = 8
"""Folders a file may sit in, one inside the other."""

MAX_NAME_BYTES = 255
"""One file or folder name (a Linux file system's limit)."""

MAX_PATH_BYTES = 1024

ARCHIVES = (".zip", ".tar.gz", ".tgz", ".tar")
"""The archive kinds read, by the upload's file name."""

HEADERS = frozenset({".h", ".hh", ".hpp", ".hxx", ".inc", ".ipp", ".tpp"})
"""C and C++ files that are sources (counted in the source limit) but never a main file."""

SKIPPED_FOLDERS = frozenset({"__MACOSX"})
SKIPPED_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
"""What a desktop's archiver adds on its own: checked like every entry, then left out."""

FOREIGN_EXTENSIONS = frozenset(
    {
        ".zip", ".tar", ".gz", ".tgz", ".bz2", ".tbz", ".tbz2", ".xz", ".txz", ".zst", ".lz",
        ".lzma", ".7z", ".rar", ".jar", ".war", ".whl", ".egg", ".cab", ".iso", ".ar", ".deb",
        ".rpm", ".cpio",
        ".o", ".obj", ".a", ".so", ".dll", ".dylib", ".exe", ".class", ".pyc", ".pyo", ".rlib",
    }
)  # fmt: skip
"""Archives and compiled files, refused by name inside an archive: a bot is uploaded as sources."""

FOREIGN_MAGIC: tuple[tuple[int, bytes, str], ...] = (
    (0, b"PK\x03\x04", "an archive"),
    (0, b"PK\x05\x06", "an archive"),
    (0, b"\x1f\x8b", "an archive"),
    (0, b"BZh", "an archive"),
    (0, b"\xfd7zXZ\x00", "an archive"),
    (0, b"7z\xbc\xaf\x27\x1c", "an archive"),
    (0, b"Rar!\x1a\x07", "an archive"),
    (0, b"\x28\xb5\x2f\xfd", "an archive"),
    (257, b"ustar", "an archive"),
    (0, b"\x7fELF", "a compiled program"),
    (0, b"MZ", "a compiled program"),
    (0, b"\xca\xfe\xba\xbe", "a compiled program"),
    (0, b"\xcf\xfa\xed\xfe", "a compiled program"),
    (0, b"\xce\xfa\xed\xfe", "a compiled program"),
)
"""What a file's first bytes say it is, whatever its name."""

_DRIVE = re.compile(r"^[A-Za-z]:")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (the right-to-left override that hides an extension), surrogate, private
use, unassigned, line and paragraph separator characters; and every space but the plain one."""


class UploadRefused(ValueError):
    """An upload that is not stored: its message is one sentence the contestant reads."""


@dataclass(frozen=True)
class Upload:
    """An accepted upload: its files by relative POSIX path, its language (the name
    tournament/build.py gives it, e.g. `C++`) and the file the build compiles or runs.
    Made by `check_upload`; one made by hand is checked again (paths, main, language)."""

    files: dict[str, bytes]
    language: str
    main: str

    def __post_init__(self) -> None:
        for path in self.files:
            if check_path(path) != path:
                raise UploadRefused(f"{path!r} is not a plain relative path")
        if self.main not in self.files:
            raise UploadRefused(f"the main file {self.main!r} is not among the files")
        names = {language.name for language in LANGUAGES.values()}
        if self.language not in names:
            raise UploadRefused(f"unknown language {self.language!r}")
        main_language = LANGUAGES.get(PurePosixPath(self.main).suffix.lower())
        if main_language is None or main_language.name != self.language:
            raise UploadRefused(f"the main file {self.main!r} is not a {self.language} source")


def check_path(name: str, *, folder: bool = False) -> str:
    """The relative POSIX path `name` stands for (`./` parts dropped, one trailing `/` of a
    folder too; "" for the archive's own folder `./` when `folder`), or UploadRefused saying
    what is wrong with it: empty, absolute, a drive letter, a backslash, `..`, a control or
    invisible character, a part starting with `-`, too deep or too long."""
    if name == "":
        raise UploadRefused("a file has an empty name")
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES or (char.isspace() and char != " "):
            what = "a NUL character" if char == "\0" else f"the character U+{ord(char):04X}"
            raise UploadRefused(f"the name {name!r} holds {what}: use plain names")
    if name.startswith("/"):
        raise UploadRefused(f"the name {name!r} is an absolute path: use paths inside the archive")
    if _DRIVE.match(name):
        raise UploadRefused(f"the name {name!r} starts with a drive letter: use relative paths")
    if "\\" in name:
        raise UploadRefused(f"the name {name!r} holds a backslash: use '/' between folders")
    if len(name.encode()) > MAX_PATH_BYTES:
        raise UploadRefused(f"the name {name[:40]!r}... is longer than {MAX_PATH_BYTES} bytes")
    parts = [part for part in name.removesuffix("/").split("/") if part != "."]
    if not parts:
        if folder:
            return ""
        raise UploadRefused(f"the name {name!r} names no file")
    for part in parts:
        if part == "..":
            raise UploadRefused(f"the name {name!r} holds '..': names must stay inside the archive")
        if part == "":
            raise UploadRefused(f"the name {name!r} has an empty part ('//')")
        if part.startswith("-"):
            raise UploadRefused(f"the name {name!r} has a part starting with '-': rename it")
        if len(part.encode()) > MAX_NAME_BYTES:
            raise UploadRefused(f"a part of {name!r} is longer than {MAX_NAME_BYTES} bytes")
    if len(parts) > MAX_DEPTH + 1:
        raise UploadRefused(f"the name {name!r} is more than {MAX_DEPTH} folders deep")
    return "/".join(parts)


@dataclass
class _Entry:
    """One member of an archive as its header declares it."""

    name: str
    folder: bool
    size: int


def check_upload(
    filename: str,
    data: bytes,
    *,
    max_source_bytes: int = MAX_SOURCE_BYTES,
    max_files: int = MAX_FILES,
    max_unpacked_bytes: int | None = None,
) -> Upload:
    """The Upload `data` holds (its file name `filename` tells a source file from a .zip,
    .tar.gz, .tgz or .tar archive), or UploadRefused with the one reason it is refused.
    `max_source_bytes` bounds the sources together (headers included), `max_unpacked_bytes`
    (default: `max_source_bytes`) every file together, `max_files` the number of files.
    Every name and header is checked before any content is read, and contents are read with
    bounded reads; the main file is chosen as docs/sandbox.md "Uploads" says.

    >>> check_upload("Walker.java", b"public class Walker {}")
    Upload(files={'Walker.java': b'public class Walker {}'}, language='Java', main='Walker.java')
    >>> check_upload("-o.c", b"int main() {}")
    Traceback (most recent call last):
    botarena.arena.uploads.UploadRefused: the name '-o.c' has a part starting with '-': rename it
    """
    limit = max_source_bytes if max_unpacked_bytes is None else max_unpacked_bytes
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    kind = next((ext for ext in ARCHIVES if base.lower().endswith(ext)), None)
    if kind is None:
        name = check_path(filename)
        if len(data) > min(max_source_bytes, limit):
            raise UploadRefused(
                f"{name} is {len(data)} bytes: the limit is {min(max_source_bytes, limit)} bytes"
            )
        files = {name: data}
    else:
        slack = 2048 * (2 * max_files + 16) + 65536
        if len(data) > limit + slack:
            raise UploadRefused(f"the archive is {len(data)} bytes: the limit is {limit + slack}")
        if kind == ".zip":
            files = _read_zip(data, max_files, limit)
        else:
            files = _read_tar(data, kind != ".tar", max_files, limit, slack)
        files = _strip_common_folder(files)
    return _choose(files, max_source_bytes, archive=kind is not None)


def _check_entries(entries: list[_Entry], max_files: int, limit: int) -> None:
    """Refuse an archive by its headers alone: too many files or folders, a name refused by
    `check_path`, the same name twice (also when only its case differs), a name that is both a
    file and a folder, a nested archive or compiled file by its name, too many bytes declared."""
    files = [entry for entry in entries if not entry.folder]
    if len(files) > max_files:
        raise UploadRefused(f"the archive holds {len(files)} files: the limit is {max_files}")
    if len(entries) - len(files) > max_files:
        raise UploadRefused(f"the archive holds more than {max_files} folders")
    seen: dict[str, str] = {}
    folders: set[str] = set()
    for entry in entries:
        path = check_path(entry.name, folder=entry.folder)
        entry.name = path
        if not path:
            continue
        key = unicodedata.normalize("NFC", path).casefold()
        if not entry.folder:
            if key in seen:
                same = "twice" if seen[key] == path else f"twice ({seen[key]!r} and {path!r})"
                raise UploadRefused(f"the archive holds the name {path!r} {same}")
            seen[key] = path
            suffix = PurePosixPath(path).suffix.lower()
            if suffix in FOREIGN_EXTENSIONS and not _skipped(path):
                raise UploadRefused(
                    f"{path} is an archive or a compiled file: upload sources only, in one archive"
                )
        parts = key.split("/")
        depth = len(parts) if entry.folder else len(parts) - 1
        folders.update("/".join(parts[:n]) for n in range(1, depth + 1))
    clash = sorted(set(seen) & folders)
    if clash:
        raise UploadRefused(f"the archive uses {clash[0]!r} as both a file and a folder")
    total = sum(entry.size for entry in files)
    if total > limit:
        raise UploadRefused(
            f"the archive's files inflate to {total} bytes: the limit is {limit} bytes"
        )


def _skipped(path: str) -> bool:
    """Whether a file is an archiver's own (a macOS `__MACOSX/` folder, `.DS_Store`)."""
    parts = path.split("/")
    return parts[0] in SKIPPED_FOLDERS or parts[-1] in SKIPPED_FILES


def _read_zip(data: bytes, max_files: int, limit: int) -> dict[str, bytes]:
    """The files of a zip archive, refused on any entry that is not a plain file or folder."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
        raise UploadRefused(f"the .zip file cannot be read ({exc})") from None
    except NotImplementedError as exc:  # a zip version or feature zipfile does not read
        raise UploadRefused(f"the .zip file cannot be read ({exc})") from None
    with archive:
        infos = archive.infolist()
        count = sum(not info.filename.endswith("/") for info in infos)
        if count > max_files:
            raise UploadRefused(f"the archive holds {count} files: the limit is {max_files}")
        if len(infos) > 2 * max_files:
            raise UploadRefused(f"the archive holds more than {max_files} folders")
        entries = []
        for info in infos:
            name = _zip_name(info)
            mode = info.external_attr >> 16
            kind = stat.S_IFMT(mode)
            folder = info.filename.endswith("/") or kind == stat.S_IFDIR
            if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
                raise UploadRefused(f"{name!r} is {_what(kind)}: only plain files are accepted")
            if info.flag_bits & 0x1:
                raise UploadRefused(f"{name!r} is encrypted: upload an archive without a password")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise UploadRefused(
                    f"{name!r} is compressed with a method this site does not read:"
                    " use plain zip (deflate)"
                )
            entries.append(_Entry(name, folder, 0 if folder else info.file_size))
        _check_entries(entries, max_files, limit)
        files: dict[str, bytes] = {}
        left = limit
        for info, entry in zip(infos, entries, strict=True):
            if entry.folder:
                continue
            try:
                with archive.open(info) as member:
                    content = member.read(left + 1)
            except (
                zipfile.BadZipFile,
                OSError,
                EOFError,
                zlib.error,
                ValueError,
                NotImplementedError,
            ) as exc:
                raise UploadRefused(f"the .zip file is damaged at {entry.name!r} ({exc})") from None
            if len(content) != entry.size:
                raise UploadRefused(
                    f"{entry.name!r} inflates to another size than its header says:"
                    " the archive is damaged"
                )
            left -= len(content)
            if not _skipped(entry.name):
                files[entry.name] = content
        return files


def _zip_name(info: zipfile.ZipInfo) -> str:
    """An entry's name as UTF-8: zipfile read a name without the UTF-8 flag as CP437, the
    bytes are read again as UTF-8 (what archivers write today), refused when they are not."""
    if info.flag_bits & 0x800:
        return info.filename
    raw = info.filename.encode("cp437")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UploadRefused(
            f"the name {raw!r} is not UTF-8: rename the file with plain letters"
        ) from None


def _what(kind: int) -> str:
    return {
        stat.S_IFLNK: "a symbolic link",
        stat.S_IFCHR: "a device",
        stat.S_IFBLK: "a device",
        stat.S_IFIFO: "a FIFO",
        stat.S_IFSOCK: "a socket",
    }.get(kind, "not a plain file")


def _read_tar(
    data: bytes, compressed: bool, max_files: int, limit: int, slack: int
) -> dict[str, bytes]:
    """The files of a tar archive (gzip-compressed or not): the gzip stream is inflated in
    memory with a bound first, then every header is checked before any content is read."""
    if compressed:
        bound = limit + slack
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
                data = stream.read(bound + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise UploadRefused(f"the .tar.gz file cannot be read ({exc})") from None
        if len(data) > bound:
            raise UploadRefused(
                f"the archive inflates to more than {bound} bytes: the limit is {limit} bytes"
            )
    try:
        archive = tarfile.open(  # noqa: SIM115 (closed by the `with` below)
            fileobj=io.BytesIO(data), mode="r:", encoding="utf-8", errors="surrogateescape"
        )
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise UploadRefused(f"the tar file cannot be read ({exc})") from None
    with archive:
        members: list[tarfile.TarInfo] = []
        count = 0
        try:
            while (member := archive.next()) is not None:
                members.append(member)
                count += not member.isdir()
                if count > max_files:
                    raise UploadRefused(
                        f"the archive holds more than {max_files} files: the limit is {max_files}"
                    )
                if len(members) > 2 * max_files:
                    raise UploadRefused(f"the archive holds more than {max_files} folders")
        except (tarfile.TarError, OSError, EOFError) as exc:
            raise UploadRefused(f"the tar file is damaged ({exc})") from None
        end = archive.offset
        if data[end:].strip(b"\0"):
            raise UploadRefused(
                "the tar file holds data after its last member's declared size"
                " (a header that lies about its size): the archive is damaged"
            )
        entries = []
        for member in members:
            name = _tar_name(member.name)
            if member.issym() or member.islnk():
                raise UploadRefused(f"{name!r} is a link: only plain files are accepted")
            if member.ischr() or member.isblk():
                raise UploadRefused(f"{name!r} is a device: only plain files are accepted")
            if member.isfifo():
                raise UploadRefused(f"{name!r} is a FIFO: only plain files are accepted")
            if member.issparse() or not (member.isreg() or member.isdir()):
                raise UploadRefused(f"{name!r} is not a plain file: only plain files are accepted")
            entries.append(_Entry(name, member.isdir(), member.size if member.isreg() else 0))
        _check_entries(entries, max_files, limit)
        files: dict[str, bytes] = {}
        for member, entry in zip(members, entries, strict=True):
            if entry.folder or _skipped(entry.name):
                continue
            files[entry.name] = data[member.offset_data : member.offset_data + member.size]
        return files


def _tar_name(name: str) -> str:
    """A member's name, refused when its bytes were not UTF-8 (tarfile kept them as
    surrogate escapes)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raw = name.encode("utf-8", "surrogateescape")
        raise UploadRefused(
            f"the name {raw!r} is not UTF-8: rename the file with plain letters"
        ) from None
    return name


def _strip_common_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    """An archive whose every file sits in one folder (`zip -r bot.zip bot/`) is read as
    that folder's contents."""
    while files and all("/" in path for path in files):
        tops = {path.split("/", 1)[0] for path in files}
        if len(tops) != 1:
            break
        files = {path.split("/", 1)[1]: content for path, content in files.items()}
    return files


def _choose(files: dict[str, bytes], max_source_bytes: int, *, archive: bool) -> Upload:
    """The language (the only one among the sources) and the main file: the only source of
    that language, else the one top-level `bot.EXT` or `main.EXT` (Java: `Bot.java` or
    `Main.java`)."""
    if not files:
        raise UploadRefused("the archive holds no file")
    for path, content in files.items():
        head = content[:8192]
        if _is_text(head):
            continue
        for offset, magic, what in FOREIGN_MAGIC:
            if head[offset : offset + len(magic)] == magic:
                raise UploadRefused(f"{path} is {what}: upload sources only, in one archive")
    by_language: dict[str, list[str]] = {}
    source_bytes = 0
    for path, content in files.items():
        suffix = PurePosixPath(path).suffix.lower()
        if suffix in LANGUAGES:
            by_language.setdefault(LANGUAGES[suffix].name, []).append(path)
            source_bytes += len(content)
        elif suffix in HEADERS:
            source_bytes += len(content)
    if source_bytes > max_source_bytes:
        raise UploadRefused(
            f"the sources are {source_bytes} bytes together: the limit is {max_source_bytes} bytes"
        )
    known = " ".join(sorted(LANGUAGES))
    if not by_language:
        if not archive:
            (path,) = files
            raise UploadRefused(f"{path} is not a source file this site builds ({known})")
        raise UploadRefused(f"the archive holds no source file this site builds ({known})")
    if len(by_language) > 1:
        named = "; ".join(
            f"{language}: {', '.join(sorted(paths)[:3])}"
            for language, paths in sorted(by_language.items())
        )
        raise UploadRefused(f"a bot is written in one language, this upload has several ({named})")
    ((language, sources),) = by_language.items()
    if len(sources) == 1:
        main = sources[0]
    else:
        stems = ("Bot", "Main") if language == "Java" else ("bot", "main")
        candidates = sorted(
            path for path in sources if "/" not in path and PurePosixPath(path).stem in stems
        )
        if len(candidates) != 1:
            names = " or ".join(f"{stem}{PurePosixPath(sources[0]).suffix}" for stem in stems)
            found = "both" if candidates else "none"
            raise UploadRefused(
                f"{len(sources)} {language} files and {found} at the top named {names}:"
                " name the file the bot starts from so (and only that one)"
            )
        main = candidates[0]
    if language == "Java" and not PurePosixPath(main).stem.isidentifier():
        raise UploadRefused(
            f"{main} is not named after a Java class: name it after its public class"
            " (Bot.java holds public class Bot)"
        )
    return Upload(files, language, main)


def _is_text(head: bytes) -> bool:
    """Whether a file's first bytes are UTF-8 text without NUL (a source that happens to
    start with `MZ` or `BZh` is text, a program or an archive never is)."""
    if b"\0" in head:
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True


def write_upload(upload: Upload, folder: Path) -> Path:
    """Write the upload's files into `folder`, made here (0o755; an existing empty folder
    that is not a link is taken too), files 0o644, never following a link: every folder is
    opened relative to its parent with O_NOFOLLOW and every file created with O_EXCL.
    Returns the main file's path."""
    folder = Path(folder)
    with contextlib.suppress(FileExistsError):
        os.mkdir(folder, 0o755)
    root = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        if os.listdir(root):
            raise FileExistsError(f"{folder} is not empty: an upload is written into a new folder")
        os.fchmod(root, 0o755)
        for path, content in upload.files.items():
            _write_file(root, path, content)
    finally:
        os.close(root)
    return folder / upload.main


def _write_file(root: int, path: str, content: bytes) -> None:
    """Create `path` below the folder `root` is open on, its folders first (0o755)."""
    *parents, name = path.split("/")
    fds = [root]
    try:
        for part in parents:
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, 0o755, dir_fd=fds[-1])
            flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
            fds.append(os.open(part, flags, dir_fd=fds[-1]))
            os.fchmod(fds[-1], 0o755)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(name, flags, 0o644, dir_fd=fds[-1])
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(fd, 0o644)
            handle.write(content)
    finally:
        for fd in fds[1:]:
            os.close(fd)
