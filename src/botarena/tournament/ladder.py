"""The ladder: a tournament that never ends, choosing each next game by waiting time and skill.

How a game is chosen (learnt from the 2011 AI Challenge's `generate_matchup`, see
docs/tournaments.md "Ladders"): the seed is the least sure version when its σ is above the
field's median (a new or updated one: it seeds every game while it is the least sure, then
takes turns with the least sure until its σ is the median; the 2011 contest gave a new bot
one game at a time like everyone else), else the bot that waited longest, every version
whose σ has not settled before the settled ones; the map is drawn first and
fixes the number of seats; the opponents are drawn among the bots closest in μ and a few
random ones, each with a weight from its match quality with the seed, so that close games
are likely but the field stays connected; the seat 0 goes to the bot that sat there least.
Each choice reads O(log n) rows through indexes, and every active version's σ (one float a
version, for the median): about 10 000 floats a game with 10 000 bots. A ladder of a role
game (its plan's `roles`) seats one version of each role, the opponents drawn within their
role, and rates each version against the one its seat held in an earlier game with the
same opposition (tournament/roleladder.py).

A game is made and claimed in one transaction (a ladder has no queue of pending games to go
stale), its result and the rating update are committed together, only while the claim is
held, so a result that comes back after the claim was handed back is dropped, never
counted twice.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import math
import random
import re
import statistics
import time
import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.tournament import roleladder
from botarena.tournament.store import (
    GameRow,
    Store,
    Tournament,
    _game,
    finished_values,
    games,
    ladder_bots,
    ladder_ratings,
    replays,
    tournaments,
)

log = logging.getLogger(__name__)
MU, SIGMA = 25.0, 25.0 / 3
"""openskill's Plackett–Luce prior (the 2011 contest's TrueSkill prior, scaled by 1/2)."""
BETA = SIGMA / 2
SETTLED_SIGMA = 5.0
"""A version whose σ is above this has not settled: it is seeded before every settled one.
With openskill's dynamics (τ) σ levels off near 4 in a busy ladder (simulate.py), about
20 games in; 5 is reached after 10 to 15 games."""
NEAREST = 12
"""Candidates taken on each side of the seed's μ."""
RANDOM = 4
"""Candidates drawn at random over the whole field (keeps it connected)."""


class LadderError(ValueError):
    """A user's mistake with a ladder; the message is one line."""


@dataclass(frozen=True)
class Entry:
    """A bot version as matchmaking sees it."""

    label: str
    mu: float
    sigma: float
    last_seq: int
    firsts: int = 0
    role: str | None = None


def quality(a: Entry, b: Entry) -> float:
    """The two-player match quality of TrueSkill/openskill (the draw probability's shape):
    1 for two equal, certain ratings, falling with the gap in μ and with uncertainty."""
    spread = 2 * BETA * BETA + a.sigma * a.sigma + b.sigma * b.sigma
    return math.sqrt(2 * BETA * BETA / spread) * math.exp(-((a.mu - b.mu) ** 2) / (2 * spread))


def priority(entry: Entry) -> tuple[int, int]:
    """Smaller plays sooner: unsettled versions first, then by when each last played."""
    return (0 if entry.sigma > SETTLED_SIGMA else 1, entry.last_seq)


def pick_opponents(
    seed: Entry, candidates: Sequence[Entry], count: int, rng: random.Random
) -> list[Entry]:
    """`count` distinct opponents for `seed`, each drawn with a weight of its match quality
    squared (a close opponent is much likelier, a far one still possible)."""
    pool = [c for c in dict((c.label, c) for c in candidates).values() if c.label != seed.label]
    chosen = []
    for _ in range(min(count, len(pool))):
        weights = [quality(seed, c) ** 2 + 1e-6 for c in pool]
        index = rng.choices(range(len(pool)), weights)[0]
        chosen.append(pool.pop(index))
    return chosen


def seat_order(group: Sequence[Entry], rng: random.Random) -> list[Entry]:
    """Seat 0 to the bot that sat there least (ties at random), the rest shuffled."""
    order = list(group)
    rng.shuffle(order)
    first = min(order, key=lambda e: e.firsts)
    order.remove(first)
    return [first, *order]


