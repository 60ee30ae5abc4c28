"""The one referee loop: ask who acts, send observations, collect replies, apply faults.

Sequential, simultaneous and role-based games all run through `run_match`: the state names
the seats that must answer (`to_act`), every such seat is resumed and sent its observation,
replies are collected against the clocks, faults go to the game's own fault rule, and the
whole exchange is recorded for the replay.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from botarena.core.cores import Loan, allowed_cores, calls_core, jury_core
from botarena.core.game import Game
from botarena.core.player import Player, ProcessPlayer, Reply
from botarena.core.process import EXIT_GRACE_S
from botarena.core.replay import ReplayRecorder
from botarena.core.result import MatchResult, PlayerResult
from botarena.core.rules import Clock, State, Status, TurnModel, seat_seed

LOAN_CHECK_S = 0.5
"""How often a referee looks whether the core lent to its bots was claimed (a lock test,
two system calls): a game started meanwhile waits at most this long for its core alone."""


@dataclass
class _Seat:
    """The referee's bookkeeping for one seat."""

    player: Player
    waited_s: float = 0.0  # answering turns: what a game's time budget counts
    cpu_used_s: float = 0.0  # the same in CPU time, for `-o clock=cpu`
    time_ms: float = 0.0
    """The result's time: every wait, the handshake's too, each rounded to 0.1 ms as the
    replay records it, summed in the same order, so that `verify` reproduces it exactly."""
    faults: int = 0
    status: Status = Status.OK


