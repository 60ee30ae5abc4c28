"""The store's upkeep: its schema revision brought up to date (Alembic), backups, checks.

`botarena store upgrade|backup|check` (tournament/storecli.py) come here.
"""

from __future__ import annotations

import math
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.core.entrypoints import own_version as own
from botarena.tournament import migrations, releases, roleladder
from botarena.tournament.migrations import migrate
from botarena.tournament.store import (
    Store,
    StoreError,
    describe_url,
    games,
    ladder_bots,
    revision_of,
    sqlite_path,
    store_meta,
    tournaments,
)

RATING_TOLERANCE = 1e-6
"""How far a stored μ or σ may be from the recomputed one (float sums in another order)."""


def upgrade(url: str) -> tuple[str, str]:
    """Bring the store at `url` to this botarena's revision: (what it was, what it is now)
    in words. StoreError (one line) for a store this botarena cannot upgrade."""
    store = Store.open(url, check=False)  # not connected yet: the transaction connects
    try:
        with store.transaction() as conn:
            found = revision_of(conn)
            if found.kind in ("newer", "foreign", "damaged"):
                raise StoreError(f"--db {describe_url(url)}: {found.problem(url)}")
            before, after = found.words(), f"revision {migrations.HEAD}"
            if found.kind != "current":
                migrate(conn)
            moved = _record_release(conn)
            if moved is not None:  # the words say the release moved too
                before, after = f"{before} (botarena {moved})", f"{after} (botarena {own()})"
        return before, after
    except sa.exc.OperationalError as exc:  # a server down, starting or refusing us
        reason = str(exc.orig or exc).strip().splitlines()[0]
        raise StoreError(f"--db {describe_url(url)}: cannot open the database ({reason})") from None
    finally:
        store.close()


def _record_release(conn: Connection) -> str | None:
    """Record this release as the store's (`store_meta.botarena_version`, the release
    every worker must be) when the store names another: an upgrade moves the season to
    the new release, whose workers are refused until it does and the old ones after
    (tournament/runner.py). The release it named before, or None if it was this one or
    none (no tournament made yet: `tournament new` records it)."""
    row = releases.recorded(conn)
    if row is None or row == own():
        return None
    conn.execute(
        store_meta.update().where(store_meta.c.key == "botarena_version").values(value=own())
    )
    return str(row)


