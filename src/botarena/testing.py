"""The conformance kit: `check_game(game)` asserts a hosted game keeps the plug-in contract.

For a game's own test suite (pytest-friendly: a broken promise is an AssertionError naming
the game, the seed and the promise):

    from botarena.testing import check_game

    def test_connect4_keeps_the_contract() -> None:
        check_game("connect4")

It checks, for `seeds` and for the fewest and the most seats the game takes: the `State`
contract (`to_act`, `observation`, `apply`, `is_over`, `outcome`, `clone`, frames and header
as JSON), that the seed decides the game, that the replay survives a JSON round trip and
`verify`, that every observation's text reads back through the protocol's bot side, random
play to the end with the game's built-in bots, and the PettingZoo `api_test` (every game
runs in the adapter: one without an env spec gets the default spaces). docs/new-game.md
describes the contract.
"""

from __future__ import annotations

import io
import json
import warnings
from collections.abc import Iterable
from typing import Any

from botarena.core.game import Game

VOLATILE = ("ms", "cpu_s")
"""Fields of a recorded act that measure time, so differ between two runs of one game."""


def check_game(
    game: str | Game,
    *,
    seeds: Iterable[int] = range(10),
    options: dict[str, Any] | None = None,
    max_steps: int = 100_000,
    pettingzoo: bool = True,
    processes: bool = True,
) -> None:
    """Assert that the installed game `game` (its name or its `Game`) keeps the contract;
    `options` are played with (e.g. a shorter turn limit), `max_steps` bounds each game;
    `processes=False` leaves out the games of process bots (in the sandbox, seconds each)."""
    from botarena.core.registry import get_game

    rules = get_game(game if isinstance(game, str) else game.name)
    name = rules.name
    _check(rules.info.min_seats <= rules.info.max_seats, name, "min_seats <= max_seats")
    _check(bool(rules.bots), name, "it has at least one built-in bot to play with")
    resolved = rules.info.resolve_options(options or {})
    seat_counts = sorted({rules.info.min_seats, min(rules.info.max_seats, 4)})
    for seed in seeds:
        for seats in seat_counts:
            where = f"{name}, seed {seed}, {seats} seats"
            _check_state(rules, seed, resolved, seats, max_steps, where)
            first = _recorded(rules, seed, options or {}, seats)
            again = _recorded(rules, seed, options or {}, seats)
            _check(_steady(first) == _steady(again), where, "one seed gives one game")
            _check_replay(first, where)
    if pettingzoo:
        for seats in seat_counts:
            _check_pettingzoo(name, options or {}, seats)
    if processes:
        _check_faults(rules, options or {})
        _check_bots_as_processes(rules, options or {})
        _check_starters(rules, options or {})


def _check(holds: bool, where: str, promise: str) -> None:
    if not holds:
        raise AssertionError(f"{where}: broken promise: {promise}")


def _json(value: Any, where: str, what: str) -> Any:
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"{where}: broken promise: {what} is JSON ({exc})") from None


def _check_state(
    rules: Game, seed: int, options: dict[str, Any], seats: int, max_steps: int, where: str
) -> None:
    """Drive the State directly with the game's built-in bots (seeded) to the end."""
    state = rules.new_state(seed, options, None, seats)
    _json(state.header(), where, "the header")
    _json(state.frame(), where, "the initial frame")
    bots = [rules.bots[bot]() for bot in _bot_names(rules, seats)]
    for seat, bot in enumerate(bots):
        if hasattr(bot, "setup"):
            bot.setup(seat, str(seed))
    steps = 0
    while not state.is_over():
        _check(steps < max_steps, where, f"the game ends within {max_steps} steps")
        acting = state.to_act()
        _check(
            len(set(acting)) == len(acting) and all(0 <= s < seats for s in acting),
            where,
            f"to_act() names distinct seats of the game (step {steps}: {acting})",
        )
        actions = {}
        for seat in acting:
            observation = state.observation(seat)
            _check_text(rules, state, seat, observation, where)
            actions[seat] = bots[seat].act(observation)
        twin = state.clone()
        state.apply(actions)
        twin.apply(actions)
        frame = _json(state.frame(), where, f"the frame of step {steps}")
        _check(
            frame == _json(twin.frame(), where, "the clone's frame"),
            where,
            f"a clone plays as the original (step {steps})",
        )
        steps += 1
    outcome = state.outcome()
    _check(len(outcome.scores) == seats, where, "the outcome has a score per seat")
    _check(
        len(outcome.ranks) == seats and all(1 <= rank <= seats for rank in outcome.ranks),
        where,
        "the outcome ranks every seat from 1",
    )
    _check(bool(outcome.end_reason), where, "the outcome says why the game ended")
    _check(state.to_act() == [] or state.is_over(), where, "nobody acts once it is over")


