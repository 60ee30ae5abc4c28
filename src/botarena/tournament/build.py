"""Build bot source files by extension into a cache keyed by the source's hash.

Python is checked with `py_compile`; C, C++, Java, Rust and Go are compiled with Debian's
toolchains (installed with apt when missing and the process is root). Every compiler runs
through `run_tool`, the one place a sandbox can wrap (the installer does not: it needs the
network and writes the system). The result is the command line (a
`play` bot spec) that runs the built bot; docs/bot-builds.md has the details.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import platform
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

BUILD_TIMEOUT_S = 300
"""Longest a compiler may run for one bot (Go's first build in a fresh cache compiles its
runtime, which takes a while on a busy machine)."""

INSTALL_TIMEOUT_S = 900
MESSAGE_LINES = 60
"""A compiler's message is cut to this many lines in the error block."""

OUTPUT_CAP_BYTES = 64 << 10
"""A compiler's output is kept up to this many bytes (the rest is read and dropped): an error
flood never fills the jury's memory or the author's terminal."""

SOURCE_LIMIT_BYTES = 1_474_560
"""The largest source built (the contest's limit); a larger one is refused unread."""

BUILT_CAP_BYTES = 64 << 20
BUILT_MAX_FILES = 4096
"""The most a build may leave behind, in all (each file is also capped at 256 MiB while it
is written): a source whose compiler writes thousands of classes or a huge binary is
refused and its output removed, not cached for every game."""

RECIPE = "3"
"""Part of every cache key, with the compiler's version (`toolchain`): bump it when a
compiler command below changes."""

MANIFEST = ".botarena-artefact"
"""The file in each built folder naming its cache key and every other file's SHA-256:
`verify` checks a folder against it before each game (docs/bot-builds.md)."""


class BuildError(Exception):
    """A bot that does not build: one readable block with bot, source, language and compiler."""


@dataclass(frozen=True)
class Language:
    """How one language is built and run. `compile` gets the build folder, the main file's
    path inside it and every source the compiler is given (the main file first); `run` gets
    the build folder and the main file's path."""

    name: str
    package: str
    """The Debian package that provides `tools`."""
    tools: tuple[str, ...]
    compile: Callable[[Path, str, list[str]], list[str]]
    run: Callable[[Path, str], list[str]]
    given: str = "all"
    """Which of a multi-file bot's sources the compiler is given besides the main file: `all`
    of the language's, those in the main file's `folder` (Go: one package), or `main` only
    (Rust finds its modules from `mod` lines)."""


def _tool(name: str) -> str:
    return shutil.which(name) or name


def _here(name: str) -> str:
    """A file of the build folder as `./NAME`: a source named `-o.c` is never an option."""
    return f"./{name}"


def _native(folder: Path, source: str) -> list[str]:
    return [str(folder / Path(source).stem)]


LANGUAGES: dict[str, Language] = {
    ".py": Language(
        "Python",
        "python3",
        (),
        lambda d, s, all_: [sys.executable, "-m", "py_compile", *map(_here, all_)],
        lambda d, s: [sys.executable, str(d / s)],
    ),
    ".c": Language(
        "C",
        "gcc",
        ("gcc",),
        lambda d, s, all_: [
            _tool("gcc"),
            "-O2",
            "-o",
            _here(Path(s).stem),
            *map(_here, all_),
            "-lm",
        ],
        _native,
    ),
    ".cpp": Language(
        "C++",
        "g++",
        ("g++",),
        lambda d, s, all_: [_tool("g++"), "-O2", "-o", _here(Path(s).stem), *map(_here, all_)],
        _native,
    ),
    ".java": Language(
        "Java",
        "default-jdk-headless",
        ("javac", "java"),
        lambda d, s, all_: [_tool("javac"), "-encoding", "UTF-8", "-d", ".", *map(_here, all_)],
        lambda d, s: [_tool("java"), "-cp", str(d), Path(s).stem],
    ),
    ".rs": Language(
        "Rust",
        "rustc",
        ("rustc",),
        lambda d, s, all_: [
            _tool("rustc"),
            "--edition",
            "2021",
            "-O",
            "-o",
            _here(Path(s).stem),
            _here(s),
        ],
        _native,
        given="main",
    ),
    ".go": Language(
        "Go",
        "golang-go",
        ("go",),
        lambda d, s, all_: [_tool("go"), "build", "-o", _here(Path(s).stem), *map(_here, all_)],
        _native,
        given="folder",
    ),
}
LANGUAGES[".cc"] = LANGUAGES[".cpp"]


