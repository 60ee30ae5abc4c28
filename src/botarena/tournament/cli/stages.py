"""A ladder's stages and finals: `retire-bot`, `stage` (the deadline), `finals`."""

from __future__ import annotations

from typing import Annotated

import typer

from botarena.cliparts import DEFAULT_DB, MAX_PER_PAIR, MAX_PLACES, DbOption, within
from botarena.tournament.cli.common import fail, find_ladder, open_store


def retire_bot(
    name: Annotated[str, typer.Argument(help="the ladder")],
    botname: Annotated[str, typer.Argument(help="the bot to retire")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Retire a ladder bot: no longer scheduled, out of the standings, its games kept."""
    from botarena.tournament import ladder

    with open_store(db) as store:
        tournament = find_ladder(store, name)
        active = ", ".join(sorted({b.name for b in store.bots(tournament)})) or "none"
        with store.transaction() as conn:
            retired = ladder.retire(conn, tournament, botname)
            if not retired:
                fail(f"ladder {name!r} has no active bot {botname!r} (active: {active})")
    print(f"{name}: bot {botname} retired")


def stage(
    name: Annotated[str, typer.Argument(help="the ladder")],
    deadline: Annotated[
        str, typer.Option(help="ISO time (UTC unless it says), e.g. 2026-12-01T18:00")
    ],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Set the ladder's deadline: after it, new bots and updates are refused."""
    from datetime import UTC, datetime

    from botarena.tournament.stages import deadline_at
    from botarena.tournament.store import tournaments

    try:
        at = deadline_at(deadline)
    except ValueError as exc:
        fail(f"--deadline: {exc}")
    with open_store(db) as store:
        tournament = find_ladder(store, name)
        with store.transaction() as conn:
            conn.execute(
                tournaments.update()
                .where(tournaments.c.id == tournament.id)
                .values(plan={**tournament.plan, "deadline": at})
            )
    when = datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")
    print(f"{name}: deadline {when}; after it no new bots or updates")


def finals(
    name: Annotated[str, typer.Argument(help="the ladder")],
    top: Annotated[
        int | None,
        typer.Option(
            help="only the ladder's top K (of each role)", callback=within(None, MAX_PLACES)
        ),
    ] = None,
    schedule: Annotated[str, typer.Option(help="adaptive or round-robin")] = "round-robin",
    games_per_pair: Annotated[
        int,
        typer.Option(help="games per pairing (seating)", callback=within(None, MAX_PER_PAIR)),
    ] = 1,
    db: DbOption = DEFAULT_DB,
) -> None:
    """A new tournament NAME-finals over the latest versions of the ladder's active bots (or
    its top K; a ladder of roles: of each role, in a tournament of roles), linked to it;
    the ladder is frozen (its deadline set to now if later)."""
    from botarena.tournament import stages

    if schedule not in ("adaptive", "round-robin"):
        fail(f"--schedule {schedule!r}: adaptive or round-robin")
    if games_per_pair < 1 or (top is not None and top < 2):
        fail("--games-per-pair must be at least 1 and --top at least 2")
    with open_store(db) as store:
        try:
            child, count, table = stages.start_finals(
                store, find_ladder(store, name), top, schedule, games_per_pair
            )
        except ValueError as exc:
            fail(str(exc))
    print(
        f"{child.name}: {len(table)} bots, {child.schedule}, {count} games scheduled; play them"
        f" with: botarena tournament run {child.name}" + ("" if db == DEFAULT_DB else f" --db {db}")
    )