def map_turns(path: str) -> int | None:
    """The `turns` a map file asks for, as a comment line `# turns N`, if it does."""
    try:
        with open(path, encoding="utf-8", errors="replace") as text:
            for line in text:
                found = re.match(r"\s*#\s*turns\s*[:=]?\s*(\d+)\s*$", line)
                if found:
                    return int(found.group(1))
    except OSError:
        return None
    return None


# -- the store side ------------------------------------------------------------------------
def _entry(row: Any) -> Entry:
    return Entry(row.label, row.mu, row.sigma, row.last_seq, row.firsts, row.role)


def join(
    conn: Connection, tournament: Tournament, name: str, label: str, role: str | None = None
) -> None:
    """A new version enters the ladder: earlier versions of `name` are `replaced`; it starts
    at the prior and ahead of everyone waiting (last_seq -1). In a ladder of a role game
    `role` is one of its plan's `roles` (LadderError without one); elsewhere there is none."""
    roles = tournament.plan.get("roles") or []
    if roles and role not in roles:
        raise LadderError(
            f"{label}: {tournament.name} is a ladder of roles; give its role,"
            f" one of {', '.join(roles)} (not {role!r})"
        )
    if not roles and role is not None:
        raise LadderError(f"{label}: {tournament.name} is a ladder without roles (not {role!r})")
    conn.execute(
        ladder_bots.update()
        .where(
            ladder_bots.c.tournament_id == tournament.id,
            ladder_bots.c.name == name,
            ladder_bots.c.state == "active",
        )
        .values(state="replaced")
    )
    conn.execute(
        ladder_bots.insert().values(
            tournament_id=tournament.id,
            label=label,
            name=name,
            role=role,
            state="active",
            mu=MU,
            sigma=SIGMA,
            games=0,
            firsts=0,
            queue=0,
            last_seq=-1,
            rnd=random.random(),
            added_at=time.time(),
        )
    )


def retire(conn: Connection, tournament: Tournament, name: str) -> int:
    """Take every version of `name` out of scheduling and standings (its games stay)."""
    from botarena.tournament.store import bots

    conn.execute(
        bots.update()
        .where(bots.c.tournament_id == tournament.id, bots.c.name == name)
        .values(active=False)
    )
    return conn.execute(
        ladder_bots.update()
        .where(
            ladder_bots.c.tournament_id == tournament.id,
            ladder_bots.c.name == name,
            ladder_bots.c.state == "active",
        )
        .values(state="retired")
    ).rowcount


def lock_rows(conn: Connection, tid: int, labels: Sequence[str] | None = None) -> Sequence[Any]:
    """Lock these ladder rows (all the ladder's when None) and read them as last committed.

    Every transaction that writes several ladder rows takes them through here, in the order
    of their labels: two transactions locking the same rows in different orders deadlock
    (PostgreSQL then aborts one, a worker's finished game with it), and a rating computed
    from rows read without their lock can overwrite a concurrent game's update. SQLite's
    write transactions are serial already (FOR UPDATE is left out there)."""
    query = sa.select(ladder_bots).where(ladder_bots.c.tournament_id == tid)
    if labels is not None:
        query = query.where(ladder_bots.c.label.in_(labels))
    return conn.execute(query.order_by(ladder_bots.c.label).with_for_update()).all()


def active_versions(tid: int) -> Any:
    """The condition selecting a ladder's active versions."""
    return sa.and_(ladder_bots.c.tournament_id == tid, ladder_bots.c.state == "active")


