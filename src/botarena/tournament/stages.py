"""A ladder's stages: CodeCup's test competitions every few hours and the finals that freeze
it, each a finite tournament over the ladder's versions; and the deadline every writer of
one checks."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.tournament import filling
from botarena.tournament.ladder import Standing, active_versions, standings
from botarena.tournament.store import Store, Tournament, ladder_bots, tournaments

log = logging.getLogger(__name__)


def children(store: Store, tournament: Tournament, kind: str) -> list[Tournament]:
    """The tournaments made from a ladder: `test` competitions or `finals`, oldest first."""
    return [
        t
        for t in store.tournaments()
        if t.plan.get("parent") == tournament.name and t.plan.get("stage") == kind
    ]


DEADLINES = (0.0, 253_402_300_799.0)
"""The deadlines a ladder takes, in epoch seconds: 1970-01-01T00:00:00 to
9999-12-31T23:59:59 UTC (what a date can show)."""
DEADLINE_FORM = (
    "a deadline is an ISO time such as 2026-12-01T18:00 (UTC unless it says) or epoch"
    " seconds, from 1970-01-01T00:00:00 to 9999-12-31T23:59:59 UTC"
)


def deadline_at(value: Any) -> float:
    """`value` (an ISO time, UTC unless it says, or epoch seconds) as a ladder's plan stores
    its deadline; ValueError naming the accepted form and range otherwise. Every writer of
    a deadline comes through here, so no stored deadline is one no page can show (epoch
    milliseconds, year 9999 west of UTC, 1e300, NaN, a bool)."""
    when: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        with contextlib.suppress(OverflowError):  # an integer beyond any float
            when = float(value)
    elif isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip())
            when = (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()
        except (ValueError, OverflowError):
            pass
    if when is None or not DEADLINES[0] <= when <= DEADLINES[1]:  # NaN is in no range
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
        raise ValueError(f"not an ISO time or epoch seconds in range: {shown}; {DEADLINE_FORM}")
    return when


def stored_deadline(name: str, plan: dict[str, Any]) -> float | None:
    """The deadline the plan of tournament `name` holds, None for none. One a plan cannot
    hold (put there by an older botarena or by hand) is warned about and read as none: it
    never takes a page, an upload or a worker down."""
    value = plan.get("deadline")
    if value is None:
        return None
    try:
        if isinstance(value, str):
            raise ValueError("a deadline is stored as epoch seconds")
        return deadline_at(value)
    except ValueError as exc:
        log.warning("%s: its stored deadline is ignored (set it again): %s", name, exc)
        return None


def start_finals(
    store: Store,
    ladder: Tournament,
    top: int | None,
    schedule_kind: str,
    games_per_pair: int,
    leave_out: Sequence[str] = (),
) -> tuple[Tournament, int, list[Standing]]:
    """LADDER-finals over the latest versions of the ladder's active bots (or its top
    `top`; in a ladder of roles, the top `top` of each role), but the bots named in
    `leave_out` (a contest's sample bot), linked to it: the finals, their games scheduled,
    the bots in them. The ladder is frozen: its deadline set to now if later, and it plays
    no more games (`make_and_claim`), so its standings stay those the finals were drawn
    from. ValueError, one line, when it cannot be."""
    from botarena.cliparts import MAX_PER_PAIR

    if not 1 <= games_per_pair <= MAX_PER_PAIR:  # every way in: the command line, the site
        raise ValueError(f"games_per_pair must be between 1 and {MAX_PER_PAIR}")
    name = f"{ladder.name}-finals"
    if store.tournament(name) is not None:
        raise ValueError(f"{ladder.name} already has finals: {name}")
    table = [row for row in standings(store, ladder) if row.bot not in leave_out]
    roles = ladder.plan.get("roles") or []
    if roles:
        by_role = [[row for row in table if row.role == role][:top] for role in roles]
        for role, rows in zip(roles, by_role, strict=True):
            if not rows:
                raise ValueError(f"{ladder.name}: no active bot of role {role}, finals need one")
        table = [row for rows in by_role for row in rows]
    else:
        table = table[:top]
    if len(table) < 2:
        raise ValueError(f"{ladder.name}: {len(table)} active bot(s), finals need 2")
    with store.transaction() as conn:
        deadline = stored_deadline(ladder.name, ladder.plan)
        if deadline is None or deadline > time.time():
            deadline = time.time()
        conn.execute(
            tournaments.update()
            .where(tournaments.c.id == ladder.id)
            .values(plan={**ladder.plan, "deadline": deadline, "finals": name})
        )
        child, count = spawn(
            conn,
            store,
            ladder,
            name,
            "finals",
            schedule_kind,
            [row.label for row in table],
            games_per_pair,
        )
    return child, count, table


def spawn(
    conn: Connection,
    store: Store,
    ladder: Tournament,
    name: str,
    stage: str,
    schedule_kind: str,
    labels: Sequence[str],
    games_per_pair: int = 1,
    extra: dict[str, Any] | None = None,
) -> tuple[Tournament, int]:
    """A finite tournament linked to `ladder` (plan: parent, stage) over these versions,
    under their bare names, with its games pending for any worker; in `conn`'s
    transaction. A ladder of roles makes a tournament of roles: `round-robin` is its
    `roles` schedule, each version in its role."""
    from botarena.tournament import schedule
    from botarena.tournament.store import bots

    rows = {
        row.label: row
        for row in conn.execute(
            sa.select(bots).where(bots.c.tournament_id == ladder.id, bots.c.label.in_(labels))
        )
    }
    made = conn.execute(sa.select(sa.func.count()).select_from(tournaments)).scalar_one()
    roles = ladder.plan.get("roles") or []
    if roles and schedule_kind == "round-robin":
        schedule_kind = "roles"
    plan = {
        "seed": ladder.plan["seed"] + made,
        "seats": len(roles) or 2,
        "games_per_pair": games_per_pair,
        "maps": ladder.plan.get("maps", [])[:1],
        "rounds": 0,
        "role_names": roles,
        "game": ladder.game,
        "top": 5,
        "confidence": 0.95,
        "max_rounds": 100,
        "parent": ladder.name,
        "stage": stage,
        **(extra or {}),
    }
    child = filling.create(
        conn, name, ladder.game, schedule_kind, plan, ladder.options, ladder.replay_dir
    )
    for label in labels:
        row = rows[label]
        filling.add_bot(conn, child, row.name, row.spec, row.role, row.workdir, row.source)
    entrants = [schedule.Entrant(row.name, row.role) for row in rows.values()]
    added = schedule.next_round(
        schedule_kind, schedule.plan_from(child.plan, child.game), entrants, [], []
    )
    return child, filling.add_games(conn, child, added)


def maybe_test_competition(
    store: Store, ladder: Tournament, now: float | None = None
) -> Tournament | None:
    """CodeCup's test competition: when `test_every` hours have passed since the last one
    (or since the ladder began), a round robin over every active bot's latest version."""
    every = ladder.plan.get("test_every")
    if not every:
        return None
    now = time.time() if now is None else now
    with store.transaction() as conn:
        if conn.dialect.name == "postgresql":  # one worker makes it, the others then see it
            conn.execute(
                sa.select(tournaments.c.id)
                .where(tournaments.c.id == ladder.id)
                .with_for_update(key_share=True)
            )
        made = conn.execute(
            sa.select(tournaments.c.created_at).where(tournaments.c.id == ladder.id)
        ).scalar_one()
        tests = [
            t
            for t in conn.execute(sa.select(tournaments.c.created_at, tournaments.c.plan)).all()
            if t.plan.get("parent") == ladder.name and t.plan.get("stage") == "test"
        ]
        last = max([made, *(t.plan.get("made_at", t.created_at) for t in tests)])
        if now - last < every * 3600:
            return None
        labels = [
            row.label
            for row in conn.execute(
                sa.select(ladder_bots.c.label)
                .where(active_versions(ladder.id))
                .order_by(ladder_bots.c.label)
            )
        ]
        if len(labels) < 2:
            return None
        child, _ = spawn(
            conn,
            store,
            ladder,
            f"{ladder.name}-test-{len(tests) + 1}",
            "test",
            "round-robin",
            labels,
            extra={"made_at": now},
        )
        return child
