"""A bot's games and its rating over time: every game of the contest it played (the ladder,
its test games, challenges, compare games, test competitions, finals), newest first and
paged, each from the bot's side; its ladder rating after each rated game, per version; a
version's compare games against the one it replaced (arena/comparisons.py); and a
challenge (arena/challenges.py) asked for by its owner."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from botarena.arena import store as arena
from botarena.arena.api.http import Routes
from botarena.arena.api.site import ApiError, Call, Site, iso
from botarena.tournament.store import games, ladder_ratings

PAGE = 20
"""Games a page holds unless the caller asks for fewer or more (at most MAX_PAGE)."""
MAX_PAGE = 100
BATCH = 500
"""Games read at once while looking for a bot's: a game's seats are JSON, matched here."""


def _bot_or_404(site: Site, bot: str) -> None:
    with site.reader.engine.connect() as conn:
        known = arena.bot_row(conn, site.contest, bot) is not None
    if not known and not any(row.bot == bot for row in site.standings()):
        raise ApiError(404, f"no bot {bot!r}")


def query_int(call: Call, name: str, default: int | None, low: int, high: int) -> int | None:
    text = call.request.query_params.get(name)
    if text is None:
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise ApiError(400, f"{name} must be a whole number from {low} to {high}")
    return int(text)


def result_of(ranks: list[int] | None, seat: int) -> str | None:
    """`won` (first alone), `drew` (first with others) or `lost`, from `seat`'s side."""
    if not ranks or seat >= len(ranks):
        return None
    if ranks[seat] != min(ranks):
        return "lost"
    return "drew" if ranks.count(ranks[seat]) > 1 else "won"


def _kinds(site: Site) -> dict[int, str]:
    kinds = {}
    for tournament in site.reader.tournaments():
        kind = tournament.plan.get("stage") or tournament.schedule
        kinds[tournament.id] = "test" if kind == "uploads" else kind
    return kinds


def bot_games(site: Site, call: Call, bot: str) -> dict[str, Any]:
    _bot_or_404(site, bot)
    opponent = call.request.query_params.get("opponent")
    kinds = _kinds(site)
    page, following = scan(
        site,
        call,
        [games.c.status.in_(("done", "void"))],
        bot,
        lambda row: _from_side(row, bot, opponent, kinds),
    )
    return {"bot": bot, "games": page, "next": following}


def scan(
    site: Site,
    call: Call,
    where: list[Any],
    bot: str | None,
    shown: Callable[[Any], dict[str, Any] | None],
) -> tuple[list[dict[str, Any]], int | None]:
    """A page of the contest's games matching `where` (and with `bot` in a seat), newest
    first, from `?before=ID&limit=N`, each as `shown` makes it (None: left out); and the
    `before` of the next page, None on the last. A game's seats are JSON, so a bot's games
    are found by its name in `pairing` and checked by `shown`, BATCH rows at a time."""
    from botarena.web.server import MAX_ID

    limit = query_int(call, "limit", PAGE, 1, MAX_PAGE) or PAGE
    before = query_int(call, "before", None, 1, MAX_ID)
    conditions = [games.c.tournament_id.in_(arena.family(site.contest, site.reader)), *where]
    if bot is not None:
        escaped = bot.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        conditions.append(games.c.pairing.like(f"%{escaped}%", escape="\\"))
    found: list[dict[str, Any]] = []
    with site.reader.engine.connect() as conn:
        while len(found) <= limit:  # one more than a page tells whether another follows
            query = sa.select(games).where(*conditions).order_by(games.c.id.desc()).limit(BATCH)
            if before is not None:
                query = query.where(games.c.id < before)
            rows = conn.execute(query).all()
            found += [entry for entry in map(shown, rows) if entry is not None]
            if len(rows) < BATCH:
                break
            before = rows[-1].id
    page = found[:limit]
    return page, page[-1]["id"] if len(found) > limit else None


def _from_side(row: Any, bot: str, opponent: str | None, kinds: dict[int, str]) -> Any:
    names = [label.partition("@")[0] for label in row.seats]
    if bot not in names or (opponent is not None and opponent not in names):
        return None
    seat = names.index(bot)
    ranks = list(row.ranks) if row.ranks is not None else None
    return {
        "id": row.id,
        "kind": kinds.get(row.tournament_id, "ladder"),
        "version": row.seats[seat],
        "seat": seat,
        "place": None if ranks is None else ranks[seat],
        "score": None if row.scores is None else row.scores[seat],
        "result": "void" if row.status == "void" else result_of(ranks, seat),
        "opponents": [name for index, name in enumerate(names) if index != seat],
        "finished": iso(row.finished_at),
    }