def choose(
    conn: Connection, tournament: Tournament, rng: random.Random, avoid: Collection[str] = ()
) -> tuple[list[str], str | None] | None:
    """The next game's seats (labels, in seat order) and map; None when too few bots.
    `avoid`: versions this worker cannot set up just now (a jury failure), left out."""
    tid, plan = tournament.id, tournament.plan
    active = active_versions(tid)
    if avoid:
        active = sa.and_(active, ladder_bots.c.label.notin_(sorted(avoid)))
    if plan.get("roles"):
        return _choose_roles(conn, plan, active, rng)
    most = max(
        [
            plan["seats"],
            *(plan.get("seats_range") or ()),
            *(m[1] for m in plan.get("map_players", [])),
        ]
    )
    count = len(conn.execute(sa.select(ladder_bots.c.label).where(active).limit(most)).all())
    maps = [m for m in plan.get("map_players", []) if m[1] <= count]
    map_path = None
    if maps:
        map_path, seats = rng.choice(maps)
    else:
        low, high = plan.get("seats_range") or (plan["seats"], plan["seats"])
        seats = rng.randint(low, min(high, count)) if count >= low else low
    if count < seats or count < 2:
        return None
    seed = _seed(conn, active)
    candidates = _candidates(conn, active, seed, rng)
    if len({c.label for c in candidates} - {seed.label}) < seats - 1:  # a small field
        candidates = [_entry(row) for row in conn.execute(sa.select(ladder_bots).where(active))]
    group = [seed, *pick_opponents(seed, candidates, seats - 1, rng)]
    return [e.label for e in seat_order(group, rng)], map_path


def _seed(conn: Connection, active: Any) -> Entry:
    """The version the next game is chosen around: a newcomer, else the first in line."""
    return newcomer(conn, active) or _entry(
        conn.execute(
            sa.select(ladder_bots)
            .where(active)
            .order_by(ladder_bots.c.queue, ladder_bots.c.last_seq)
            .limit(1)
        ).one()
    )


def _candidates(conn: Connection, active: Any, seed: Entry, rng: random.Random) -> list[Entry]:
    """The versions of `active` an opponent of `seed` is drawn among: the NEAREST in μ on
    each side of the seed's μ and RANDOM ones, in one round trip."""
    columns = (
        ladder_bots.c.label,
        ladder_bots.c.mu,
        ladder_bots.c.sigma,
        ladder_bots.c.last_seq,
        ladder_bots.c.firsts,
        ladder_bots.c.role,
    )
    above = (
        sa.select(*columns)
        .where(active, ladder_bots.c.mu >= seed.mu, ladder_bots.c.label != seed.label)
        .order_by(ladder_bots.c.mu)
        .limit(NEAREST)
    )
    below = (
        sa.select(*columns)
        .where(active, ladder_bots.c.mu < seed.mu)
        .order_by(ladder_bots.c.mu.desc())
        .limit(NEAREST)
    )
    anywhere = (
        sa.select(*columns)
        .where(active, ladder_bots.c.rnd >= rng.random())
        .order_by(ladder_bots.c.rnd)
        .limit(RANDOM)
    )
    parts = [sa.select(q.subquery()) for q in (above, below, anywhere)]
    return [_entry(row) for row in conn.execute(sa.union_all(*parts))]


def _choose_roles(
    conn: Connection, plan: dict[str, Any], active: Any, rng: random.Random
) -> tuple[list[str], str | None] | None:
    """A role ladder's next game: the seed chosen over every role as in any ladder, then
    one opponent of each other role, drawn as opponents are among that role's versions
    (each role's μ is on its own scale, centred on the prior, so a close μ pairs the strong
    of one role with the strong of the other); each version in its role's seat. None when
    a role has no active version."""
    roles = plan["roles"]
    if conn.execute(sa.select(ladder_bots.c.label).where(active).limit(1)).first() is None:
        return None
    seed = _seed(conn, active)
    chosen = {seed.role: seed}
    for role in roles:
        if role == seed.role:
            continue
        candidates = _candidates(conn, sa.and_(active, ladder_bots.c.role == role), seed, rng)
        if not candidates:
            return None
        chosen[role] = pick_opponents(seed, candidates, 1, rng)[0]
    maps = plan.get("map_players") or []
    return [chosen[role].label for role in roles], rng.choice(maps)[0] if maps else None