def language_of(source: Path) -> Language:
    """The language a source file's extension names; raises BuildError for any other."""
    try:
        return LANGUAGES[source.suffix.lower()]
    except KeyError:
        known = ", ".join(sorted(LANGUAGES))
        raise BuildError(
            f"{source}: cannot build a {source.suffix or 'extension-less'} file"
            f" (known extensions: {known})"
        ) from None


def run_tool(
    argv: list[str],
    cwd: Path,
    *,
    timeout: float,
    env: dict[str, str] | None = None,
    writable: tuple[Path, ...] = (),
) -> tuple[int | None, str]:
    """Run one compiler in `cwd`; returns (exit code, its stdout and stderr together), the
    code None when it ran past `timeout` seconds. `env` holds only the variables the build
    adds to the environment; `writable` names the folders the compiler must write to besides
    `cwd`. Every compiler goes through here, so a sandbox can confine builds in this one
    place: it runs in the bots' sandbox (core/sandbox/), with more processes and memory
    than a bot gets (a JVM or `go build` starts many threads), writing only to `cwd` and
    `writable`."""
    from botarena.core import sandbox

    limits = sandbox.Sandbox(
        memory_mib=BUILD_MEMORY_MIB, processes=BUILD_PROCESSES, file_size_mib=256
    )
    try:
        done = sandbox.run(
            _visible(argv),
            cwd=str(cwd),
            writable=[str(cwd), *map(str, writable)],
            timeout=timeout,
            env=env,
            sandbox=limits,
            output_cap=OUTPUT_CAP_BYTES + 1,
        )
    except subprocess.TimeoutExpired as late:  # what it said before it was stopped
        return None, _said(late.output, late.stderr, cwd)
    except OSError as exc:
        return 127, f"cannot run {argv[0]}: {exc}"
    return done.returncode, _said(done.stdout, done.stderr, cwd)


def _said(stdout: bytes | None, stderr: bytes | None, cwd: Path) -> str:
    """A tool's output as text, at most OUTPUT_CAP_BYTES of it (saying so when cut); the
    sandbox names the source by its absolute path, the author knows it by its name."""
    raw = (stdout or b"") + (stderr or b"")
    output = raw[:OUTPUT_CAP_BYTES].decode(errors="replace")
    output = output.replace(f"{Path(cwd).resolve()}/", "")
    if len(raw) > OUTPUT_CAP_BYTES:
        output += f"\n... (output cut at {OUTPUT_CAP_BYTES >> 10} KiB)"
    return output


BUILD_MEMORY_MIB = 2048
BUILD_PROCESSES = 512


