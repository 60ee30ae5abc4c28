"""Test fixtures (the data folder, system tools, servers) and the suite's own rules: tests
that need a server, a browser or PostgreSQL are `slow`; in CI a skip is a failure; a test
session leaves no process and no file behind."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from testdata import DATA


def debian_program(program: str, package: str) -> str:
    """The path of `program`; the test is skipped, naming the Debian package to install,
    when it is missing (tests install nothing; in CI a skip fails the run: see
    `pytest_runtest_makereport`)."""
    path = shutil.which(program)
    if path is None:
        pytest.skip(f"{program} is missing: apt-get install {package}")
    return path


def processes() -> Iterator[tuple[int, str, int, bytes]]:
    """(pid, state, parent pid, command line) of every process, from /proc; a zombie, which
    has no command line, is named by its [program name]."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        state, parent = stat[stat.rfind(")") + 2 :].split()[:2]
        name = stat[stat.find("(") + 1 : stat.rfind(")")]
        yield int(entry), state, int(parent), cmdline or f"[{name}]".encode()


def alive(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def run_botarena(
    *args: str, cwd: Path, timeout: float = 300, **env: str
) -> subprocess.CompletedProcess[str]:
    """`python -m botarena ARGS` in `cwd`, as a user runs it, with `env` added to this
    process's environment; its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **env},
    )


def botarena_ok(*args: str, cwd: Path, timeout: float = 300, **env: str) -> str:
    """The standard output of a botarena command that must succeed."""
    done = run_botarena(*args, cwd=cwd, timeout=timeout, **env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def fresh_database(server: str) -> str:
    """The URL of a new, empty database on the PostgreSQL `server` (of `postgres_server`),
    created once the server takes connections."""
    import time
    import uuid

    import sqlalchemy as sa

    name = f"t{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    for attempt in range(100):  # the server may still be starting
        try:
            with engine.connect() as conn:
                conn.exec_driver_sql(f"CREATE DATABASE {name}")
            break
        except sa.exc.OperationalError:
            if attempt == 99:
                raise
            time.sleep(0.2)
    engine.dispose()
    return f"{server}/{name}"


def leftovers(marker: str | Path) -> list[str]:
    """Processes still alive whose command line names `marker`, and zombie children of this
    process (a zombie has no command line): what a finished game must not leave behind."""
    return [
        f"{pid}: {cmdline!r} {state}"
        for pid, state, parent, cmdline in processes()
        if str(marker).encode() in cmdline or (state == "Z" and parent == os.getpid())
    ]


SLOW_FIXTURES = {"postgres_server", "browser"}
"""Tests using these (a real server, a browser) are marked slow wherever they are."""

REPOSITORY = Path(__file__).resolve().parents[1]


LONGEST_FIRST = (
    "test_season.py",
    "test_docs_commands.py",
    "test_tournament_kill.py",
    "test_api_fuzz.py",
    "test_stats_sprt.py",
    "test_tournament_demo.py",
    "test_arena_browser.py",
    "test_stats_settle.py",
    "test_supervision.py",
)
"""Modules of the longest tests (30-100 s each in CI), run first: xdist hands tests out in
their order, and one of them started last kept one worker busy long after the other had
finished."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        params = getattr(item, "callspec", None)
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())) or (
            params is not None and "postgresql" in params.params.values()
        ):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.path.name not in LONGEST_FIRST)  # stable: else as found


