"""The leaderboard server (`botarena serve`): read-only pages and a JSON API over a
tournament store: tournaments, standings with the rating plot, cross table, games with
filters (each opening in the viewer), bot pages."""

from __future__ import annotations

import json
import tempfile
import threading
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from botarena.core.replay import ReplayError, load
from botarena.tournament import ranking
from botarena.tournament.store import GameRow, Store, Tournament, sqlite_folder
from botarena.web.server import RENDERER_ROUTE, STATIC, gzipped
from botarena.web.viewdoc import page, static_text, view_document

RECENT = 10
"""Games whose stderr a bot page shows."""
RESULTS = ("win", "draw", "loss")
FRESH_WAIT_S = 0.05
"""How long a request waits for standings being computed again before it gets the last."""


class Board:
    """What the pages show, read from the store; standings, cross table and plot are
    computed once per state of the tournament (its game counts and bots), so polling pages
    cost two count queries."""

    def __init__(self, store: Store, db_url: str) -> None:
        self.store = store
        self.folder = sqlite_folder(db_url)
        self._cache: dict[tuple[str, str], tuple[Any, Any]] = {}
        self._refreshing: set[tuple[str, str]] = set()
        self._lock = threading.Lock()

    def tournament(self, name: str) -> Tournament:
        tournament = self.store.tournament(name)
        if tournament is None:
            raise HTTPException(404, f"no tournament {name!r}")
        return tournament

    def version(self, tournament: Tournament) -> str:
        """Changes whenever a game finishes or a bot is added or updated."""
        counts = sorted(self.store.counts(tournament).items())
        bots = [bot.label for bot in self.store.bots(tournament)]
        return json.dumps([counts, bots])

    def _cached(self, tournament: Tournament, what: str, compute: Any) -> tuple[str, Any]:
        """(a version of the tournament, `compute()` for it). The first time it is computed
        here; after that the last value is answered at once, and when the tournament has
        changed it is computed again in the background (a page polling a running tournament
        gets the newer value at its next poll)."""
        version = self.version(tournament)
        key = (tournament.name, what)
        refresh = None
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None and hit[0] != version and key not in self._refreshing:
                self._refreshing.add(key)
                refresh = threading.Thread(
                    target=self._refresh, args=(key, version, compute), daemon=True
                )
                refresh.start()
        if refresh is not None:
            refresh.join(FRESH_WAIT_S)  # a small tournament's new table is ready by then
            with self._lock:
                hit = self._cache[key]
        if hit is not None:
            return hit
        value = compute()
        with self._lock:
            self._cache[key] = (version, value)
        return version, value

    def _refresh(self, key: tuple[str, str], version: str, compute: Any) -> None:
        try:
            value = compute()
            with self._lock:
                self._cache[key] = (version, value)
        finally:
            with self._lock:
                self._refreshing.discard(key)

    def warm(self) -> None:
        """Compute every tournament's standings once (run at start, in the background)."""
        for tournament in self.store.tournaments():
            self.standings(tournament)

    def tournaments(self) -> list[dict[str, Any]]:
        out = []
        for tournament in self.store.tournaments():
            counts = self.store.counts(tournament)
            out.append(
                {
                    "name": tournament.name,
                    "game": tournament.game,
                    "schedule": tournament.schedule,
                    "bots": len(self.store.bots(tournament)),
                    "finished": counts.get("done", 0),
                    "scheduled": sum(n for s, n in counts.items() if s != "void"),
                    "running": bool(counts.get("claimed")) and self.store.running(tournament),
                }
            )
        return out

    def _records(self, tournament: Tournament) -> tuple[list[Any], list[str], dict[str, str]]:
        records, bots = self.store.records(tournament)
        return records, [bot.name for bot in bots], {b.name: b.role for b in bots if b.role}

    def standings(self, tournament: Tournament) -> dict[str, Any]:
        def compute() -> dict[str, Any]:
            records, names, roles = self._records(tournament)
            table = ranking.standings(tournament.game, records, names, roles=roles or None)
            method = ranking.default_rank_by(tournament.game)
            return {
                "tournament": tournament.name,
                "game": tournament.game,
                "rank_by": method,
                "games": len(ranking.counted_games(tournament.game, records)),
                "played": len(records),
                "standings": [row.to_dict() for row in table],
            }

        version, value = self._cached(tournament, "standings", compute)
        return {**value, "version": version}

    def cross_table(self, tournament: Tournament) -> dict[str, Any]:
        def compute() -> dict[str, Any]:
            records, names, _ = self._records(tournament)
            cells = ranking.cross_table(tournament.game, records, names)
            return {
                "bots": names,
                "cells": {
                    row: {
                        col: {"wins": c[0], "draws": c[1], "losses": c[2], "points": c[3]}
                        for col, c in line.items()
                    }
                    for row, line in cells.items()
                },
            }

        return self._cached(tournament, "cross", compute)[1]

    def plot(self, tournament: Tournament) -> bytes | None:
        """The rating-over-games PNG (the tournament's own plot), drawn once per state; kept in
        memory, so a server running for weeks leaves no file per state behind."""

        def compute() -> bytes | None:
            records, names, _ = self._records(tournament)
            if not records:
                return None
            with tempfile.TemporaryDirectory(prefix="botarena-serve-") as folder:
                path = Path(folder) / "standings.png"
                return ranking.plot_history(tournament.game, records, names, path).read_bytes()

        return self._cached(tournament, "plot", compute)[1]

    def games(
        self,
        tournament: Tournament,
        bot: str | None = None,
        result: str | None = None,
        fault: bool = False,
    ) -> list[dict[str, Any]]:
        """Games, newest first: only `bot`'s, only those `bot` won / drew / lost (`result`),
        only those with a fault or irregular status (`fault`)."""
        labels = {
            bot_row.label: bot_row.name
            for bot_row in self.store.bots(tournament, active_only=False)
        }
        irregular = ranking.irregular_statuses(tournament.game)
        out = []
        for row in reversed(self.store.games(tournament)):
            names = [labels.get(seat, seat) for seat in row.seats]
            if bot is not None and bot not in names:
                continue
            if fault and not _faulty(row, irregular):
                continue
            if result is not None and (
                row.status != "done" or bot is None or _result(row, names.index(bot)) != result
            ):
                continue
            out.append(_game_json(row, names))
        return out

    def bot(self, tournament: Tournament, name: str) -> dict[str, Any]:
        """A bot's record (its standings line), its games, and its stderr in recent ones."""
        standings = self.standings(tournament)["standings"]
        lines = [line for line in standings if line["bot"] == name]
        if not lines:
            raise HTTPException(404, f"no bot {name!r} in {tournament.name!r}")
        games = self.games(tournament, bot=name)
        recent = []
        for game in [g for g in games if g["replay"]][:RECENT]:
            seat = game["bots"].index(name)
            recent.append(
                {"id": game["id"], "key": game["key"], "stderr": self._stderr(game["replay"], seat)}
            )
        return {"bot": name, "standing": lines[0], "games": games, "recent_stderr": recent}

    def replay_path(self, replay: str | None) -> Path | None:
        """A game's replay file: as stored, or relative to the database's folder."""
        if not replay:
            return None
        path = Path(replay)
        if not path.is_absolute() and not path.exists() and self.folder is not None:
            path = self.folder / path
        return path

    def _stderr(self, replay: str, seat: int) -> str | None:
        path = self.replay_path(replay)
        if path is None:
            return None
        try:
            return str(load(path)["stderr"][seat])
        except (ReplayError, IndexError, KeyError):
            return None

    def game(self, tournament: Tournament, game_id: int) -> GameRow:
        for row in self.store.games(tournament):
            if row.id == game_id:
                return row
        raise HTTPException(404, f"no game {game_id} in {tournament.name!r}")


