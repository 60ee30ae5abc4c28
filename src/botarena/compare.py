"""`botarena compare`: did my change help? NEW against OLD in paired games until an SPRT decides.

A block is NEW in every seat in turn against copies of OLD, all on one seed (for 2 players: a
seat-swapped game pair). The blocks are played by a process pool but read in block order, so a
run is reproduced from its seed whatever the number of workers.
"""

from __future__ import annotations

import concurrent.futures
import math
import secrets
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any

import typer

from botarena.cliparts import MAX_GAMES, MAX_SEATS, MAX_SEED, MAX_WORKERS, within
from botarena.stats.sprt import Bounds, Sprt


def game_score(ranks: list[int], new_seat: int) -> Fraction:
    """NEW's score in one game: the share of OLD copies it places above, a tie counting half."""
    mine = ranks[new_seat]
    others = [rank for seat, rank in enumerate(ranks) if seat != new_seat]
    below = sum(rank > mine for rank in others)
    tied = sum(rank == mine for rank in others)
    return Fraction(2 * below + tied, 2 * len(others))


def play_block(
    game: str,
    new: str,
    old: str,
    players: int,
    seed: int,
    options: dict[str, str],
    map_spec: str | None = None,
) -> list[list[int]]:
    """The ranks of each game of one block (game k has NEW in seat k), in a worker process;
    `map_spec` is a map file or `GAME:NAME` (None: the game's own)."""
    import botarena

    ranks = []
    for seat in range(players):
        specs = [f"OLD{index}={old}" for index in range(1, players)]
        specs.insert(seat, f"NEW={new}")
        result = botarena.play(game, specs, seed=seed, map=map_spec, **options)
        ranks.append([player.rank for player in result.players])
    return ranks


@dataclass
class Tally:
    """What the games so far say: W-D-L, the block scores' test, and the verdict."""

    sprt: Sprt
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: int = 0
    verdict: str | None = None
    block_counts: dict[Fraction, int] = field(default_factory=dict)

    def add_block(self, ranks_per_game: list[list[int]]) -> None:
        scores = [game_score(ranks, seat) for seat, ranks in enumerate(ranks_per_game)]
        for score in scores:
            self.games += 1
            if score == 1:
                self.wins += 1
            elif score == 0:
                self.losses += 1
            else:
                self.draws += 1
        block = sum(scores, Fraction(0)) / len(scores)
        self.sprt.add(block)
        self.verdict = self.sprt.verdict()

    def to_dict(self) -> dict[str, Any]:
        elo, low, high = self.sprt.elo()

        def finite(value: float) -> float | None:
            return round(value, 2) if math.isfinite(value) else None

        return {
            "verdict": self.verdict or "none",
            "games": self.games,
            "blocks": self.sprt.blocks,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(self.sprt.mean(), 4),
            "elo": finite(elo),
            "elo_low": finite(low),
            "elo_high": finite(high),
            # what the interval is: fixed-sample, so after the SPRT stopped it is not a 95 %
            # interval (biased toward the bound crossed; docs/compare.md)
            "elo_interval": "fixed-sample" + (", SPRT-stopped" if self.verdict else ""),
            "llr": round(self.sprt.llr(), 3),
            "llr_lower": round(self.sprt.bounds.lower, 3),
            "llr_upper": round(self.sprt.bounds.upper, 3),
            "elo0": self.sprt.elo0,
            "elo1": self.sprt.elo1,
            "alpha": self.sprt.bounds.alpha,
            "beta": self.sprt.bounds.beta,
            "block_scores": {
                str(value): count for value, count in sorted(self.sprt.counts.items())
            },
        }


def _blocks_in_order(
    pool: concurrent.futures.Executor, play: Callable[[int], tuple], count: int, in_flight: int
) -> Iterator[list[list[int]]]:
    """Results of blocks 0..count-1 in order, keeping `in_flight` blocks submitted ahead;
    `play(index)` gives the arguments of `play_block` for a block."""
    pending: dict[int, concurrent.futures.Future] = {}
    for index in range(count):
        for ahead in range(index + len(pending), min(count, index + in_flight)):
            pending[ahead] = pool.submit(play_block, *play(ahead))
        yield pending.pop(index).result()


