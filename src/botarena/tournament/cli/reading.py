"""Reading a tournament: `standings`, `games`, `cross-table`, `list`, and a game's `replay`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from botarena.cliparts import DEFAULT_DB, DbOption
from botarena.tournament.cli.common import fail, find_tournament, open_store, rich_console

if TYPE_CHECKING:
    from botarena.tournament.store import Store, Tournament


def current_standings(
    store: Store, tournament: Tournament, rank_by: str | None
) -> tuple[list[Any], list[Any], list[str]]:
    """(standings, counted records, bot names) from the store through the ranking."""
    from botarena.tournament import ranking

    records, bots = store.records(tournament)
    names = [bot.name for bot in bots]
    roles = {bot.name: bot.role for bot in bots if bot.role}
    if rank_by is not None and rank_by not in ranking.RANK_METHODS:
        fail(f"--rank-by {rank_by!r}: not one of {', '.join(ranking.RANK_METHODS)}")
    table = ranking.standings(tournament.game, records, names, rank_by=rank_by, roles=roles or None)
    return table, records, names


def print_standings(tournament: Tournament, table: list[Any], rank_by: str | None = None) -> None:
    """The table; ranked by points (a tradition of the game), it shows the points and the irregular
    losses that break their ties, since those decide the order."""
    from rich.table import Table

    from botarena.tournament.ranking import default_rank_by

    by_points = (rank_by or default_rank_by(tournament.game)) == "points"
    has_roles = any(row.role for row in table)
    grid = Table(
        *(["role"] if has_roles else []),
        "#",
        "bot",
        *(["points", "irregular"] if by_points else []),
        "rating",
        "games",
        "mean",
        "W-D-L",
        "faults",
        title=f"{tournament.name} · {tournament.game}",
    )
    for row in table:
        grid.add_row(
            *([row.role or ""] if has_roles else []),
            str(row.rank),
            row.bot + (" (disqualified)" if row.disqualified else ""),
            *([f"{row.points:g}", str(row.irregular)] if by_points else []),
            f"{row.rating:.2f}",
            str(row.games),
            f"{row.mean_score:.1f}",
            f"{row.wins}-{row.draws}-{row.losses}",
            str(row.faults),
        )
    rich_console().print(grid)


def plot_path(db: str, tournament: Tournament) -> Path:
    from botarena.tournament.store import sqlite_folder

    return (sqlite_folder(db) or Path.cwd()) / f"{tournament.name}-standings.png"


def standings(
    name: Annotated[str, typer.Argument(help="the tournament")],
    as_json: Annotated[bool, typer.Option("--json", help="print a JSON list")] = False,
    rank_by: Annotated[
        str | None,
        typer.Option(help="points, places or mean-score (default: the game's tradition)"),
    ] = None,
    plot: Annotated[bool, typer.Option(help="draw the rating over games as a PNG")] = True,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The standings, ranked the way the game's contest ranked (see docs/standings.md)."""
    with open_store(db) as store:
        tournament = find_tournament(store, name)
        if tournament.schedule == "ladder":
            _ladder_standings(store, tournament, as_json)
            return
        table, records, names = current_standings(store, tournament, rank_by)
        rounds = max((row.round for row in store.games(tournament)), default=0)
    if as_json:
        print(json.dumps([row.to_dict() for row in table]))
        return
    print_standings(tournament, table, rank_by)
    from botarena.tournament.ranking import counted_games

    counted = counted_games(tournament.game, records)
    timed_out = sum("timeout" in record.statuses for record in counted)
    dropped = len(records) - len(counted)
    print(
        f"{len(counted)} games counted, {timed_out} with a time-out"
        + (f"; {dropped} of {len(records)} played not counted (strikes)" if dropped else "")
    )
    if tournament.schedule == "adaptive":
        from botarena.tournament import adaptive

        plan = tournament.plan
        decisions = adaptive.decide(
            tournament.game,
            names,
            {row.bot: row.role for row in table},
            records,
            plan["games_per_pair"],
            plan["top"],
            plan["confidence"],
        )
        for line in adaptive.describe(decisions, rounds, plan["max_rounds"]):
            print(line)
    if plot and records:
        from botarena.tournament.ranking import plot_history

        path = plot_history(
            tournament.game, records, names, plot_path(db, tournament), rank_by=rank_by
        )
        print(f"plot: {path}")


