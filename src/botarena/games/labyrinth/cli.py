"""`botarena labyrinth ...`: tools for Labyrinth submissions (check-post, scrape)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from botarena.core.mapcli import maps_command
from botarena.core.spec import BotSpecError
from botarena.core.starters import Starter, add_command

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.command("maps")(maps_command("labyrinth"))
add_command(
    app,
    Starter(
        "labyrinth",
        {
            "adventurers": ("adventurers", ["BOT", "builtin:labyrinth/warden"]),
            "master": ("master", ["builtin:labyrinth/cartographer", "BOT"]),
        },
    ),
)


@app.command("check-post")
def check_post_command(
    post: Annotated[Path, typer.Argument(help="a post file (markdown)")],
) -> None:
    """Check an original JavaScript submission: the header, the first code block, that it
    compiles (syntax errors with the post's line numbers) and builds a bot with the role's
    methods. Exit 0 when it is fine, 1 when the code is wrong, 2 when it is not a post."""
    from botarena.games.labyrinth.post import check_post

    try:
        ok, message = check_post(str(post))
    except BotSpecError as exc:
        print(f"botarena: error: {exc}", file=sys.stderr)
        raise typer.Exit(2) from None
    print(message)
    raise typer.Exit(0 if ok else 1)


@app.command("scrape")
def scrape_command(
    sources: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Stack Exchange API JSON files (/questions/{id}/answers?filter=withbody, any"
            " number of pages) or saved HTML pages of the question"
        ),
    ] = None,
    out: Annotated[
        Path,
        typer.Option("--out", help="the folder for the post files, the bots file and report.json"),
    ] = Path("posts"),
    bots: Annotated[
        Path | None,
        typer.Option("--bots", help="where to write the bots file (default OUT/bots.toml)"),
    ] = None,
    url: Annotated[
        list[str] | None,
        typer.Option(
            "--url",
            help="fetch answers from an API URL (all pages) or a question page; needs a network",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the report as JSON")] = False,
) -> None:
    """Scrape the challenge's answers into post files, a bots file for a tournament and a
    report: each answer kept or rejected alone with its reason, and near-identical bots.
    Exit 0 when every answer is kept, 1 when any is rejected (the others are still
    written), 2 when a source cannot be read at all."""
    from botarena.core.bounds import checked_path
    from botarena.games.labyrinth.answers import ScrapeError, read_source, read_url
    from botarena.games.labyrinth.scrape import scrape

    if not sources and not url:
        print("botarena: error: give answer files (SOURCE...) or --url", file=sys.stderr)
        raise typer.Exit(2)
    try:
        checked_path(out, "--out", ScrapeError)
        if bots is not None:
            checked_path(bots, "--bots", ScrapeError)
        answers = [answer for source in sources or [] for answer in read_source(source)]
        answers += [answer for address in url or [] for answer in read_url(address)]
        report = _with_progress(lambda progress: scrape(answers, out, bots, progress))
    except (ScrapeError, BotSpecError, OSError) as exc:
        print(f"botarena: error: {exc}", file=sys.stderr)
        raise typer.Exit(2) from None
    if as_json:
        print(json.dumps(report.to_dict()))
    else:
        _print_report(report)
    if report.to_dict()["rejected"]:
        raise typer.Exit(1)


def _with_progress(work: Any) -> Any:
    """Run `work(progress)` under a rich progress bar on stderr (one step an answer); not on
    a terminal, plain progress lines."""
    from rich.progress import Progress

    from botarena.core.console import literal_console

    console = literal_console(stderr=True)
    if not console.is_terminal:
        from botarena.core.progress import Lines

        with Lines("checking answers", "answers", sys.stderr) as lines:
            return work(lines.update)
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("checking answers", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return work(progress)


def _print_report(report: Any) -> None:
    from rich.table import Table

    from botarena.core.console import literal_console

    table = Table(
        "answer",
        "author",
        "role",
        "name",
        "kept",
        "file or reason",
        title=f"{report.to_dict()['kept']} kept, {report.to_dict()['rejected']} rejected",
    )
    for verdict in report.verdicts:
        table.add_row(
            str(verdict.answer_id),
            verdict.author,
            verdict.role,
            verdict.name,
            "yes" if verdict.kept else "no",
            Path(verdict.file).name if verdict.kept else verdict.reason,
        )
    console = literal_console()
    console.print(table)
    for pair in report.similar:
        console.print(
            f"near-identical {pair['role']} bots: {pair['bots'][0]} and"
            f" {pair['bots'][1]} (similarity {pair['similarity']:.2f})"
        )
    console.print(f"bots file: {report.bots_file}")