class Referee:
    """Runs one game between `players`; see `run_match`."""

    def __init__(
        self,
        game: Game,
        state: State,
        players: Sequence[Player],
        recorder: ReplayRecorder | None,
        seed: int | str = 0,
        cpu_clock: bool = False,
        lent: tuple[Loan, int] | None = None,
    ) -> None:
        self.game = game
        self.seed = seed
        self.cpu_clock = cpu_clock
        """`-o clock=cpu`: every clock charged in the bot's CPU time (Clock.in_cpu_time)."""
        self.state = state
        self.seats = [_Seat(player) for player in players]
        for player in players:
            player.java_line_breaks = game.protocol.java_line_breaks
        self.recorder = recorder
        # the observation's wire text is built only where a process or the replay needs it
        self._wants_text = [
            player.needs_text or (recorder is not None and game.record_sent) for player in players
        ]
        self.lent = lent
        """The core lent to the bots that run only in calls, and this referee's own core,
        where they go once another game's referee claims theirs (`core.cores.Loan`)."""
        self._loan_check_at = 0.0

    def run(self) -> None:
        """Play the game with the players `start_players` started; always closes them."""
        try:
            self._handshake()
            while not self.state.is_over():
                self._step()
            self._farewell()
        finally:
            close_players([entry.player for entry in self.seats], EXIT_GRACE_S)

    # -- phases -------------------------------------------------------------------------
    def _handshake(self) -> None:
        protocol = self.game.protocol
        if not protocol.has_handshake:
            return
        faults, waits = {}, {}
        together = protocol.simultaneous_handshake
        started = time.monotonic()
        held_until = 0.0  # where a crashed bot holds the next one's start (see the protocol)
        if together:  # every bot greeted first, then all read against one clock
            for seat, entry in enumerate(self.seats):
                entry.player.greet(protocol.greeting(self.state, seat))
        for seat, entry in enumerate(self.seats):
            if not together:  # one bot after the other, each on its own clock
                started = max(time.monotonic(), held_until)
                entry.player.greet(protocol.greeting(self.state, seat))
            clock = self._clock(self.state.handshake_clock(seat))
            limit = clock.reply_s
            reply = entry.player.await_handshake(
                protocol.handshake_done, started, None if limit is None else started + limit
            )
            if (
                protocol.handshake_waits_out_a_crash
                and reply.fault is Status.CRASHED
                and limit is not None
            ):
                held_until = started + limit
            entry.player.pause()
            waits[seat] = reply.wall_s
            entry.time_ms += round(reply.wall_s * 1000, 1)
            if reply.fault is None and clock.cpu_s is not None:
                self._check_cpu(entry, reply, clock, entry.player.cpu_now())
            if reply.fault is not None:
                faults[seat] = reply
        for seat, reply in faults.items():
            self._fault(seat, reply)
        if self.recorder is not None:
            self.recorder.handshake(faults, waits)

    def _step(self) -> None:
        """One step: send every acting seat its observation, collect the replies against the
        clocks, hand faults to the game's fault rule, apply the actions, record it all."""
        state, seats = self.state, self.state.to_act()
        started = time.monotonic()
        if self.lent is not None and started >= self._loan_check_at:
            self._review_loan(started)
        observations, texts, clocks, cpu_before = {}, {}, {}, {}
        for seat in seats:
            observation = observations[seat] = state.observation(seat)
            text = texts[seat] = (
                self.game.protocol.encode(observation) if self._wants_text[seat] else ""
            )
            clock = clocks[seat] = self._clock(state.clock(seat))
            player = self.seats[seat].player
            if clock.cpu_s is not None or clock.cpu_budget_s is not None:
                player.hold_between_turns()
                cpu_before[seat] = player.cpu_now()
            player.send(text, observation)
        replies, actions = {}, {}
        for seat in seats:
            reply = replies[seat] = self._collect(
                seat, observations[seat], clocks[seat], started, cpu_before.get(seat)
            )
            if reply.fault is not None:
                self._fault(seat, reply)
            else:
                actions[seat] = reply.action
        state.apply(actions)
        if self.recorder is not None:
            self.recorder.step(seats, observations, texts, replies, state.frame())

    def _review_loan(self, now: float) -> None:
        """Every LOAN_CHECK_S: once another game's referee has claimed the lent core, the
        bots on it go home to this referee's core."""
        assert self.lent is not None
        loan, home = self.lent
        self._loan_check_at = now + LOAN_CHECK_S
        if loan.reclaimed():
            for entry in self.seats:
                if entry.player.runs_only_in_calls:
                    entry.player.move_to_core(home)
            self.lent = None

    def _collect(
        self, seat: int, observation: Any, clock: Clock, started: float, cpu_before: float | None
    ) -> Reply:
        """One seat's reply within its clock; freezes the bot again afterwards."""
        entry = self.seats[seat]
        player = entry.player
        reply = player.collect(
            self.game.protocol, observation, self._deadline(entry, clock, started)
        )
        player.pause()
        entry.waited_s += reply.wall_s
        entry.time_ms += round(reply.wall_s * 1000, 1)
        if cpu_before is not None and reply.fault is None:
            used = reply.cpu_s = player.cpu_now() - cpu_before
            self._check_cpu(entry, reply, clock, used)
            if reply.fault is None:
                self.state.charge(seat, used)
        return reply

    def _clock(self, clock: Clock) -> Clock:
        return clock.in_cpu_time() if self.cpu_clock else clock

    @staticmethod
    def _check_cpu(entry: _Seat, reply: Reply, clock: Clock, used: float) -> None:
        """A reply over its CPU limit, or one that takes the seat over its CPU budget for the
        game, is a time-out (the bot is stopped)."""
        entry.cpu_used_s += used
        over = None
        if clock.cpu_s is not None and used > clock.cpu_s:
            over = f"used {used * 1000:.1f} ms of CPU, limit {clock.cpu_s * 1000:.1f} ms"
        elif clock.cpu_budget_s is not None and entry.cpu_used_s > clock.cpu_budget_s:
            over = (
                f"used {entry.cpu_used_s * 1000:.1f} ms of CPU in all, budget"
                f" {clock.cpu_budget_s * 1000:.1f} ms"
            )
        if over is not None:
            reply.fault = Status.TIMEOUT
            reply.detail = over
            entry.player.kill()

    @staticmethod
    def _deadline(entry: _Seat, clock: Clock, started: float) -> float | None:
        limit = clock.reply_s
        if clock.budget_s is not None:
            left = max(0.0, clock.budget_s - entry.waited_s)
            limit = left if limit is None else min(limit, left)
        return None if limit is None else started + limit

    def _fault(self, seat: int, reply: Reply) -> None:
        entry = self.seats[seat]
        entry.faults += 1
        if entry.status is Status.OK:
            entry.status = reply.fault or Status.INVALID
        self.state.fault(seat, reply.fault or Status.INVALID, reply.detail)

    def _farewell(self) -> None:
        for seat, entry in enumerate(self.seats):
            text = self.game.protocol.farewell(self.state, seat)
            if text is not None and entry.player.alive:
                entry.player.notify(text)

    # -- the result ---------------------------------------------------------------------
    def result(self, seed: int | str, replay_path: str | None) -> MatchResult:
        outcome = self.state.outcome()
        players = []
        for seat, entry in enumerate(self.seats):
            status = outcome.statuses[seat] or entry.status.value
            players.append(
                PlayerResult(
                    bot=entry.player.name,
                    score=outcome.scores[seat],
                    rank=outcome.ranks[seat],
                    status=status,
                    time_ms=entry.time_ms,
                    faults=entry.faults + outcome.faults[seat],
                    spec=entry.player.spec,
                    cpu_ms=entry.player.cpu_s * 1000,
                )
            )
        result = MatchResult(
            game=self.game.name,
            seed=seed,
            turns=self.state.step_count,
            end_reason=outcome.end_reason,
            players=players,
            replay=replay_path,
            stderr=[entry.player.stderr for entry in self.seats],
        )
        if self.recorder is not None:
            result.document = self.recorder.finish(result.to_dict(), result.stderr)
        return result


