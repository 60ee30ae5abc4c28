"""Is a bot's new version better? Its compare games against the version it replaced.

When version N (N > 1) of a bot becomes active, the version it replaced (the latest earlier
one that played on the ladder) is its yardstick M. Workers with spare time (tournament/
runner.py `work`) play blocks as `botarena compare` does: N in each seat in turn against
copies of M, all on one seed (two seats: a seat-swapped pair), in the contest's
`NAME-compare` tournament (stage `compare`: never scheduled, never rated, on no standings),
until compare's SPRT decides or `compare_games` games are made. The tally reads the blocks
in the order they were made and stops at the first that decides, as `botarena compare`
does, so a block made meanwhile by another worker changes no verdict.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.arena.store import (
    Contest,
    WorkedContests,
    arena_bots,
    child_tournament,
    copy_bot,
    uploads,
)
from botarena.compare import Tally
from botarena.stats.sprt import Bounds, Sprt
from botarena.tournament import ladder
from botarena.tournament.store import GameRow, Store, Tournament, bots, games, tournaments

GAMES = 400
"""Compare games a new version plays at most, unless the contest says (`compare_games`)."""
SUFFIX, STAGE = "compare", "compare"
VERDICTS = {"H1": "accepted", "H0": "rejected"}
IDLE_S = 2.0
"""How long a runner that found no compare game to play waits before it looks again."""
SHOWN_GAMES = 50
"""The newest compare games an answer lists."""


@dataclass(frozen=True)
class Pair:
    """A comparison: the bot's version `version` (label `new`) against `against` (`old`)."""

    bot: str
    version: int
    against: int
    new: str
    old: str
    playing: bool
    """Whether the new version still plays on the ladder (its bot not disabled)."""

    def prefix(self, tournament: Tournament) -> str:
        """The start of the keys of its games: `TOURNAMENT/BOT/vN/`."""
        return f"{tournament.name}/{self.bot}/v{self.version}/"


@dataclass
class Comparison:
    """What a pair's compare games say so far."""

    pair: Pair
    tally: Tally
    state: str
    """running, accepted, rejected, or stopped (no verdict, no more games to play)."""
    blocks: int
    """Blocks made, played or not."""
    line: list[float] = field(default_factory=list)
    """The LLR after each block counted, in order (the bot page's live line)."""
    games: list[dict[str, Any]] = field(default_factory=list)
    """Its games, newest first: id, seed, and the result from the new version's side."""


def sprt_of(contest: Contest, players: int) -> Sprt:
    """An empty SPRT with the contest's hypotheses and error rates (`compare_sprt`,
    `compare_alpha`, `compare_beta`), by default those of `botarena compare`."""
    settings = contest.settings
    elo0, elo1 = settings.get("compare_sprt") or (Sprt.elo0, Sprt.elo1)
    bounds = Bounds(
        float(settings.get("compare_alpha", Bounds.alpha)),
        float(settings.get("compare_beta", Bounds.beta)),
    )
    return Sprt(players=players, elo0=float(elo0), elo1=float(elo1), bounds=bounds)


def players_of(contest: Contest) -> int:
    """Seats in a compare game: the game's fewest, as `botarena compare` plays by default."""
    from botarena.core.registry import game_info

    return game_info(contest.ladder.game).min_seats