def newcomer(conn: Connection, active: Any) -> Entry | None:
    """The version to seed before any other: the least sure one (highest σ, the longest
    waiting of equals) when its σ is above the field's median σ; None when no σ is (a field
    of equals, a new ladder). A new or updated version is the least sure of a running field,
    so it seeds every game until its σ comes down to the field's least sure, then it takes
    turns with them until it is as sure as the median: it plays far more than two thirds of
    the games meanwhile (the 2011 contest gave it one game in two). Reads every active
    version's σ for the median: O(n)."""
    rows = conn.execute(
        sa.select(ladder_bots.c.label, ladder_bots.c.sigma, ladder_bots.c.last_seq).where(active)
    ).all()
    if not rows:
        return None
    first = min(rows, key=lambda row: (-row.sigma, row.last_seq, row.label))
    if first.sigma <= statistics.median(row.sigma for row in rows):
        return None
    return _entry(
        conn.execute(sa.select(ladder_bots).where(active, ladder_bots.c.label == first.label)).one()
    )


def make_and_claim(
    store: Store,
    tournament: Tournament,
    runner: str,
    rng: random.Random,
    avoid: Collection[str] = (),
) -> GameRow | None:
    """Choose the next ladder game and insert it already claimed by `runner`, in one
    transaction (on PostgreSQL the tournament row is locked meanwhile, so two workers choose
    one after the other and see each other's games)."""
    with store.transaction() as conn:
        plan = sa.select(tournaments.c.plan).where(tournaments.c.id == tournament.id)
        if conn.dialect.name == "postgresql":
            # NO KEY UPDATE: it orders the workers choosing games, and leaves the key-share
            # lock that inserting a row naming this tournament takes (an update-bot holding
            # the rows this choice waits for) free, where FOR UPDATE deadlocked with it
            plan = plan.with_for_update(key_share=True)
        if conn.execute(plan).scalar_one().get("finals"):
            return None  # frozen by its finals: its standings stay as they were
        chosen = choose(conn, tournament, rng, avoid)
        if chosen is None:
            return None
        seats, map_path = chosen
        digest = hashlib.sha256(f"{tournament.plan['seed']}|{uuid.uuid4().hex}".encode())
        seed = int.from_bytes(digest.digest()[:4], "big") >> 1
        row = conn.execute(
            games.insert()
            .values(
                tournament_id=tournament.id,
                key=f"{tournament.name}/ladder/{uuid.uuid4().hex}",
                round=0,
                pairing="-".join(seats),
                idx=0,
                seed=seed,
                map=map_path,
                seats=seats,
                status="claimed",
                claimed_by=runner,
                claimed_at=time.time(),
            )
            .returning(*games.c)
        ).one()
        lock_rows(conn, tournament.id, seats)
        conn.execute(
            ladder_bots.update()
            .where(ladder_bots.c.tournament_id == tournament.id, ladder_bots.c.label.in_(seats))
            .values(
                last_seq=row.id,
                firsts=ladder_bots.c.firsts
                + sa.case((ladder_bots.c.label == seats[0], 1), else_=0),
            )
        )
        return _game(row)


def claim_pending(
    store: Store, tournament_ids: Sequence[int], runner: str, given_back: Collection[int] = ()
) -> tuple[int, GameRow] | None:
    """Claim the oldest pending game of these tournaments (test competitions, finals, games
    another worker gave back), but none of `given_back` (this worker's own jury failures):
    on PostgreSQL with SELECT ... FOR UPDATE SKIP LOCKED (workers never wait on each
    other's rows), on SQLite in the write transaction every BEGIN takes."""
    if not tournament_ids:
        return None
    with store.transaction() as conn:
        query = (
            sa.select(games.c.id)
            .where(games.c.tournament_id.in_(tournament_ids), games.c.status == "pending")
            .order_by(games.c.id)
            .limit(1)
        )
        if given_back:
            query = query.where(games.c.id.notin_(sorted(given_back)))
        if conn.dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True)
        found = conn.execute(query).scalar()
        if found is None:
            return None
        row = conn.execute(
            games.update()
            .where(games.c.id == found, games.c.status == "pending")
            .values(status="claimed", claimed_by=runner, claimed_at=time.time())
            .returning(*games.c)
        ).first()
        return None if row is None else (row.tournament_id, _game(row))