def _faulty(row: GameRow, irregular: frozenset[str]) -> bool:
    return bool(row.faults and any(row.faults)) or bool(
        row.statuses and any(status in irregular for status in row.statuses)
    )


def _result(row: GameRow, seat: int) -> str:
    best = min(row.ranks or (1,))
    if row.ranks is None or row.ranks[seat] != best:
        return "loss"
    return "draw" if list(row.ranks).count(best) > 1 else "win"


def _game_json(row: GameRow, names: list[str]) -> dict[str, Any]:
    return {
        "id": row.id,
        "key": row.key,
        "round": row.round,
        "bots": names,
        "status": row.status,
        "scores": _list(row.scores),
        "ranks": _list(row.ranks),
        "statuses": _list(row.statuses),
        "faults": _list(row.faults),
        "replay": row.replay,
        "error": row.error,
        "end_reason": row.end_reason,
    }


def _list(value: tuple | None) -> list | None:
    return None if value is None else list(value)


def leaderboard_app(store: Store, db_url: str, warm: bool = True) -> Starlette:
    """The read-only site: pages (one HTML shell, filled by leaderboard.js from the JSON
    API, every text set as text) and the API they read. With `warm`, every tournament's
    standings are computed in the background from the start."""
    board = Board(store, db_url)
    if warm:
        threading.Thread(target=board.warm, daemon=True).start()
    shell = static_text("leaderboard.html")

    def html(_: Request) -> HTMLResponse:
        return HTMLResponse(shell)

    def api_tournaments(_: Request) -> JSONResponse:
        return JSONResponse(board.tournaments())

    def api_standings(request: Request) -> JSONResponse:
        return JSONResponse(board.standings(board.tournament(request.path_params["name"])))

    def api_version(request: Request) -> JSONResponse:
        return JSONResponse(
            {"version": board.version(board.tournament(request.path_params["name"]))}
        )

    def api_cross(request: Request) -> JSONResponse:
        return JSONResponse(board.cross_table(board.tournament(request.path_params["name"])))

    def api_games(request: Request) -> JSONResponse:
        query = request.query_params
        result = query.get("result") or None
        if result is not None and result not in RESULTS:
            raise HTTPException(400, f"result must be one of {', '.join(RESULTS)}")
        if result is not None and not query.get("bot"):
            raise HTTPException(400, "result needs a bot (whose win, draw or loss)")
        return JSONResponse(
            board.games(
                board.tournament(request.path_params["name"]),
                bot=query.get("bot") or None,
                result=result,
                fault=query.get("fault") in ("1", "true", "yes"),
            )
        )

    def api_bot(request: Request) -> JSONResponse:
        return JSONResponse(
            board.bot(board.tournament(request.path_params["name"]), request.path_params["bot"])
        )

    def plot(request: Request) -> Response:
        png = board.plot(board.tournament(request.path_params["name"]))
        if png is None:
            raise HTTPException(404, "no finished game yet")
        return Response(png, media_type="image/png")

    def viewer(request: Request) -> HTMLResponse:
        tournament = board.tournament(request.path_params["name"])
        board.game(tournament, request.path_params["game"])
        return HTMLResponse(page({"url": "replay.json.gz"}, inline=False, static="/static/"))

    def replay(request: Request) -> Response:
        tournament = board.tournament(request.path_params["name"])
        path = board.replay_path(board.game(tournament, request.path_params["game"]).replay)
        if path is None:
            raise HTTPException(404, "this game has no replay")
        try:
            document = view_document(load(path))
        except ReplayError as exc:
            raise HTTPException(404, str(exc)) from None
        return Response(gzipped(document), media_type="application/octet-stream")

    base = "/api/tournaments/{name}"
    return Starlette(
        routes=[
            Route("/", html),
            Route("/t/{name}", html),
            Route("/t/{name}/bot/{bot:path}", html),
            Route("/t/{name}/game/{game:int}/", viewer),
            Route("/t/{name}/game/{game:int}/replay.json.gz", replay),
            Route("/api/tournaments", api_tournaments),
            Route(base + "/standings", api_standings),
            Route(base + "/version", api_version),
            Route(base + "/cross", api_cross),
            Route(base + "/games", api_games),
            Route(base + "/bots/{bot:path}", api_bot),
            Route(base + "/plot.png", plot),
            RENDERER_ROUTE,
            Mount("/static", StaticFiles(directory=STATIC)),
        ]
    )