def bot_ratings(site: Site, call: Call, bot: str) -> dict[str, Any]:
    """The bot's ladder rating (μ, σ, ordinal μ − 3σ) after each rated game, per version."""
    from botarena.tournament.store import ladder_bots

    _bot_or_404(site, bot)
    ladder = site.contest.ladder
    with site.reader.engine.connect() as conn:
        labels = (
            conn.execute(
                sa.select(ladder_bots.c.label)
                .where(ladder_bots.c.tournament_id == ladder.id, ladder_bots.c.name == bot)
                .order_by(ladder_bots.c.added_at)
            )
            .scalars()
            .all()
        )
        points = conn.execute(
            sa.select(ladder_ratings, games.c.finished_at)
            .join(games, games.c.id == ladder_ratings.c.game_id)
            .where(ladder_ratings.c.tournament_id == ladder.id, ladder_ratings.c.label.in_(labels))
            .order_by(games.c.finished_at, games.c.id)  # the order they were rated in
        ).all()
    by_label: dict[str, list[dict[str, Any]]] = {label: [] for label in labels}
    for point in points:
        by_label[point.label].append(
            {
                "game": point.game_id,
                "mu": point.mu,
                "sigma": point.sigma,
                "ordinal": point.mu - 3 * point.sigma,
                "finished": iso(point.finished_at),
            }
        )
    return {
        "bot": bot,
        "versions": [{"version": label, "ratings": by_label[label]} for label in labels],
    }


def version_compare(site: Site, call: Call, bot: str, version: int) -> dict[str, Any]:
    """Is version `version` better than the one it replaced? Its compare games so far and
    their SPRT: public, as the bot's page and its games are."""
    import math

    from botarena.arena.comparisons import judge, most_blocks, pair_of, players_of, sprt_of

    with site.reader.engine.connect() as conn:
        row = arena.bot_row(conn, site.contest, bot)
        if row is None:
            raise ApiError(404, f"no bot {bot!r}")
        known = conn.execute(
            sa.select(arena.uploads.c.id).where(
                arena.uploads.c.bot_id == row.id, arena.uploads.c.version == version
            )
        ).first()
        if known is None:
            raise ApiError(404, f"bot {bot!r} has no version {version}")
        pair = pair_of(conn, site.contest, bot, version)
        found = None if pair is None else judge(conn, site.contest, pair)
    players = players_of(site.contest)
    sprt = sprt_of(site.contest, players) if found is None else found.tally.sprt

    def finite(value: float) -> float | None:
        return round(value, 2) if math.isfinite(value) else None

    elo, low, high = sprt.elo()
    return {
        "version": version,
        "against": None if pair is None else pair.against,
        "state": "none" if found is None else found.state,
        "wins": 0 if found is None else found.tally.wins,
        "draws": 0 if found is None else found.tally.draws,
        "losses": 0 if found is None else found.tally.losses,
        "elo": finite(elo) if sprt.blocks else None,
        "elo_low": finite(low),
        "elo_high": finite(high),
        "llr": round(sprt.llr(), 3),
        "lower": round(sprt.bounds.lower, 3),
        "upper": round(sprt.bounds.upper, 3),
        "elo0": sprt.elo0,
        "elo1": sprt.elo1,
        "max_games": most_blocks(site.contest, players) * players,
        "line": [] if found is None else found.line,
        "games": [] if found is None else found.games,
    }


def post_challenge(site: Site, call: Call, bot: str) -> tuple[int, dict[str, Any]]:
    """One game now of the caller's `bot` against `{"opponent": NAME}` (or
    `{"opponents": [NAME, ...]}`), outside the ladder."""
    from botarena.arena.challenges import TooMany, challenge

    user = site.needs_user(call)
    with site.reader.engine.connect() as conn:
        row = arena.bot_row(conn, site.contest, bot)
    if row is None:
        raise ApiError(404, f"no bot {bot!r}")
    if row.owner_id != user.id:
        raise ApiError(403, f"bot {bot!r} is not yours: challenge with one of your bots")
    opponents = _opponents(call.body)
    try:
        game = challenge(site.store, site.contest, user, bot, opponents)
    except TooMany as exc:
        raise ApiError(429, str(exc), exc.wait) from None
    except arena.ArenaError as exc:
        raise ApiError(409, str(exc)) from None
    return 202, {"game": game, "status": "pending"}


def _opponents(body: Any) -> list[str]:
    """The bots a challenge names: `opponent`, or a list `opponents` (not both)."""
    body = body if isinstance(body, dict) else {}
    named = [body["opponent"]] if "opponent" in body else body.get("opponents")
    if (
        ("opponent" in body) == ("opponents" in body)
        or not isinstance(named, list)
        or not named
        or not all(isinstance(name, str) and name for name in named)
    ):
        raise ApiError(
            400,
            'name the opponent: {"opponent": BOT} or, in a game of more seats,'
            ' {"opponents": [BOT, ...]}',
        )
    return named


ROUTES: Routes = {
    ("POST", "/api/bots/{bot}/challenge"): post_challenge,
    ("GET", "/api/bots/{bot}/games"): bot_games,
    ("GET", "/api/bots/{bot}/ratings"): bot_ratings,
    ("GET", "/api/bots/{bot}/versions/{version:id}/compare"): version_compare,
}