def compare(
    game: str,
    new: str,
    old: str,
    *,
    players: int,
    max_games: int,
    elo0: float = 0.0,
    elo1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    workers: int = 1,
    seed: int | None = None,
    options: dict[str, str] | None = None,
    on_block: Callable[[Tally], None] | None = None,
    map_spec: str | None = None,
) -> Tally:
    """Play blocks until the SPRT decides or `max_games` games are played."""
    seed = secrets.randbelow(2**31) if seed is None else seed
    tally = Tally(Sprt(players=players, elo0=elo0, elo1=elo1, bounds=Bounds(alpha, beta)))
    blocks = max(1, max_games // players)

    def arguments(index: int) -> tuple:
        return game, new, old, players, seed + index, options or {}, map_spec

    if workers <= 1:
        return _consume(tally, (play_block(*arguments(index)) for index in range(blocks)), on_block)
    from botarena.core import cgroups

    cgroups.available()  # while the jury is alone: see cgroups.v2.JURY_LEAF
    from botarena.core.sandbox import die_with_parent

    with concurrent.futures.ProcessPoolExecutor(
        max_workers=workers, initializer=die_with_parent
    ) as pool:
        try:
            return _consume(tally, _blocks_in_order(pool, arguments, blocks, 2 * workers), on_block)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _consume(
    tally: Tally, results: Iterator[list[list[int]]], on_block: Callable[[Tally], None] | None
) -> Tally:
    for ranks in results:
        tally.add_block(ranks)
        if on_block is not None:
            on_block(tally)
        if tally.verdict is not None:
            break
    return tally


def status_line(tally: Tally) -> str:
    """The live line: games, W-D-L, block scores, Elo with its interval, the LLR and bounds."""
    facts = tally.to_dict()

    elo, low, high = tally.sprt.elo()
    blocks = " ".join(f"{value}:{count}" for value, count in facts["block_scores"].items())
    return (
        f"games {facts['games']}  W-D-L {facts['wins']}-{facts['draws']}-{facts['losses']}"
        f"  blocks [{blocks}]  Elo {elo:+.1f} [{low:+.1f}, {high:+.1f}]"
        f"  LLR {facts['llr']:.2f} ({facts['llr_lower']:.2f}, {facts['llr_upper']:.2f})"
    )


def parse_sprt(text: str) -> tuple[float, float]:
    """ELO0,ELO1 as two numbers (also the contest site's `compare_sprt`); ValueError."""
    low, comma, high = text.partition(",")
    try:
        elo0, elo1 = float(low), float(high)
    except ValueError:
        raise ValueError(f"--sprt {text!r} is not ELO0,ELO1 (two numbers)") from None
    if not comma or not (math.isfinite(elo0) and math.isfinite(elo1)) or elo0 >= elo1:
        raise ValueError(f"--sprt {text!r}: ELO0 must be a number below ELO1")
    if max(abs(elo0), abs(elo1)) > SPRT_ELO_LIMIT:
        raise ValueError(
            f"--sprt {text!r}: Elo bounds lie between -{SPRT_ELO_LIMIT} and {SPRT_ELO_LIMIT}"
            " (beyond, a game's expected score is 0 or 1 in floating point)"
        )
    return elo0, elo1


SPRT_ELO_LIMIT = 1000


def command(
    new: Annotated[str, typer.Argument(help="the new bot's spec")],
    old: Annotated[str, typer.Argument(help="the old bot's spec")],
    game: Annotated[str, typer.Option("--game", help="the game to play")],
    max_games: Annotated[
        int,
        typer.Option("--games", help="stop after this many games", callback=within(1, MAX_GAMES)),
    ] = 2000,
    sprt: Annotated[str, typer.Option(help="the SPRT's hypotheses ELO0,ELO1")] = "0,10",
    alpha: Annotated[float, typer.Option(help="false-positive rate")] = 0.05,
    beta: Annotated[float, typer.Option(help="false-negative rate")] = 0.05,
    workers: Annotated[
        int, typer.Option(help="games played at once", callback=within(1, MAX_WORKERS))
    ] = 1,
    players: Annotated[
        int | None,
        typer.Option(
            help="seats per game (default: the game's least)", callback=within(1, MAX_SEATS)
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="the first block's seed", callback=within(0, MAX_SEED))
    ] = None,
    map_spec: Annotated[
        str | None,
        typer.Option("--map", help="a map file or GAME:NAME (botarena GAME maps) for every game"),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("-o", "--option", help="a game option KEY=VALUE")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the verdict as JSON")] = False,
) -> None:
    """Play NEW against OLD in seat-swapped blocks until an SPRT decides (docs/compare.md)."""
    import json
    from contextlib import nullcontext

    from botarena.cliparts import fail, parse_options
    from botarena.core.console import literal_console
    from botarena.core.progress import Lines
    from botarena.core.registry import get_game
    from botarena.core.rules import GameError
    from botarena.core.setup import set_up
    from botarena.core.spec import BotSpecError

    try:
        rules = get_game(game)
    except KeyError as exc:
        fail(exc.args[0])
    info = rules.info
    if info.turn_model == "roles":
        fail(
            f"compare needs seats that are alike; {game}'s seats are roles"
            f" ({', '.join(info.seat_names)})"
        )
    if map_spec is not None:
        try:
            shape = rules.read_map(map_spec)
        except GameError as exc:
            fail(str(exc))
        players = players or getattr(shape, "players", None)
    players = players or info.min_seats
    if not info.min_seats <= players <= info.max_seats:
        fail(f"--players {players}: {game} takes {info.min_seats} to {info.max_seats}")
    try:
        elo0, elo1 = parse_sprt(sprt)
    except ValueError as exc:
        fail(str(exc))
    for name, rate in (("--alpha", alpha), ("--beta", beta)):
        if not 0 < rate < 0.5:
            fail(f"{name} {rate} must be above 0 and below 0.5")
    if max_games < players:
        fail(f"--games {max_games} is less than one block ({players} games)")
    try:
        options = rules.info.contest_options(parse_options(option or []))
        # the match set-up every game of the run goes through, checked once up front
        set_up(game, [new, *[old] * (players - 1)], seed=0, options=options)
    except (GameError, BotSpecError) as exc:
        fail(str(exc))
    seed = secrets.randbelow(2**31) if seed is None else seed
    console = literal_console(stderr=True)
    live = console.status("starting") if console.is_terminal else None
    lines = None if live is not None else Lines("compare", stream=sys.stderr)

    def show(tally: Tally) -> None:  # the ETA is to --games; an SPRT may stop sooner
        if live is not None:
            live.update(status_line(tally))
        elif lines is not None:
            lines.update(tally.games, max_games, status_line(tally))

    try:
        if live is not None:
            live.start()
        with lines or nullcontext():
            tally = compare(
                game,
                new,
                old,
                players=players,
                max_games=max_games,
                elo0=elo0,
                elo1=elo1,
                alpha=alpha,
                beta=beta,
                workers=workers,
                seed=seed,
                options=options,
                on_block=show,
                map_spec=map_spec,
            )
    except (GameError, BotSpecError) as exc:
        fail(str(exc))
    finally:
        if live is not None:
            live.stop()
    facts = {
        "game": game,
        "new": new,
        "old": old,
        "players": players,
        "seed": seed,
        **tally.to_dict(),
    }
    if as_json:
        print(json.dumps(facts))
        return
    print(status_line(tally))
    verdict = {
        "H1": f"NEW is better: H1 (Elo >= {elo1:g}) accepted",
        "H0": f"NEW is not better: H0 (Elo <= {elo0:g}) accepted",
        None: f"no verdict after {tally.games} games (the SPRT did not decide)",
    }
    print(verdict[tally.verdict])
    if tally.verdict is not None:
        print(
            "note: the Elo and its interval are fixed-sample estimates; the SPRT stopped when"
            " the evidence crossed a bound, so they lean toward that bound and the interval"
            " covers less than 95 % (docs/compare.md)"
        )