def _bot_names(rules: Game, seats: int) -> list[str]:
    """Per seat, the game's `random` bot if it has one, else its first bot (by name) that
    takes that seat (in role games, a bot plays one role)."""
    from botarena.core.rules import GameError

    names = sorted(rules.bots, key=lambda name: (name != "random", name))
    chosen = []
    for seat in range(seats):
        for name in names:
            bot = rules.bots[name]()
            try:
                if hasattr(bot, "setup"):
                    bot.setup(seat, "0")
            except GameError:
                continue
            chosen.append(name)
            break
        else:
            raise AssertionError(f"{rules.name}: no built-in bot takes seat {seat}")
    return chosen


def _check_text(rules: Game, state: Any, seat: int, observation: Any, where: str) -> None:
    """The observation's text is lines, and the protocol's bot side reads it back (after
    the greeting, in games with a handshake: a bot reads that first)."""
    text = rules.protocol.encode(observation)
    _check(isinstance(text, str), where, "encode() gives text")
    if not text:
        return  # the game sends nothing at this step (e.g. a call-only transport)
    _check(text.endswith("\n"), where, "an observation's text ends with a newline")
    try:
        greeting = rules.protocol.greeting(state, seat) if rules.protocol.has_handshake else None
        stream = io.StringIO((greeting or "") + text)
        read = rules.protocol.read_observation(stream.readline)
    except NotImplementedError:
        return  # a game without a bot side
    _check(read is not None, where, "read_observation() reads back what encode() wrote")


def _recorded(rules: Game, seed: int, options: dict[str, Any], seats: int) -> dict[str, Any]:
    """The replay document of a game of built-in bots, as read back from its file."""
    specs = [f"builtin:{rules.name}/{bot}" for bot in _bot_names(rules, seats)]
    return _recorded_specs(rules, specs, seed, options)