def start_players(players: Sequence[Player], seed: int | str, handshake: bool) -> None:
    """Start every seat's player (spawn the bot programs); on failure, close those started.
    All are spawned before any is waited for, so that their sandboxes are set up side by
    side. Before a handshake they run: every bot starts up side by side, as the engines
    start them, while the rules set the game up, and is frozen once its handshake is read.
    Without one, each is frozen once all are spawned, until its first turn, which the rest
    of its start-up is charged to."""
    started: list[Player] = []
    try:
        for seat, player in enumerate(players):
            player.start(seat, seat_seed(seed, seat))
            started.append(player)
        if not handshake:
            for player in started:
                player.pause()
    except BaseException:
        close_players(started, 0.0)
        raise


def close_players(players: Sequence[Player], grace_s: float) -> None:
    """End every player: all see their input end at once, then share one grace period of
    `grace_s` to exit by themselves before they are killed."""
    for player in players:
        player.release()
    deadline = time.monotonic() + grace_s
    for player in players:
        player.close(deadline)


def run_match(
    game: Game,
    players: Sequence[Player],
    *,
    seed: int | str,
    options: dict[str, Any],
    map_data: Any = None,
    record: bool = True,
    replay_path: str | None = None,
    observe: Callable[[dict[str, Any]], None] | None = None,
) -> MatchResult:
    """Play one whole game and return its result (with the replay document if recorded).

    `observe` gets the replay document before the first step; it grows as the game runs."""
    one_at_a_time = game.info.turn_model is not TurnModel.SIMULTANEOUS
    joining = [  # a bot that runs only in calls is placed already (calls_core)
        p
        for p in players
        if one_at_a_time and isinstance(p, ProcessPlayer) and not p.runs_only_in_calls
    ]
    allowed = allowed_cores()
    in_calls = any(p.runs_only_in_calls for p in players)
    with (
        jury_core(in_calls or bool(joining)) as core,
        calls_core(core, allowed, in_calls) as loan,
    ):
        if core is not None:  # a process would inherit the referee's one core
            in_calls_core = core if loan is None else loan.core
            for player in players:
                player.cores = {in_calls_core} if player.runs_only_in_calls else allowed
                if player in joining:
                    player.joins_core = core
        return _run_match(
            game,
            players,
            seed=seed,
            options=options,
            map_data=map_data,
            record=record,
            replay_path=replay_path,
            observe=observe,
            lent=None if loan is None or core is None else (loan, core),
        )


def _run_match(
    game: Game,
    players: Sequence[Player],
    *,
    seed: int | str,
    options: dict[str, Any],
    map_data: Any,
    record: bool,
    replay_path: str | None,
    observe: Callable[[dict[str, Any]], None] | None,
    lent: tuple[Loan, int] | None = None,
) -> MatchResult:
    start_players(players, seed, game.protocol.has_handshake)
    try:
        state = game.new_state(seed, options, map_data, len(players))
        recorder = None
        if record:
            recorder = ReplayRecorder(
                game,
                seed,
                options,
                state,
                [(player.name, player.spec) for player in players],
                from_seed=map_data is None,
            )
    except BaseException:  # a bad map or option: the bots never get to play
        close_players(players, 0.0)
        raise
    if recorder is not None and observe is not None:
        observe(recorder.document)
    referee = Referee(
        game, state, players, recorder, seed, cpu_clock=options.get("clock") == "cpu", lent=lent
    )
    try:
        referee.run()
    finally:
        gc.unfreeze()  # what the recorder hid from the collector (replay.FREEZE_EVERY_STEPS)
    return referee.result(seed, replay_path)