def _ci_fails_skips(report: pytest.TestReport | pytest.CollectReport) -> None:
    """In CI (`CI` set, as .ci/run does) a skipped test fails: CI installs every tool the
    suite needs, so a skip there means something silently went untested."""
    if report.skipped and os.environ.get("CI") and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where nothing may be: {reason}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport() -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    _ci_fails_skips(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report() -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """A whole module skipped at collection (pytest.importorskip, a module-level skip) too."""
    report = yield
    _ci_fails_skips(report)
    return report


INTERPRETER_HELPERS = (b"multiprocessing.forkserver", b"multiprocessing.resource_tracker")
"""Children that multiprocessing keeps for the whole interpreter once a pool has run (the
tournament's local pool, in-process): they end with it and are nobody's leak."""


def _children() -> list[str]:
    """This process's live and zombie children, but multiprocessing's own helpers."""
    return [
        f"{pid} ({state}): {cmdline!r}"
        for pid, state, parent, cmdline in processes()
        if parent == os.getpid() and not any(helper in cmdline for helper in INTERPRETER_HELPERS)
    ]


def _files() -> set[Path]:
    """Every file in the repository, ignored ones too (a stray replay is ignored by git but
    still left behind), but version control, virtualenvs and caches; and the files at the top
    of the current folder when it is elsewhere (where a relative path lands)."""
    skipped = {
        ".git",
        ".venv",
        "__pycache__",
        ".hypothesis",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
    }
    found = set()
    for folder, subfolders, names in os.walk(REPOSITORY):
        subfolders[:] = [name for name in subfolders if name not in skipped]
        found.update(Path(folder, name) for name in names)
    if not Path.cwd().is_relative_to(REPOSITORY):
        found.update(path for path in Path.cwd().iterdir() if path.name not in skipped)
    return found


@pytest.fixture(autouse=True)
def not_a_subreaper() -> Iterator[None]:
    """After each test, this process stops being a child subreaper (an in-process jury made
    it one, to reap its own bots): orphans of the `botarena` commands later tests start must
    go to init, as they do under a user's shell, not become zombies of the test process."""
    yield
    from botarena.core.sandbox import PR_SET_CHILD_SUBREAPER

    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


QUICK_HASH = {"time_cost": 1, "memory_cost": 1024, "parallelism": 1}
"""argon2id at a test's cost: the site's own (3 passes, 64 MiB) takes 170 ms a hash on the
CI machine, and the site's tests sign up and log in hundreds of times."""


@pytest.fixture(autouse=True)
def quick_password_hashes(request: pytest.FixtureRequest) -> Iterator[None]:
    """In this process, the site hashes passwords at QUICK_HASH's cost (same algorithm,
    same code paths); a test marked `real_hasher` (the hashing itself, its parameters and
    what they size) keeps the site's own. Sites run as processes always hash for real."""
    if request.node.get_closest_marker("real_hasher") is not None:
        yield
        return
    try:
        from argon2 import PasswordHasher

        from botarena.arena import auth
    except ImportError:  # the site's extras are not installed: nothing hashes here
        yield
        return
    real = auth._hasher
    auth._hasher = PasswordHasher(**QUICK_HASH)
    try:
        yield
    finally:
        auth._hasher = real


@pytest.fixture(scope="session", autouse=True)
def nothing_left_behind(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Fails the session (an error in its last teardown) if its tests left a process (a
    child, or any process naming their temporary folders), a zombie or a file in the
    repository or the current folder: every test works in its own temporary folder and ends
    what it starts. (Files left in TMPDIR: pytest_sessionfinish.)"""
    before = _files()
    yield
    import time

    deadline = time.monotonic() + 5  # a bot killed at a game's end may still be exiting
    while _children() and time.monotonic() < deadline:
        time.sleep(0.1)
    temporary = str(tmp_path_factory.getbasetemp()).encode()
    named = [
        f"{pid} ({state}): {cmdline!r}"
        for pid, state, parent, cmdline in processes()
        if temporary in cmdline and parent != os.getpid()
    ]
    problems = [f"process left running: {process}" for process in _children() + named]
    problems += [f"file left behind: {path}" for path in sorted(_files() - before)]
    assert not problems, "\n".join(problems)


_SESSION_TMP = pytest.StashKey[str]()
TMP_CACHES = ("pytest-of-", "botarena-testdata-", "botarena-maps-", "pymp-")
"""What may stay in the session's TMPDIR: pytest's temporary folders (tmp_path), data
unpacked once (tests/testdata.py, botarena.core.maps), and multiprocessing's folders, which a
process removes at exit unless the test kills it (kill -9, as test_tournament_kill does)."""


def pytest_configure(config: pytest.Config) -> None:
    """The session gets a private TMPDIR (inherited by the xdist workers and every program the
    tests start), so a file a test leaves outside its tmp_path is seen at the end."""
    if hasattr(config, "workerinput"):
        return
    import tempfile

    folder = tempfile.mkdtemp(prefix="botarena-tests-")
    os.chmod(folder, 0o755)  # the postgres user reaches its server's folder in there
    config.stash[_SESSION_TMP] = folder
    os.environ["TMPDIR"] = folder
    tempfile.tempdir = None  # forget a choice made before TMPDIR was set


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fails the run if a test left something in the session's TMPDIR outside its tmp_path;
    removes TMPDIR when the run passed (kept otherwise, with the failed tests' folders)."""
    folder = session.config.stash.get(_SESSION_TMP, None)
    if folder is None:
        return
    left = sorted(name for name in os.listdir(folder) if not name.startswith(TMP_CACHES))
    if left:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                f"\nFAILED: tests left {', '.join(left)} in {folder}, outside their tmp_path",
                red=True,
            )
    if session.exitstatus == 0:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def data() -> Path:
    """The test data folder inside the repository (tests/data, see its README)."""
    return DATA


@pytest.fixture(scope="session")
def cc() -> str:
    """A C compiler (Debian's gcc)."""
    return debian_program("gcc", "gcc")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A real PostgreSQL server for this test session (Debian's, tests/pgserver.py); yields
    its URL without a database."""
    import pgserver

    if pgserver.bindir() is None:
        pytest.skip("PostgreSQL's initdb is missing: apt-get install postgresql")
    with pgserver.running() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new store, once as a SQLite file and once as a new database on the
    session's PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    return fresh_database(request.getfixturevalue("postgres_server"))


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, driven by Playwright (tests/browser.py); never a
    downloaded browser."""
    from playwright.sync_api import sync_playwright

    from browser import launch

    debian_program("chromium", "chromium")
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def cgroups_backend(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """BOTARENA_CGROUPS set to the test's parameter (v1, v2 or off; none: the machine's
    choice), the cached choice cleared around the test."""
    from botarena.core import cgroups

    choice = getattr(request, "param", "")
    if choice:
        monkeypatch.setenv(cgroups.CHOICE, choice)
    cgroups.available.cache_clear()
    yield choice
    cgroups.available.cache_clear()


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """pytest's tmp_path, readable by the sandbox's user (nobody, when the tests run as
    root): pytest makes it 0700, and a bot in it could not read its own files."""
    tmp_path.chmod(0o755)
    return tmp_path