def backup(url: str, out: Path) -> str:
    """Copy the store at `url` to the new file `out` while others use it: SQLite's online
    backup API (a consistent copy, writers wait only page by page), PostgreSQL's pg_dump
    (its custom format, for pg_restore). What was written, in words."""
    if out.exists():
        raise StoreError(f"{out}: exists; give a new file (a backup never overwrites)")
    if not out.parent.is_dir():
        raise StoreError(f"{out.parent}: no such folder")
    path = sqlite_path(url)
    parsed = sa.engine.make_url(url) if "://" in url else None
    if path is not None:
        if not path.exists():
            raise StoreError(f"--db {url}: no such database file")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        target = sqlite3.connect(out)
        try:
            source.backup(target)
        except sqlite3.DatabaseError as exc:
            out.unlink(missing_ok=True)
            raise StoreError(f"--db {url}: cannot back up ({exc})") from None
        finally:
            target.close()
            source.close()
        return f"{out}: a SQLite copy of {path} ({out.stat().st_size} bytes)"
    if parsed is None or not parsed.get_backend_name().startswith("postgres"):
        raise StoreError(f"--db {describe_url(url)}: backup knows SQLite files and PostgreSQL")
    dump = shutil.which("pg_dump")
    if dump is None:
        raise StoreError(
            "pg_dump not found: install PostgreSQL's client tools (the same major version"
            " as the server), or back the database up with your own tools (docs/store.md)"
        )
    target_url = parsed.set(drivername="postgresql", password=None)
    env = dict(os.environ)
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    run = subprocess.run(
        [dump, "--format=custom", "--file", str(out), "--dbname",
         target_url.render_as_string(hide_password=False)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    if run.returncode != 0:
        out.unlink(missing_ok=True)
        last = (run.stderr.strip().splitlines() or [f"exit {run.returncode}"])[-1]
        raise StoreError(f"pg_dump of {describe_url(url)} failed: {last}")
    return f"{out}: a pg_dump (custom format, pg_restore reads it) of {describe_url(url)}"


@dataclass(frozen=True)
class Rated:
    """A ladder version's rating and game count as its played games give them."""

    mu: float
    sigma: float
    games: int


def recompute(conn: Connection, tournament_id: int, labels: list[str]) -> dict[str, Rated]:
    """Each of these ladder versions' μ, σ and games from the prior over the ladder's played
    games in the order they finished, as the live ladder rated them: a game counts when
    each of its seats is one of `labels` (a version's games are its own row's)."""
    return rating_history(conn, tournament_id, labels)[0]


def rating_history(
    conn: Connection, tournament_id: int, labels: list[str]
) -> tuple[dict[str, Rated], list[dict[str, Any]]]:
    """`recompute`'s ratings, and the rating of each version after each game that changed it
    (rows of `ladder_ratings`, in the order the games finished). A ladder of a role game
    rates each game by its comparisons with earlier games (tournament/roleladder.py)."""
    from openskill.models import PlackettLuce

    from botarena.tournament.ladder import MU, SIGMA

    state = {label: [MU, SIGMA, 0.0] for label in labels}
    history: list[dict[str, Any]] = []
    model = PlackettLuce()
    signs = roleladder.role_signs(conn, tournament_id)
    rated_so_far = roleladder.History()
    played = conn.execute(
        sa.select(games.c.id, games.c.seats, games.c.ranks, games.c.scores)
        .where(games.c.tournament_id == tournament_id, games.c.status == "done")
        .order_by(games.c.finished_at, games.c.id)
    ).all()
    for game_id, seats, ranks, scores in played:
        if not all(label in state for label in seats) or len(set(seats)) != len(seats):
            continue
        if signs is None:
            teams = [[model.rating(mu=state[s][0], sigma=state[s][1], name=s)] for s in seats]
            rated = model.rate(teams, ranks=[float(r) for r in ranks])
            changed = {s: (r.mu, r.sigma) for s, [r] in zip(seats, rated, strict=True)}
        else:
            game = roleladder.Played(tuple(seats), tuple(ranks), tuple(scores))
            found = roleladder.comparisons(game, rated_so_far.earlier(game), signs)
            changed = roleladder.rate(_current(state, found), found)
            rated_so_far.add(game)
        for label in seats:
            state[label][2] += 1
        for label, (mu, sigma) in changed.items():
            state[label][:2] = [mu, sigma]
            history.append(
                {
                    "game_id": game_id,
                    "label": label,
                    "tournament_id": tournament_id,
                    "mu": mu,
                    "sigma": sigma,
                }
            )
    found_ratings = {
        label: Rated(mu, sigma, int(count)) for label, (mu, sigma, count) in state.items()
    }
    return found_ratings, history


def _current(
    state: dict[str, list[float]], found: list[roleladder.Comparison]
) -> dict[str, tuple[float, float]]:
    """The ratings so far of the versions these comparisons name."""
    named = {label for c in found for label in (c.label, c.other)}
    return {label: (state[label][0], state[label][1]) for label in named}


def check(url: str) -> tuple[list[str], str]:
    """The store's problems, one line each (none: it is whole), and what was checked: on
    SQLite its `integrity_check`; for every ladder, each version's game count, μ and σ
    recomputed from the played games against the stored ones."""
    problems: list[str] = []
    if sqlite_path(url) is not None:
        path = sqlite_path(url)
        if path is None or not path.exists():
            raise StoreError(f"--db {url}: no such database file")
        raw = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            found = [str(row[0]) for row in raw.execute("PRAGMA integrity_check")]
        except sqlite3.DatabaseError as exc:
            found = [str(exc)]
        finally:
            raw.close()
        if found != ["ok"]:
            return [f"integrity: {line}" for line in found], "SQLite integrity_check"
    store = Store.open(url, read_only=True)
    versions = played = 0
    try:
        with store.engine.connect() as conn:
            ladders = conn.execute(
                sa.select(tournaments.c.id, tournaments.c.name).where(
                    tournaments.c.schedule == "ladder"
                )
            ).all()
            for tid, name in ladders:
                rows = conn.execute(
                    sa.select(ladder_bots)
                    .where(ladder_bots.c.tournament_id == tid)
                    .order_by(ladder_bots.c.label)
                ).all()
                rated = recompute(conn, tid, [row.label for row in rows])
                versions += len(rows)
                played += conn.execute(
                    sa.select(sa.func.count()).where(
                        games.c.tournament_id == tid, games.c.status == "done"
                    )
                ).scalar_one()
                for row in rows:
                    problems.extend(_differences(name, row, rated[row.label]))
    finally:
        store.close()
    checked = (
        f"{'SQLite integrity_check; ' if sqlite_path(url) else ''}{len(ladders)} ladder(s):"
        f" {versions} versions' games, μ and σ against {played} played games"
    )
    return problems, checked


def _differences(ladder: str, row: sa.Row[Any], found: Rated) -> list[str]:
    lines = []
    if row.games != found.games:
        lines.append(
            f"{ladder}: {row.label}: games {row.games} stored, {found.games} from the played games"
        )
    for field in ("mu", "sigma"):
        stored, recomputed = getattr(row, field), getattr(found, field)
        if not math.isclose(stored, recomputed, rel_tol=0, abs_tol=RATING_TOLERANCE):
            lines.append(
                f"{ladder}: {row.label}: {field} {stored:.6f} stored,"
                f" {recomputed:.6f} from the played games"
            )
    return lines