def most_blocks(contest: Contest, players: int) -> int:
    return max(1, int(contest.settings.get("compare_games", GAMES)) // players)


def pair_of(conn: Connection, contest: Contest, bot: str, version: int) -> Pair | None:
    """The comparison of `bot`'s `version`, None when it has none (version 1, a version
    that never played on the ladder, no earlier version that did, a role game: two
    versions of one role never meet)."""
    if contest.roles:
        return None
    found = conn.execute(
        sa.select(uploads.c.version, uploads.c.label, uploads.c.status, arena_bots.c.disabled)
        .join(arena_bots, arena_bots.c.id == uploads.c.bot_id)
        .where(
            arena_bots.c.contest_id == contest.id,
            arena_bots.c.name == bot,
            uploads.c.version <= version,
            uploads.c.label.is_not(None),
        )
        .order_by(uploads.c.version.desc())
        .limit(2)
    ).all()
    if len(found) < 2 or found[0].version != version:
        return None
    new, old = found
    playing = new.status == "active" and not new.disabled
    return Pair(bot, version, old.version, new.label, old.label, playing)


def _tournament(conn: Connection, contest: Contest) -> Tournament | None:
    row = conn.execute(
        sa.select(tournaments).where(tournaments.c.name == f"{contest.ladder.name}-{SUFFIX}")
    ).first()
    if row is None:
        return None
    return Tournament(
        row.id, row.name, row.game, row.schedule, dict(row.plan), dict(row.options), row.replay_dir
    )


def _games_of(conn: Connection, tournament: Tournament, pair: Pair) -> list[Any]:
    return list(
        conn.execute(
            sa.select(games)
            .where(
                games.c.tournament_id == tournament.id,
                games.c.key.startswith(pair.prefix(tournament), autoescape=True),
            )
            .order_by(games.c.round, games.c.idx)
        ).all()
    )


def judge(conn: Connection, contest: Contest, pair: Pair) -> Comparison:
    """The comparison of `pair` from its games: the blocks in order, up to the first that
    decides; a block with a game that ended in an error is left out."""
    players = players_of(contest)
    tally = Tally(sprt_of(contest, players))
    tournament = _tournament(conn, contest)
    rows = [] if tournament is None else _games_of(conn, tournament, pair)
    by_block: dict[int, list[Any]] = {}
    for row in rows:
        by_block.setdefault(row.round, []).append(row)
    line: list[float] = []
    unfinished = any(row.status in ("pending", "claimed") for row in rows)
    for block in sorted(by_block):
        played = by_block[block]
        if tally.verdict is not None or any(r.status in ("pending", "claimed") for r in played):
            break
        if len(played) != players or any(row.status != "done" for row in played):
            continue
        tally.add_block([list(row.ranks) for row in sorted(played, key=lambda r: r.idx)])
        line.append(round(tally.sprt.llr(), 3))
    if tally.verdict is not None:
        state = VERDICTS[tally.verdict]
    elif unfinished or (pair.playing and len(by_block) < most_blocks(contest, players)):
        state = "running"
    else:
        state = "stopped"
    shown = [
        {"id": row.id, "seed": row.seed, "result": _result(row)}
        for row in sorted(rows, key=lambda r: -r.id)[:SHOWN_GAMES]
    ]
    return Comparison(pair, tally, state, len(by_block), line, shown)


def _result(row: Any) -> str | None:
    """won, drew or lost from the new version's side (it sits in seat `idx`), None unplayed."""
    if row.status != "done" or row.ranks is None:
        return None
    ranks = list(row.ranks)
    mine = ranks.pop(row.idx)
    if all(mine < rank for rank in ranks):
        return "won"
    if all(mine > rank for rank in ranks):
        return "lost"
    return "drew"


class Compares:
    """The compare games as one runner works them (runner.work calls `claim`): a pending
    one first (a block's later seats, a game given back), else it makes the next block of
    the running comparison with the fewest blocks."""

    def __init__(self, store: Store, runner: str, names: list[str] | None) -> None:
        self.store, self.runner = store, runner
        self.contests = WorkedContests(store, names)
        self.settled: set[tuple[int, str, int]] = set()
        """Comparisons this runner saw end: (contest, bot, version); none starts again."""
        self.rng = random.Random()
        self.idle_until = 0.0

    def claim(self, given_back: set[int]) -> tuple[Tournament, GameRow] | None:
        """Claim a compare game of any contest; (its tournament, the game) or None. After
        finding none it looks again only IDLE_S later (the ladder goes on meanwhile)."""
        if time.monotonic() < self.idle_until:
            return None
        found = self._claim(given_back)
        if found is None:
            self.idle_until = time.monotonic() + IDLE_S
        return found

    def _claim(self, given_back: set[int]) -> tuple[Tournament, GameRow] | None:
        for contest in self.contests.current():
            with self.store.engine.connect() as conn:
                tournament = _tournament(conn, contest)
            if tournament is not None:
                claimed = ladder.claim_pending(self.store, [tournament.id], self.runner, given_back)
                if claimed is not None:
                    return tournament, claimed[1]
            pair = self._wanting(contest)
            if pair is None:
                continue
            try:
                tournament = self._add_block(contest, pair)
            except sa.exc.IntegrityError:  # another worker made this block first
                continue
            if tournament is None:
                continue
            claimed = ladder.claim_pending(self.store, [tournament.id], self.runner, given_back)
            if claimed is not None:
                return tournament, claimed[1]
        return None

    def _wanting(self, contest: Contest) -> Pair | None:
        """The running comparison of `contest` with the fewest blocks, None if none runs."""
        with self.store.engine.connect() as conn:
            playing = conn.execute(
                sa.select(arena_bots.c.name, uploads.c.version)
                .join(arena_bots, arena_bots.c.id == uploads.c.bot_id)
                .where(
                    arena_bots.c.contest_id == contest.id,
                    arena_bots.c.disabled.is_(False),
                    uploads.c.status == "active",
                    uploads.c.version > 1,
                )
                .order_by(uploads.c.id)
            ).all()
            best: Comparison | None = None
            for name, version in playing:
                if (contest.id, name, version) in self.settled:
                    continue
                pair = pair_of(conn, contest, name, version)
                if pair is None:
                    continue
                found = judge(conn, contest, pair)
                if found.state != "running":
                    self.settled.add((contest.id, name, version))
                elif best is None or found.blocks < best.blocks:
                    best = found
        if best is None or best.blocks >= most_blocks(contest, players_of(contest)):
            return None
        return best.pair

    def _add_block(self, contest: Contest, pair: Pair) -> Tournament | None:
        """Add the comparison's next block, pending: the new version in each seat in turn,
        copies of the old one in the others, one seed. None when it wants no more."""
        players = players_of(contest)
        now = time.time()
        with self.store.transaction() as conn:
            if conn.dialect.name == "postgresql":  # one block of a contest at a time
                conn.execute(
                    sa.select(tournaments.c.id)
                    .where(tournaments.c.id == contest.ladder.id)
                    .with_for_update(key_share=True)
                )
            child = child_tournament(conn, self.store, contest.ladder, SUFFIX, STAGE, players)
            made = judge(conn, contest, pair)
            if made.state != "running" or made.blocks >= most_blocks(contest, players):
                return None
            olds = [pair.old] + [f"{pair.bot}@v{pair.against}.{k}" for k in range(2, players)]
            for label, copied in [(pair.new, pair.new), *((o, pair.old) for o in olds)]:
                row = conn.execute(
                    sa.select(bots).where(
                        bots.c.tournament_id == contest.ladder.id, bots.c.label == copied
                    )
                ).one()
                copy_bot(conn, child, row, label, now)
            seed = self.rng.getrandbits(31)
            plan_maps = contest.ladder.plan.get("map_players") or []
            game_map = next((m for m, n in plan_maps if n == players), None)
            for seat in range(players):
                seats = list(olds)
                seats.insert(seat, pair.new)
                conn.execute(
                    games.insert().values(
                        tournament_id=child.id,
                        key=f"{pair.prefix(child)}{made.blocks}/{seat}",
                        round=made.blocks,
                        pairing=f"{pair.new}-{pair.old}",
                        idx=seat,
                        seed=seed,
                        map=game_map,
                        seats=seats,
                        status="pending",
                    )
                )
        return child
