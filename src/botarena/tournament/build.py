"""Build bot source files by extension into a cache keyed by the source's hash.

Python is checked with `py_compile`; C, C++, Java, Rust and Go are compiled with Debian's
toolchains (installed with apt when missing and the process is root). Every compiler runs
through `run_tool`, the one place a sandbox can wrap (the installer does not: it needs the
network and writes the system). The result is the command line (a
`play` bot spec) that runs the built bot; docs/bot-builds.md has the details.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
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

RECIPE = "2"
"""Part of every cache key: bump it when a compiler command below changes."""


class BuildError(Exception):
    """A bot that does not build: one readable block with bot, source, language and compiler."""


@dataclass(frozen=True)
class Language:
    """How one language is built and run. `compile` and `run` get the build folder and the
    source file's name (the copy inside that folder)."""

    name: str
    package: str
    """The Debian package that provides `tools`."""
    tools: tuple[str, ...]
    compile: Callable[[Path, str], list[str]]
    run: Callable[[Path, str], list[str]]


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
        lambda d, s: [sys.executable, "-m", "py_compile", _here(s)],
        lambda d, s: [sys.executable, str(d / s)],
    ),
    ".c": Language(
        "C",
        "gcc",
        ("gcc",),
        lambda d, s: [_tool("gcc"), "-O2", "-o", _here(Path(s).stem), _here(s), "-lm"],
        _native,
    ),
    ".cpp": Language(
        "C++",
        "g++",
        ("g++",),
        lambda d, s: [_tool("g++"), "-O2", "-o", _here(Path(s).stem), _here(s)],
        _native,
    ),
    ".java": Language(
        "Java",
        "default-jdk-headless",
        ("javac", "java"),
        lambda d, s: [_tool("javac"), "-encoding", "UTF-8", "-d", ".", _here(s)],
        lambda d, s: [_tool("java"), "-cp", str(d), Path(s).stem],
    ),
    ".rs": Language(
        "Rust",
        "rustc",
        ("rustc",),
        lambda d, s: [
            _tool("rustc"),
            "--edition",
            "2021",
            "-O",
            "-o",
            _here(Path(s).stem),
            _here(s),
        ],
        _native,
    ),
    ".go": Language(
        "Go",
        "golang-go",
        ("go",),
        lambda d, s: [_tool("go"), "build", "-o", _here(Path(s).stem), _here(s)],
        _native,
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
    place: it runs in the bots' sandbox (core/sandbox.py), with more processes and memory
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
    digest = hashlib.sha256(f"{RECIPE}\0{language.name}\0{source.name}\0".encode() + code)
    cache_dir = Path(cache_dir).absolute()
    target = cache_dir / f"{language.name.lower()}-{digest.hexdigest()[:20]}"
    if not target.is_dir():
        _ensure_tools(language, name, source)
        cache_dir.mkdir(parents=True, exist_ok=True)
        _build(language, code, source, target, name)
    return shlex.join(language.run(target, source.name))


def _build(language: Language, code: bytes, source: Path, target: Path, name: str) -> None:
    """Compile a copy of the source in a fresh folder, then move the folder to `target` in
    one rename, so a half-built bot is never found in the cache (and two builders of the
    same source simply keep the first result)."""
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    try:
        (work / source.name).write_bytes(code)
        argv = language.compile(work, source.name)
        env: dict[str, str] = {}
        writable: tuple[Path, ...] = ()
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
            writable = (go_cache,)
        status, output = run_tool(argv, work, timeout=BUILD_TIMEOUT_S, env=env, writable=writable)
        if status != 0:
            what = (
                f"the compiler ran past {BUILD_TIMEOUT_S} s and was stopped"
                if status is None
                else f"exit status {status}"
            )
            raise BuildError(_block(name, source, language, output, argv=argv, status=what))
        try:
            work.rename(target)
        except OSError:
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)


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