def _ladder_standings(store: Store, tournament: Tournament, as_json: bool) -> None:
    """A ladder's table: ordinal μ − 3σ, μ, σ, games, games in the last hour; a ladder of
    roles has one table a role, with each version's mean score."""
    from rich.table import Table

    from botarena.tournament import ladder

    table = ladder.standings(store, tournament)
    if as_json:
        print(json.dumps([row.to_dict() for row in table]))
        return
    roles = tournament.plan.get("roles") or [None]
    for role in roles:
        title = [tournament.name, tournament.game, "ladder", *([role] if role else [])]
        grid = Table(
            "#",
            "bot",
            "version",
            "ordinal",
            "mu",
            "sigma",
            "games",
            *(["mean"] if role else []),
            "last hour",
            title=" · ".join(title),
        )
        for row in table:
            if row.role != role:
                continue
            grid.add_row(
                str(row.rank),
                row.bot,
                row.label,
                f"{row.ordinal:.2f}",
                f"{row.mu:.2f}",
                f"{row.sigma:.2f}",
                str(row.games),
                *([f"{row.mean_score:g}" if row.mean_score is not None else ""] if role else []),
                str(row.last_hour),
            )
        rich_console().print(grid)


def list_games(
    name: Annotated[str, typer.Argument(help="the tournament")],
    as_json: Annotated[bool, typer.Option("--json", help="print a JSON list")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Every game: key, bots, scores, status (pending, claimed, done, error, void), why it
    ended (the rules' end reason), replay."""
    with open_store(db) as store:
        rows = store.games(find_tournament(store, name))
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "key": r.key,
                        "bots": list(r.seats),
                        "scores": list(r.scores) if r.scores is not None else None,
                        "status": r.status,
                        "replay": r.replay,
                        "end_reason": r.end_reason,  # after the contract's keys
                    }
                    for r in rows
                ]
            )
        )
        return
    from rich.table import Table

    grid = Table("key", "bots", "scores", "status", "ended by", "replay")
    for r in rows:
        grid.add_row(
            r.key,
            " ".join(r.seats),
            " ".join(f"{s:g}" for s in r.scores) if r.scores else "",
            r.status + (f": {r.error}" if r.error else ""),
            r.end_reason or "",
            r.replay or "",
        )
    rich_console().print(grid)


def cross_table(
    name: Annotated[str, typer.Argument(help="the tournament")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Bot x bot, from the row bot's side: its points and wins-draws-losses by place against
    the column bot, over every game they met in (any number of seats, roles too)."""
    from rich.table import Table

    from botarena.tournament import ranking

    with open_store(db) as store:
        tournament = find_tournament(store, name)
        records, bots = store.records(tournament)
    names = [bot.name for bot in bots]
    cells = ranking.cross_table(tournament.game, records, names)
    grid = Table("", *names, title=f"{name} · points (W-D-L)")
    for row in names:
        line = []
        for col in names:
            entry = cells.get(row, {}).get(col)
            line.append(
                ""
                if row == col or entry is None
                else f"{entry[3]:g} ({entry[0]}-{entry[1]}-{entry[2]})"
            )
        grid.add_row(row, *line)
    rich_console().print(grid)


def list_tournaments(db: DbOption = DEFAULT_DB) -> None:
    """The tournaments in the store: game, schedule, bots, games finished of scheduled."""
    from rich.table import Table

    with open_store(db) as store:
        grid = Table("name", "game", "schedule", "bots", "finished", "scheduled")
        for tournament in store.tournaments():
            counts = store.counts(tournament)
            parent = tournament.plan.get("parent")
            kind = tournament.schedule + (
                f" ({tournament.plan.get('stage')} of {parent})" if parent else ""
            )
            grid.add_row(
                tournament.name,
                tournament.game,
                kind,
                str(len(store.bots(tournament))),
                str(counts.get("done", 0)),
                str(sum(n for s, n in counts.items() if s != "void")),
            )
    rich_console().print(grid)


def replay(
    name: Annotated[str, typer.Argument(help="the tournament")],
    key: Annotated[str, typer.Argument(help="the game's key (see `tournament games`)")],
    out: Annotated[Path, typer.Option("-o", "--out", help="where to write it (.json.gz)")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Write a game's replay as stored in the database (played on any worker), for `view`."""
    from botarena.tournament import ladder

    with open_store(db) as store:
        tournament = find_tournament(store, name)
        found = [g for g in store.games(tournament) if g.key == key]
        if not found:
            fail(f"{name}: no game {key!r} (see `botarena tournament games {name}`)")
        data = ladder.replay_bytes(store, found[0].id)
    if data is None:
        fail(
            f"{name}: game {key!r} has no replay in the database (not finished, or played"
            " before replays were stored)"
        )
    out.write_bytes(data)
    print(f"{out}: view it with: botarena view {out}")