def finish(store: Store, game: GameRow, runner: str, result: dict[str, Any], ladder: bool) -> bool:
    """Commit a result (and its replay, compressed, and for a ladder game the new ratings)
    in one transaction, only while `runner` still holds the claim; False: dropped."""
    values = finished_values(result)
    blob = None
    if not result.get("error") and result.get("replay"):
        try:
            blob = _compressed(Path(result["replay"]).read_bytes())
        except OSError:
            blob = None
    with store.transaction() as conn:
        if (
            conn.execute(
                games.update()
                .where(
                    games.c.id == game.id, games.c.status == "claimed", games.c.claimed_by == runner
                )
                .values(**values)
            ).rowcount
            != 1
        ):
            return False
        if blob is not None:
            conn.execute(replays.insert().values(game_id=game.id, data=blob))
        if ladder and not result.get("error"):
            # the game's row first, then its seats' (the order update-bot takes them in:
            # the other order deadlocked), with the versions its comparisons rate in a
            # ladder of roles; its finish time once they are held, so games sharing a
            # version finish in the order they are rated
            tid = conn.execute(
                sa.select(games.c.tournament_id).where(games.c.id == game.id)
            ).scalar_one()
            rows = _lock_rated(conn, tid, game, stamp=True)
            _rate(conn, game, result["ranks"], rows)
        return True


def _compressed(data: bytes) -> bytes:
    return data if data[:2] == b"\x1f\x8b" else gzip.compress(data, 6)


def _lock_rated(conn: Connection, tid: int, game: GameRow, stamp: bool = False) -> Sequence[Any]:
    """Lock the rows rating `game` may change, in the order of their labels: its seats and,
    in a ladder of roles, the versions of the earlier games it is compared with; `stamp`:
    then its finish time is now, so games sharing a version finish in the order they are
    rated. The earlier games are found before their lock; when one that finished meanwhile
    names another version, the locks are given back (a savepoint) and taken again with
    it, all in order: a lock taken out of order deadlocked PostgreSQL's racing workers."""
    roles = roleladder.role_signs(conn, tid) is not None
    wanted = set(game.seats)
    while True:
        if roles:
            earlier = roleladder.earlier_games(conn, tid, game.id)
            wanted |= {label for played in earlier for label in played.seats}
        held = conn.begin_nested() if roles else None
        rows = lock_rows(conn, tid, sorted(wanted))
        if stamp:
            conn.execute(
                games.update().where(games.c.id == game.id).values(finished_at=time.time())
            )
        if held is None:
            return rows
        earlier = roleladder.earlier_games(conn, tid, game.id)  # final: its seats are held
        named = {label for played in earlier for label in played.seats}
        if named <= wanted:
            held.commit()
            return rows
        held.rollback()
        wanted |= named


def _rate(
    conn: Connection, game: GameRow, ranks: Sequence[int], locked: Sequence[Any] | None = None
) -> None:
    """Update μ, σ and the game count of the seats' versions by openskill's Plackett–Luce;
    in a ladder of roles, count the game for its seats and rate the versions of its
    comparisons (tournament/roleladder.py).

    A game counts when every seat still has its ladder row, whatever the row's state: a
    version replaced or retired while the game was played still takes its result. That is
    the one rule arena/admin.py's `rerate` applies again from the played games, so the live
    ratings always equal the recomputed ones (a void changes only the voided game)."""
    from openskill.models import PlackettLuce

    tid, scores = conn.execute(
        sa.select(games.c.tournament_id, games.c.scores).where(games.c.id == game.id)
    ).one()
    if locked is None:
        locked = _lock_rated(conn, tid, game)
    rows = {row.label: row for row in locked}
    if not all(s in rows for s in game.seats) or len(set(game.seats)) != len(game.seats):
        return  # a seat with no ladder row (a bot of no ladder): nothing to rate
    signs = roleladder.role_signs(conn, tid)
    if signs is None:
        model = PlackettLuce()
        teams = [[model.rating(mu=rows[s].mu, sigma=rows[s].sigma, name=s)] for s in game.seats]
        rated = model.rate(teams, ranks=[float(r) for r in ranks])
        changed = {s: (r.mu, r.sigma) for s, [r] in zip(game.seats, rated, strict=True)}
    else:
        played = roleladder.Played(tuple(game.seats), tuple(ranks), tuple(scores))
        earlier = roleladder.earlier_games(conn, tid, game.id)
        found = roleladder.comparisons(played, earlier, signs)
        changed = roleladder.rate({label: (r.mu, r.sigma) for label, r in rows.items()}, found)
    for label in sorted({*game.seats, *changed}):
        values: dict[str, Any] = {}
        if label in changed:
            mu, sigma = changed[label]
            values.update(mu=mu, sigma=sigma, queue=0 if sigma > SETTLED_SIGMA else 1)
        if label in game.seats:
            values["games"] = ladder_bots.c.games + 1
        conn.execute(
            ladder_bots.update()
            .where(ladder_bots.c.tournament_id == tid, ladder_bots.c.label == label)
            .values(**values)
        )
    if changed:
        conn.execute(
            ladder_ratings.insert(),
            [
                {"game_id": game.id, "label": label, "tournament_id": tid, "mu": mu, "sigma": sigma}
                for label, (mu, sigma) in changed.items()
            ],
        )