def _recorded_specs(
    rules: Game, specs: list[str], seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    """The replay document of a game of the bots `specs`, as read back from its file."""
    import botarena

    result = botarena._play(
        rules.name,
        specs,
        seed=seed,
        map=None,
        replay=None,
        options=dict(options),
        observe=lambda document: None,
    )
    return json.loads(json.dumps(result.document))


def _recorded_result(rules: Game, specs: list[str], options: dict[str, Any]) -> Any:
    """The result of a game of the bots `specs` on seed 0."""
    import botarena

    return botarena._play(rules.name, specs, seed=0, map=None, replay=None, options=dict(options))


def _steady(document: dict[str, Any]) -> Any:
    """The document without what measures time."""
    steps = [
        {
            **step,
            "acts": [{k: v for k, v in act.items() if k not in VOLATILE} for act in step["acts"]],
        }
        for step in document["steps"]
    ]
    players = [
        {k: v for k, v in p.items() if k != "time_ms"} for p in document["result"]["players"]
    ]
    return {**document, "steps": steps, "result": {**document["result"], "players": players}}


def _check_replay(document: dict[str, Any], where: str) -> None:
    from botarena.core.replay import verify

    verdict = verify(document)
    _check(verdict.ok, where, f"verify() reproduces the replay ({verdict.message})")


def _check_pettingzoo(name: str, options: dict[str, Any], seats: int) -> None:
    """PettingZoo's own `api_test` on the game's adapter (its `env_spec`, or the default
    spaces), its AssertionError naming the game and the seats."""
    from pettingzoo.test import api_test

    import botarena

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            api_test(botarena.make(name, seed=1, seats=seats, **options), num_cycles=50)
        except AssertionError as exc:
            raise AssertionError(
                f"{name}, {seats} seats: broken promise: the PettingZoo adapter passes"
                f" api_test ({exc})"
            ) from exc


FAULTY = {
    "never answers": "import time\nwhile True: time.sleep(60)",
    "crashes": "raise SystemExit(3)",
}
"""Process bots (Python code) that check_game seats beside the built-in bots."""

FAULT_GRACE_MS = 1000.0
"""How much longer than its first time limit a faulty bot may be waited for in all."""


def _check_faults(rules: Game, options: dict[str, Any]) -> None:
    """A process bot that never answers, and one that crashes, in seat 0 beside the built-in
    bots: its first limit (the platform's default clock if the game declares none) ends its
    wait, the game's fault rule takes over, nobody waits for it again, and the game ends."""
    import shlex
    import sys

    import botarena

    name, seats = rules.name, rules.info.min_seats
    builtin = [f"builtin:{name}/{bot}" for bot in _bot_names(rules, seats)[1:]]
    limit = _first_limit(rules, options, seats)
    for kind, code in FAULTY.items():
        where = f"{name}, seed 0, {seats} seats, seat 0 a bot that {kind}"
        _check(limit is not None, where, "the first exchange with a bot has a time limit")
        spec = f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"
        result = botarena._play(
            name, [spec, *builtin], seed=0, map=None, replay=None, options=dict(options)
        )
        faulty = result.players[0]
        _check(faulty.faults >= 1, where, "its fault is counted")
        _check(bool(result.end_reason), where, "the game ends and says why")
        _check(
            faulty.time_ms <= 1000 * (limit or 0) + FAULT_GRACE_MS,
            where,
            f"it is waited for once, within its limit ({faulty.time_ms:.0f} ms in all,"
            f" limit {(limit or 0) * 1000:.0f} ms)",
        )


def _first_limit(rules: Game, options: dict[str, Any], seats: int) -> float | None:
    """The wall-time limit of the first exchange with seat 0, in seconds (None: none)."""
    resolved = rules.info.resolve_options(options)
    state = rules.new_state(0, resolved, None, seats)
    clock = state.handshake_clock(0) if rules.protocol.has_handshake else state.clock(0)
    if resolved.get("clock") == "cpu":
        clock = clock.in_cpu_time()
    limits = [limit for limit in (clock.reply_s, clock.budget_s) if limit is not None]
    return min(limits) if limits else None


def _check_bots_as_processes(rules: Game, options: dict[str, Any]) -> None:
    """Each built-in bot, run as a process in the sandbox (`python -m GAME.bots.NAME`, as
    any bot program), plays move for move as in-process, beside the same built-in bots."""
    import sys

    name, seats = rules.name, rules.info.min_seats
    contest = {**rules.info.contest_options({}), **options}  # the CPU clock where offered
    for bot in sorted(rules.bots):
        seat = _seat_of(rules, bot, seats)
        where = f"{name}, seed 0, {seats} seats, built-in bot {bot} in seat {seat}"
        specs = [f"builtin:{name}/{other}" for other in _bot_names(rules, seats)]
        specs[seat] = f"builtin:{name}/{bot}"
        inside = _moves(rules, specs, contest)
        specs[seat] = f"{sys.executable} -m {rules.bot_module(bot)}"
        outside = _moves(rules, specs, contest)
        for step, (one, other) in enumerate(zip(inside, outside, strict=False)):
            _check(
                one == other,
                where,
                f"as a process it plays as in-process (step {step}: {other} instead of {one})",
            )
        _check(len(inside) == len(outside), where, "as a process it plays as many steps")


def _seat_of(rules: Game, bot: str, seats: int) -> int:
    """The first seat built-in `bot` takes (in role games, a bot plays one role)."""
    from botarena.core.rules import GameError

    for seat in range(seats):
        made = rules.bots[bot]()
        try:
            if hasattr(made, "setup"):
                made.setup(seat, "0")
        except GameError:
            continue
        return seat
    raise AssertionError(f"{rules.name}: built-in bot {bot} takes no seat of {seats}")


def _moves(rules: Game, specs: list[str], options: dict[str, Any]) -> list[Any]:
    """Each step's (seat, reply, fault) of a game of `specs` on seed 0."""
    document = _recorded_specs(rules, specs, 0, options)
    return [
        [
            (act["seat"], act.get("reply", act.get("packed")), act.get("fault"))
            for act in step["acts"]
        ]
        for step in document["steps"]
    ]


def _check_starters(rules: Game, options: dict[str, Any]) -> None:
    """Each starter the game ships (`starters/bot.py`, `bot.cpp`, `Bot.java`, or one per
    role) is built by the tournaments' build step and plays a game as a process, in the seat
    its name says, beside the built-in bots, without a fault. A language whose tools are
    missing here is left out with a warning."""
    import shutil
    import tempfile
    from pathlib import Path

    from botarena.core import starters
    from botarena.tournament.build import BuildError, build_bot, language_of

    name, seats = rules.name, rules.info.min_seats
    contest = {**rules.info.contest_options({}), **options}
    for stem, languages in starters.shipped(name).items():
        seat = _starter_seat(rules, stem)
        for language in languages:
            file = starters.file_name(stem, language)
            where = f"{name}, seed 0, {seats} seats, starter {file} in seat {seat}"
            with tempfile.TemporaryDirectory() as folder:
                Path(folder).chmod(0o755)  # the sandbox's user reads the built bot
                source = Path(folder) / file
                source.write_text(starters.source(name, stem, language), encoding="utf-8")
                missing = [tool for tool in language_of(source).tools if not shutil.which(tool)]
                if missing:
                    warnings.warn(
                        f"{where}: not checked, {', '.join(missing)} missing", stacklevel=3
                    )
                    continue
                try:
                    spec = build_bot(source, Path(folder) / "built", name=f"starter {file}")
                except BuildError as exc:
                    raise AssertionError(f"{where}: broken promise: it builds\n{exc}") from None
                specs = [f"builtin:{name}/{bot}" for bot in _bot_names(rules, seats)]
                specs[seat] = spec
                result = _recorded_result(rules, specs, contest)
            player, said = result.players[seat], result.stderr[seat][-300:]
            _check(
                player.faults == 0,
                where,
                f"it plays a game without a fault ({player.status}; {said!r})",
            )


def _starter_seat(rules: Game, stem: str) -> int:
    """The seat a starter plays: `bot` the first; a role's starter is named after its seat
    (`adventurers` for Adventurers, or the seat name's last word: `master` for Maze
    Master)."""
    if stem == "bot":
        return 0
    for seat in range(rules.info.max_seats):
        words = rules.info.seat_name(seat).lower().split()
        if stem in ("".join(words), words[-1] if words else ""):
            return seat
    raise AssertionError(
        f"{rules.name}: broken promise: starter {stem!r} is named bot or after a seat"
    )