def _visible(argv: list[str]) -> list[str]:
    """`argv` with a toolchain proxy (rustup's `rustc` in ~/.cargo/bin) replaced by the real
    compiler and its sysroot named, so the sandbox, which shows a command only the files it
    names, shows the toolchain too."""
    if Path(argv[0]).name != "rustc" or "/.cargo/" not in argv[0]:
        return argv
    try:
        sysroot = subprocess.run(
            [argv[0], "--print", "sysroot"], capture_output=True, text=True, timeout=60, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return argv
    return [str(Path(sysroot) / "bin" / "rustc"), "--sysroot", sysroot, *argv[1:]]


def _run(
    argv: list[str], cwd: Path, *, timeout: float, env: dict[str, str] | None = None
) -> tuple[int | None, str]:
    """Run a command in its own process group with `env` added to this process's
    environment, output captured; past `timeout` the whole group is killed (a compiler's own
    children too) and the code is None."""
    from botarena.core.sandbox import become_subreaper

    become_subreaper()  # what the tool leaves (bubblewrap's own processes) comes to us
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env={**os.environ, **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as exc:
        return 127, f"cannot run {argv[0]}: {exc}"
    status: int | None
    try:
        output, _ = proc.communicate(timeout=timeout)
        status = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        status = None
    _end_group(proc.pid)
    return status, output.decode(errors="replace")


def _end_group(pgid: int) -> None:
    """Kill what the tool left in its process group and reap those that became our children
    (when botarena is a child subreaper, as process players make it, orphans come to us)."""
    from botarena.core.sandbox import reap_group

    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    reap_group(pgid)


def read_source(source: Path, max_bytes: int = SOURCE_LIMIT_BYTES) -> bytes:
    """The bytes of a bot's source, read without following a link out of its folder: a
    link (`bot.c -> /etc/shadow`) to a file outside the source's folder, anything but a
    regular file, or more than `max_bytes` bytes is refused (ValueError) and never read."""
    folder = source.parent.resolve()
    real = source.resolve()
    if real.parent != folder and folder not in real.parents:
        raise ValueError(
            f"the source is a link out of its folder ({source.name} -> {real}): refused, not read"
        )
    fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("the source is not a regular file: refused, not read")
        code = handle.read(max_bytes + 1)
    if len(code) > max_bytes:
        raise ValueError(f"the source is larger than {max_bytes} bytes: refused")
    return code


def build_bot(
    source: Path, cache_dir: Path, *, name: str, max_bytes: int = SOURCE_LIMIT_BYTES
) -> str:
    """Build `source` (once: the output is kept under `cache_dir` by the hash of the source
    and recipe) and return the command line that runs the built bot, a `play` bot spec.
    Raises BuildError, one block naming bot, source and language with the compiler's message,
    for a source refused by `read_source`, an unknown extension, a missing toolchain that
    cannot be installed, or a failed build."""
    source = Path(source).absolute()
    language = language_of(source)
    if language.name == "Java" and not source.stem.isidentifier():
        raise BuildError(
            _block(
                name,
                source,
                language,
                f"{source.stem!r} is not a Java class name: the source's name must be one",
            )
        )
    try:
        code = read_source(source, max_bytes)
    except OSError as exc:
        raise BuildError(_block(name, source, language, f"cannot read the source: {exc}")) from None
    except ValueError as exc:
        raise BuildError(_block(name, source, language, str(exc))) from None
    _ensure_tools(language, name, source)
    head = f"{RECIPE}\0{language.name}\0{toolchain(language)}\0{source.name}\0"
    digest = hashlib.sha256(head.encode() + code)
    cache_dir = Path(cache_dir).absolute()
    target = cache_dir / f"{language.name.lower()}-{digest.hexdigest()[:20]}"
    if not target.is_dir():
        cache_dir.mkdir(parents=True, exist_ok=True)
        _build(language, {source.name: code}, source.name, source, target, name)
    return shlex.join(language.run(target, source.name))


MAX_FOLDER_FILES = 256
"""The most files a bot's folder may hold (an upload holds 64 by default)."""


def build_folder(
    folder: Path,
    main: str,
    cache_dir: Path,
    *,
    name: str,
    max_bytes: int = SOURCE_LIMIT_BYTES,
    max_files: int = MAX_FOLDER_FILES,
) -> str:
    """`built_folder`'s command line that runs the built bot."""
    return built_folder(
        folder, main, cache_dir, name=name, max_bytes=max_bytes, max_files=max_files
    )[0]


def built_folder(
    folder: Path,
    main: str,
    cache_dir: Path,
    *,
    name: str,
    max_bytes: int = SOURCE_LIMIT_BYTES,
    max_files: int = MAX_FOLDER_FILES,
) -> tuple[str, Path]:
    """Build the bot in `folder` (a contestant's upload as `arena.uploads.write_upload` wrote
    it) whose main file is `main` (a relative POSIX path in it), once, and return the command
    line that runs it, as `build_bot` does for one file, and the built folder. The language
    is the main file's; the compiler is given the main file and the language's other sources
    in the folder (see `Language.given`); every other file is copied along (the bot reads it
    from its folder). The cache key is the hash of every file's path and bytes, the language
    and its compiler's version (`toolchain`). Raises BuildError for a folder
    holding a link or anything but plain files and folders, more than `max_files` files or
    `max_bytes` bytes together, an unknown extension or a failed build."""
    folder = Path(folder).absolute()
    source = folder / main
    language = language_of(source)
    if language.name == "Java" and not source.stem.isidentifier():
        raise BuildError(
            _block(name, source, language, f"{source.stem!r} is not a Java class name")
        )
    try:
        files = _read_folder(folder, max_bytes, max_files)
    except (OSError, ValueError) as exc:
        raise BuildError(_block(name, source, language, str(exc))) from None
    if main not in files:
        raise BuildError(_block(name, source, language, f"{main} is not a file of {folder}"))
    _ensure_tools(language, name, source)
    head = f"{RECIPE}\0folder\0{language.name}\0{toolchain(language)}\0{main}\0"
    digest = hashlib.sha256(head.encode())
    for path in sorted(files):
        digest.update(f"{path}\0{len(files[path])}\0".encode() + files[path])
    cache_dir = Path(cache_dir).absolute()
    target = cache_dir / f"{language.name.lower()}-{digest.hexdigest()[:20]}"
    if not target.is_dir():
        cache_dir.mkdir(parents=True, exist_ok=True)
        _build(language, files, main, source, target, name)
    return shlex.join(language.run(target, main)), target


def toolchain(language: Language) -> str:
    """The language's compiler as it names its version (its first line: `gcc (Debian
    12.2.0-14) 12.2.0`), part of every cache key, so a worker whose compiler differs builds
    its own artefact. Asked once per process."""
    return _toolchain(language.name, language.tools[0] if language.tools else "")


@functools.lru_cache(maxsize=16)
def _toolchain(name: str, tool: str) -> str:
    if not tool:
        return f"Python {platform.python_version()}"
    flag = {"Go": "version", "Java": "-version"}.get(name, "--version")
    try:
        done = subprocess.run(
            [_tool(tool), flag], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{tool}: {exc}"
    said = (done.stdout + done.stderr).strip().splitlines()
    return said[0] if said else f"{tool}: exit status {done.returncode}"


def _digests(folder: Path) -> dict[str, str]:
    """Every file below `folder` but the manifest, by relative path: its SHA-256."""
    found = {}
    for parent, _folders, names in os.walk(folder):
        for file in names:
            path = Path(parent, file)
            relative = path.relative_to(folder).as_posix()
            if relative != MANIFEST and not path.is_symlink():
                found[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def verify(target: Path) -> str:
    """Why the built folder `target` is not the artefact its name (its cache key) promises
    ('' when it is): a manifest missing or of another key, a file missing, added or changed."""
    try:
        manifest = json.loads((target / MANIFEST).read_text())
        files = _digests(target)
    except (OSError, ValueError) as exc:
        return f"its manifest cannot be read ({exc})"
    if not isinstance(manifest, dict) or manifest.get("key") != target.name:
        return "its manifest names another key"
    wanted = manifest.get("files")
    if files != wanted:
        wanted = wanted if isinstance(wanted, dict) else {}
        changed = sorted(set(files) ^ set(wanted) | {p for p in files if wanted.get(p) != files[p]})
        return f"{len(changed)} file(s) differ from its manifest: {', '.join(changed[:3])}"
    return ""


def _read_folder(folder: Path, max_bytes: int, max_files: int) -> dict[str, bytes]:
    """Every file below `folder` by relative POSIX path, read without following a link:
    a link or anything but a plain file or folder is refused (ValueError), as are more than
    `max_files` files or `max_bytes` bytes together."""
    files: dict[str, bytes] = {}
    left = max_bytes
    pending = [""]
    while pending:
        prefix = pending.pop()
        with os.scandir(folder / prefix if prefix else folder) as entries:
            for entry in sorted(entries, key=lambda entry: entry.name):
                path = f"{prefix}{entry.name}"
                if entry.is_symlink():
                    raise ValueError(f"{path} is a link: a bot's folder holds plain files only")
                if entry.is_dir(follow_symlinks=False):
                    pending.append(f"{path}/")
                    continue
                if not entry.is_file(follow_symlinks=False):
                    raise ValueError(f"{path} is not a plain file")
                if len(files) == max_files:
                    raise ValueError(f"the bot's folder holds more than {max_files} files")
                fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
                with os.fdopen(fd, "rb") as handle:
                    if not stat.S_ISREG(os.fstat(fd).st_mode):
                        raise ValueError(f"{path} is not a plain file")
                    content = handle.read(left + 1)
                if len(content) > left:
                    raise ValueError(f"the bot's files are larger than {max_bytes} bytes together")
                left -= len(content)
                files[path] = content
    return files


def _given(language: Language, files: dict[str, bytes], main: str) -> list[str]:
    """The sources the compiler is given: the main file first, then the language's other
    sources (all of them, those in the main file's folder, or none: `Language.given`)."""
    others = sorted(
        path
        for path in files
        if path != main and LANGUAGES.get(Path(path).suffix.lower()) is language
    )
    if language.given == "folder":
        others = [path for path in others if Path(path).parent == Path(main).parent]
    elif language.given == "main":
        others = []
    return [main, *others]


def _build(
    language: Language,
    files: dict[str, bytes],
    main: str,
    source: Path,
    target: Path,
    name: str,
) -> None:
    """Compile a copy of the bot's files in a fresh folder, then move the folder to `target`
    in one rename, so a half-built bot is never found in the cache (and two builders of the
    same source simply keep the first result)."""
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    try:
        for path, content in files.items():
            (work / path).parent.mkdir(parents=True, exist_ok=True)
            (work / path).write_bytes(content)
        argv = language.compile(work, main, _given(language, files, main))
        env: dict[str, str] = {}
        # the folders of a multi-file bot too: Python writes __pycache__ beside each module
        writable = tuple(sorted({(work / path).parent for path in files} - {work}))
        if language.name == "Go":
            go_cache = target.parent / ".go-cache"
            go_cache.mkdir(exist_ok=True)
            env = {
                "GOCACHE": str(go_cache),
                "GOTOOLCHAIN": "local",
                "GOPROXY": "off",
                "GO111MODULE": "off",
                "GOPATH": str(target.parent / ".go-path"),
            }
            writable += (go_cache,)
        status, output = run_tool(argv, work, timeout=BUILD_TIMEOUT_S, env=env, writable=writable)
        if status != 0:
            what = (
                f"the compiler ran past {BUILD_TIMEOUT_S} s and was stopped"
                if status is None
                else f"exit status {status}"
            )
            raise BuildError(_block(name, source, language, output, argv=argv, status=what))
        excess = _too_much(work)
        if excess:
            raise BuildError(_block(name, source, language, excess, argv=argv))
        manifest = {"key": target.name, "files": _digests(work)}
        (work / MANIFEST).write_text(json.dumps(manifest, sort_keys=True))
        try:
            work.rename(target)
        except OSError:
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _too_much(folder: Path) -> str:
    """Why a build's folder holds more than a build may leave ('' when it does not)."""
    total = count = 0
    for parent, _folders, names in os.walk(folder):
        for file in names:
            count += 1
            try:
                total += os.lstat(os.path.join(parent, file)).st_size
            except OSError:
                continue
            if total > BUILT_CAP_BYTES or count > BUILT_MAX_FILES:
                return (
                    f"the build wrote more than {BUILT_CAP_BYTES >> 20} MiB or"
                    f" {BUILT_MAX_FILES} files (docs/bot-builds.md)"
                )
    return ""


def _ensure_tools(language: Language, name: str, source: Path) -> None:
    """Install the language's Debian package when one of its tools is missing (root only)."""
    missing = [tool for tool in language.tools if shutil.which(tool) is None]
    if not missing:
        return
    if os.geteuid() != 0:
        raise BuildError(
            _block(
                name,
                source,
                language,
                f"{', '.join(missing)} not found: install the Debian package"
                f" {language.package} (apt-get install {language.package})",
            )
        )
    lock = ["-o", "DPkg::Lock::Timeout=300"]
    env = {"DEBIAN_FRONTEND": "noninteractive"}
    for argv in (
        ["apt-get", *lock, "update", "-qq"],
        ["apt-get", *lock, "install", "-y", "-qq", language.package],
    ):
        status, output = _run(argv, Path("/"), timeout=INSTALL_TIMEOUT_S, env=env)
        if status != 0:
            raise BuildError(
                _block(
                    name,
                    source,
                    language,
                    output,
                    argv=argv,
                    status=f"installing {language.package} failed",
                )
            )
    still = [tool for tool in language.tools if shutil.which(tool) is None]
    if still:
        raise BuildError(
            _block(
                name,
                source,
                language,
                f"{', '.join(still)} still missing after installing {language.package}",
            )
        )


def _block(
    name: str,
    source: Path,
    language: Language,
    message: str,
    *,
    argv: list[str] | None = None,
    status: str | None = None,
) -> str:
    """The error block an author reads: what failed, the command, the tool's own words."""
    lines = message.rstrip().splitlines() or ["(no message)"]
    if len(lines) > MESSAGE_LINES:
        lines = [*lines[:MESSAGE_LINES], f"... ({len(lines) - MESSAGE_LINES} more lines)"]
    head = f"bot {name!r} did not build: {language.name} source {source}"
    if status:
        head += f" ({status})"
    body = [f"  $ {shlex.join(argv)}"] if argv else []
    body += [f"  {line}" for line in lines]
    return "\n".join([head, *body])