def replay_bytes(store: Store, game_id: int) -> bytes | None:
    """A game's replay as stored (gzip JSON), for the site and `view`."""
    with store.engine.connect() as conn:
        return conn.execute(sa.select(replays.c.data).where(replays.c.game_id == game_id)).scalar()


@dataclass(frozen=True)
class Standing:
    """One line of a ladder's standings; in a ladder of roles, `role` names the version's
    and `mean_score` is its mean score over its played games (None before its first)."""

    rank: int
    bot: str
    label: str
    ordinal: float
    mu: float
    sigma: float
    games: int
    last_hour: int
    role: str | None = None
    mean_score: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """Its fields; `role` and `mean_score` only in a ladder of roles (as a tournament's
        standings name a role only in role games), so other ladders' lines are as before."""
        found = dict(self.__dict__)
        if self.role is None:
            del found["role"], found["mean_score"]
        return found


def standings(store: Store, tournament: Tournament, now: float | None = None) -> list[Standing]:
    """Active versions by ordinal μ − 3σ (best first), with their games in the last hour; in
    a ladder of roles, one ranking a role (in seat order), each from rank 1."""
    now = time.time() if now is None else now
    roles = tournament.plan.get("roles") or []
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(ladder_bots).where(active_versions(tournament.id))).all()
        recent = conn.execute(
            sa.select(games.c.seats).where(
                games.c.tournament_id == tournament.id,
                games.c.status == "done",
                games.c.finished_at >= now - 3600,
            )
        ).all()
        means = _mean_scores(conn, tournament.id, len(roles))
    hour: dict[str, int] = {}
    for (seats,) in recent:
        for label in seats:
            hour[label] = hour.get(label, 0) + 1

    def group(row: Any) -> int:
        return roles.index(row.role) if row.role in roles else len(roles)

    ordered = sorted(rows, key=lambda r: (group(r), -(r.mu - 3 * r.sigma), r.label))
    table: list[Standing] = []
    for i, r in enumerate(ordered):
        same_role = i > 0 and group(ordered[i - 1]) == group(r)
        table.append(
            Standing(
                table[-1].rank + 1 if same_role else 1,
                r.name,
                r.label,
                r.mu - 3 * r.sigma,
                r.mu,
                r.sigma,
                r.games,
                hour.get(r.label, 0),
                r.role,
                means.get(r.label),
            )
        )
    return table


def _mean_scores(conn: Connection, tid: int, seats: int) -> dict[str, float]:
    """Each version's mean score over its ladder's done games, for the `seats` seats of a
    ladder of roles (a version sits in its role's seat only): one grouped query a seat."""
    means: dict[str, float] = {}
    for seat in range(seats):
        played = (
            sa.select(
                games.c.seats[seat].as_string().label("label"),
                games.c.scores[seat].as_float().label("score"),
            )
            .where(games.c.tournament_id == tid, games.c.status == "done")
            .subquery()
        )
        query = sa.select(played.c.label, sa.func.avg(played.c.score)).group_by(played.c.label)
        means.update((label, float(mean)) for label, mean in conn.execute(query))
    return means
