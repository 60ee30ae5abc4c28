"""Running and working: `run` plays a tournament under a progress bar, `work` is a worker
on any machine that reaches the store."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from botarena.cliparts import DEFAULT_DB, MAX_GAMES, MAX_WORKERS, DbOption, within
from botarena.tournament.cli.common import fail, find_tournament, open_store, rich_console

if TYPE_CHECKING:
    from botarena.tournament.store import Store, Tournament


def run(
    name: Annotated[str, typer.Argument(help="the tournament")],
    workers: Annotated[
        int | None,
        typer.Option(
            help="worker processes (default: one per core; 0: play in this process)",
            callback=within(0, MAX_WORKERS),
        ),
    ] = None,
    db: DbOption = DEFAULT_DB,
    dask: Annotated[
        str | None,
        typer.Option(
            help="play on this Dask cluster's workers (tcp://HOST:PORT) instead of locally"
        ),
    ] = None,
    dask_timeout: Annotated[
        float | None,
        typer.Option(
            "--dask-timeout",
            help="seconds to wait for the --dask scheduler to greet and give a worker (default 10)",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            help="ladder: play this many more games, then stop",
            callback=within(None, MAX_GAMES),
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option("--for", help="ladder: stop claiming games after this many seconds"),
    ] = None,
    no_sandbox: Annotated[
        bool,
        typer.Option(
            "--no-sandbox",
            help="run process bots unconfined (trusted bots only; needed where bubblewrap"
            " or the memory/pids cgroups are missing)",
        ),
    ] = False,
) -> None:
    """Play what is left, with a progress bar; resumes by itself after any interruption.
    A ladder plays until stopped (Ctrl-C, SIGTERM), --games N more games, or --for S.
    Process bots play in the sandbox; where it cannot confine them, run refuses them."""
    from concurrent.futures.process import BrokenProcessPool

    from botarena.tournament.executors import Executor, LocalExecutor

    if dask is not None and workers is not None:
        fail("--workers and --dask exclude each other (the cluster's workers play)")
    if (games is not None and games < 1) or (seconds is not None and not seconds > 0):
        fail("--games and --for must be positive")
    with open_store(db) as store:
        tournament = find_tournament(store, name)
        if not no_sandbox:
            refuse_unconfined([bot.spec for bot in store.bots(tournament)], "tournament run")
        if tournament.schedule == "ladder" or games is not None or seconds is not None:
            if tournament.schedule != "ladder":
                fail(
                    f"--games and --for are for ladders; {name} is a {tournament.schedule}"
                    " tournament (run plays what is left)"
                )
            if dask is not None:
                fail(
                    "--dask plays finite tournaments; a ladder's workers are"
                    " `botarena tournament work --db URL` on each machine"
                )
            if tournament.schedule == "ladder" and len(store.bots(tournament)) < 2:
                fail(
                    f"ladder {name} has {len(store.bots(tournament))} active bot(s): add-bot first"
                )
            _work(store, db, [name], workers, games, seconds, sandbox=not no_sandbox)
            return
        executor: Executor
        if dask is not None:
            from botarena.tournament.cluster import (
                CONNECT_TIMEOUT_S,
                ClusterError,
                DaskExecutor,
            )

            if dask_timeout is not None and not 0 < dask_timeout <= 3600:
                fail("--dask-timeout must be above 0 and at most 3600 seconds")
            try:
                executor = DaskExecutor(dask, dask_timeout or CONNECT_TIMEOUT_S)
            except ClusterError as exc:
                fail(str(exc))
        else:
            specs = [bot.spec for bot in store.bots(tournament)]
            executor = LocalExecutor.for_tournament(tournament, specs, workers)
        try:
            played = play_with_progress(store, tournament, executor, sandbox=not no_sandbox)
        except KeyboardInterrupt:
            print(
                f"interrupted: run `botarena tournament run {name}` again to go on", file=sys.stderr
            )
            raise typer.Exit(130) from None
        except BrokenProcessPool:
            print(
                f"botarena: error: a worker process died; run `botarena tournament run"
                f" {name}` again to go on",
                file=sys.stderr,
            )
            raise typer.Exit(1) from None
        finally:
            executor.shutdown()
        counts = store.counts(tournament)
    errors = counts.get("error", 0)
    print(
        f"{name}: {played} games played now, {counts.get('done', 0)} finished in all"
        + (
            f", {errors} could not be played (see `botarena tournament games {name}`)"
            if errors
            else ""
        )
    )
    if errors:
        raise typer.Exit(1)


def refuse_unconfined(specs: list[str], command: str) -> None:
    """Stop (one line, exit 2) when bots run programs of their own and the sandbox cannot
    confine them here: a tournament runs uploaded code."""
    from botarena.core.sandbox import confinement_missing
    from botarena.core.spec import runs_a_program

    programs = [spec for spec in specs if runs_a_program(spec)]
    if not programs:
        return
    missing = confinement_missing()
    if missing:
        fail(
            f"{command}: the sandbox cannot confine process bots here (missing: "
            + "; ".join(missing)
            + "); see `botarena doctor`, or give --no-sandbox to run them unconfined"
            " (trusted bots only)"
        )


def play_with_progress(
    store: Store, tournament: Tournament, executor: Any, sandbox: bool = True
) -> int:
    """The runner under a rich progress bar: done/total, games/s, ETA, the last result; when
    the output is not a terminal, the same as a plain line every few seconds."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from botarena.tournament import runner

    console = rich_console()
    if not console.is_terminal:
        from botarena.core.progress import Lines

        with Lines(tournament.name) as lines:
            return runner.run(
                store,
                tournament,
                executor,
                lambda progress: lines.update(progress.done, progress.total, progress.last[:60]),
                sandbox=sandbox,
            )
    columns = (  # the tournament's and bots' names are text, not markup (core/console.py)
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s", markup=False),
        TimeRemainingColumn(),
        TextColumn("{task.fields[last]}", markup=False),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(tournament.name, total=None, rate="-", last="")
        started = bar.get_time()
        first: list[int] = []

        def report(progress: runner.Progress) -> None:
            if not first:
                first.append(progress.done)
            elapsed = bar.get_time() - started
            rate = (progress.done - first[0]) / elapsed if elapsed > 0 else 0.0
            bar.update(
                task,
                completed=progress.done,
                total=progress.total,
                rate=f"{rate:.2f}",
                last=progress.last[:60],
            )

        return runner.run(store, tournament, executor, report, sandbox=sandbox)


def _work(
    store: Store,
    db: str,
    names: list[str] | None,
    workers: int | None,
    games: int | None,
    seconds: float | None,
    idle_exit: bool = True,
    sandbox: bool = True,
) -> None:
    """The living loop of `run` (a ladder) and `work`: progress lines, clean stops."""
    import signal
    import time

    from botarena.tournament import runner
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.ladder import LadderError
    from botarena.tournament.releases import check_version
    from botarena.tournament.runner import Stop

    try:
        check_version(store, db)
    except LadderError as exc:
        fail(str(exc))
    chosen = [store.tournament(n) for n in names] if names else store.tournaments()
    specs = [b.spec for t in chosen if t is not None for b in store.bots(t)]
    first = next((t for t in chosen if t is not None), None)
    executor = (
        LocalExecutor.for_tournament(first, specs, workers)
        if first
        else LocalExecutor(workers if workers is not None else 1)
    )
    stop = Stop()
    tty = sys.stdout.isatty()
    shown = [0.0]

    def asked(signum: int, _frame: Any) -> None:
        if stop.asked:  # a second time: give the games in progress back at once
            raise KeyboardInterrupt
        stop.asked = True
        print(
            "\nstopping: the games in progress finish (again to give them back)",
            file=sys.stderr,
            flush=True,
        )

    def report(progress: runner.WorkProgress) -> None:
        now = time.monotonic()
        if now - shown[0] < 1.0 and not (games and progress.played >= games):
            return
        shown[0] = now
        line = (
            f"{progress.played} games, {progress.rate:.2f} games/s, leader"
            f" {progress.leader or '-'}, last: {progress.last[:70]}"
        )
        print(("\r" + line.ljust(110)) if tty else line, end="" if tty else "\n", flush=True)

    previous = {sig: signal.signal(sig, asked) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        played = runner.work(
            store,
            executor,
            names,
            games=games,
            seconds=seconds,
            stop=stop,
            report=report,
            idle_exit=idle_exit,
            sandbox=sandbox,
        )
    except KeyboardInterrupt:
        played = -1
    except LadderError as exc:  # the store moved to another release while this one worked
        fail(str(exc))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        executor.shutdown()
    if tty:
        print()
    if played < 0:
        print("stopped: the games in progress were given back", file=sys.stderr)
        raise typer.Exit(130)
    print(f"{played} games played")


def work(
    db: Annotated[
        str,
        typer.Option(
            "--db",
            help="the store every worker shares:"
            " postgresql://USER@HOST:PORT/DB (or sqlite:///FILE)",
        ),
    ],
    workers: Annotated[
        int | None,
        typer.Option(
            help="games at once (default: one per core; 0: in this process)",
            callback=within(0, MAX_WORKERS),
        ),
    ] = None,
    tournament: Annotated[
        list[str] | None,
        typer.Option("--tournament", help="only this tournament (repeatable; default: all)"),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option("--games", help="stop after N games", callback=within(1, MAX_GAMES)),
    ] = None,
    seconds: Annotated[float | None, typer.Option("--for", help="stop after S seconds")] = None,
    no_sandbox: Annotated[
        bool,
        typer.Option("--no-sandbox", help="run process bots unconfined (trusted bots only)"),
    ] = False,
) -> None:
    """A worker on any machine that reaches the store: claims and plays the games of the
    running tournaments (ladders, their test competitions and finals, finite ones), and
    waits for more when there is none, until stopped (Ctrl-C, SIGTERM), --games or --for."""
    with open_store(db) as store:
        chosen = [find_tournament(store, name) for name in tournament or []]
        if not no_sandbox:
            specs = [b.spec for t in chosen or store.tournaments() for b in store.bots(t)]
            refuse_unconfined(specs, "tournament work")
        _work(
            store,
            db,
            tournament or None,
            workers,
            games,
            seconds,
            idle_exit=False,
            sandbox=not no_sandbox,
        )
