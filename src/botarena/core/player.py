"""Players are transports: a bot process on pipes under real clocks, or a Python object.

Both answer `send()` then `collect()` with a `Reply`; a game never knows which it talks to.
A process bot runs in its sandbox (core/sandbox/), is frozen whenever it is not its turn
and resumed only to answer; its stderr is drained by a thread (so it never blocks) and
capped; at the end every process of it is killed and reaped.
"""

from __future__ import annotations

import gc
import shlex
import subprocess
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from botarena.core.cores import allowed_cores, cores
from botarena.core.lines import LINE_CAP
from botarena.core.pipes import PipeEnds
from botarena.core.process import STDERR_CAP, BotProcess
from botarena.core.protocol import Protocol
from botarena.core.rules import ProtocolError, Status, seat_seed
from botarena.core.sandbox import (
    DEFAULT,
    Confinement,
    Sandbox,
    become_subreaper,
)

LONG_TURN_S = 0.001
"""A turn this long is worth a look at whether a bot that joined the referee's core has
started threads since (`Confinement.leave_core_if_threaded`)."""
NEVER_FLUSHED = (
    "no reply in time, and nothing ever came on its standard output: does it flush it after"
    " each reply? (Python: print(..., flush=True); C: fflush(stdout); C++: std::endl or"
    " std::flush; Java: System.out.flush())"
)
"""A time-out's reason for a bot that has not written one byte: the newcomer's mistake of
an output buffered until the bot exits (or a bot that sleeps from its start)."""


@dataclass(slots=True)
class Reply:
    """One answer, or the fault that replaced it. `action` is set once parsed."""

    lines: list[str]
    wall_s: float = 0.0
    cpu_s: float | None = None
    fault: Status | None = None
    detail: str = ""
    action: Any = None
    text: str = ""  # the reply as recorded in the replay


class Player:
    """The transport interface the match drives."""

    name: str = "bot"
    spec: str = ""
    needs_text = False
    """Whether `send` needs the observation's wire text (processes) or only the object."""
    java_line_breaks = False
    """Whether a lone CR also ends a reply line (set from the game's protocol)."""
    runs_only_in_calls = False
    """A process that runs none of its own work between calls while the jury waits for it:
    it is placed on one core, a free one lent beside the referee's where there is one, else
    the referee's, and moved to the referee's once another game claims the lent one (see
    `core.cores.calls_core`)."""
    cores: set[int] | None = None
    """The cores the process is started on (set by the match), or None: the jury's."""
    joins_core: int | None = None
    """The jury's core, in a game where one bot thinks at a time: the process moves onto it
    after its first reply if it runs a single thread then (set by the match; see
    `core.cores.jury_core`). Its turns gain what a wake-up across cores costs, and nothing
    else runs there while it thinks: the jury waits, the other bots wait for their input."""

    def start(self, seat: int, seed: str = "") -> None:
        """Get ready to play `seat` (spawn the process, reset the bot). In-process bots get
        `seed`, derived from the game's seed, so that a game is reproduced from its seed.
        A process runs until `pause`: the match starts every seat's, then freezes them, so
        that their sandboxes are set up side by side."""

    def greet(self, greeting: str | None) -> None:
        """Send the handshake's greeting and let the bot run."""

    def await_handshake(
        self, done: Callable[[str], bool], started: float, deadline: float | None
    ) -> Reply:
        """Read lines until `done(line)` (lines before are ignored) or the deadline."""
        return Reply(lines=[])

    def send(self, text: str, observation: Any) -> None:
        """Deliver an observation (resuming the bot if it is a process)."""
        raise NotImplementedError

    def collect(self, protocol: Protocol, observation: Any, deadline: float | None) -> Reply:
        """Read the reply to the last `send` until it is complete or the deadline passes."""
        raise NotImplementedError

    def move_to_core(self, core: int) -> None:
        """Run on `core` from now on (no-op in-process): the core lent to a bot that runs
        only in calls was claimed by another game (`core.cores.Loan`)."""

    def hold_between_turns(self) -> None:
        """The game charges this bot's CPU turn by turn: freeze it between all its turns,
        even while it waits idle (no-op in-process)."""

    def pause(self) -> None:
        """Freeze the bot until its next turn (no-op in-process)."""

    def resume(self) -> None:
        """Let a frozen bot run (no-op in-process)."""

    def notify(self, text: str) -> None:
        """Send a last message (the game is over) without waiting for an answer."""

    def release(self) -> None:
        """The game is over: let the bot run and see the end of its input, so that it can
        exit by itself while the other bots are released too."""

    def close(self, deadline: float | None = None) -> None:
        """End the bot for good, after waiting until `deadline` (monotonic) at most for it
        to exit by itself; no process may outlive this call."""

    def kill(self) -> None:
        """Stop the bot at once (it timed out); later `collect` calls report it crashed."""

    def cpu_now(self) -> float:
        """CPU seconds the bot has used so far."""
        return self.cpu_s

    @property
    def alive(self) -> bool:
        return True

    @property
    def stderr(self) -> str:
        return ""

    @property
    def cpu_s(self) -> float:
        return 0.0


class InProcessPlayer(Player):
    """A Python bot object: `act(observation)` returns an action or the reply text.

    It receives the observation object the protocol encodes, or, if the bot sets
    `reads_text = True`, the exact text a bot program would read. Its time is measured but
    not enforced: in-process bots are trusted code (built-ins, research agents).
    """

    def __init__(self, bot: Any, name: str, spec: str = "") -> None:
        self.bot = bot
        self.name = name
        self.spec = spec or name
        self.needs_text = bool(getattr(bot, "reads_text", False))
        self._observation: Any = None
        self._errors: list[str] = []
        self._cpu = 0.0

    def start(self, seat: int, seed: str = "") -> None:
        setup = getattr(self.bot, "setup", None)
        if setup is not None:
            setup(seat, seed)

    def send(self, text: str, observation: Any) -> None:
        self._observation = text if self.needs_text else observation

    def collect(self, protocol: Protocol, observation: Any, deadline: float | None) -> Reply:
        # No garbage collection while the bot thinks: a full collection of the jury's own
        # objects (a long game's replay) took up to 180 ms and was charged to the bot as its
        # time (a game's limits struck built-in bots for it); it runs after the call.
        given = self._observation if self.needs_text else protocol.for_bot(self._observation)
        collecting = gc.isenabled()
        gc.disable()
        started, thinking = time.monotonic(), time.thread_time()
        try:
            answer = self.bot.act(given)
        except Exception as exc:  # a bot's bug is its fault, never the jury's
            self._errors.append(traceback.format_exc())
            return Reply(
                lines=[],
                fault=Status.CRASHED,
                detail=f"raised {exc!r}",
                wall_s=time.monotonic() - started,
            )
        finally:
            # the bot runs on the referee's thread: its CPU time is that thread's during the
            # call, whatever else the machine runs meanwhile
            self._cpu += time.thread_time() - thinking
            if collecting:
                gc.enable()
        wall = time.monotonic() - started
        if isinstance(answer, str):
            return parse_reply(protocol, answer.split("\n"), observation, wall, None)
        return Reply(lines=[], action=answer, text=protocol.format(answer), wall_s=wall)

    @property
    def stderr(self) -> str:
        return "".join(self._errors)[:STDERR_CAP]

    @property
    def cpu_s(self) -> float:
        """The CPU time of the referee's thread inside `act` (the bot's own, in-process)."""
        return self._cpu


def parse_reply(
    protocol: Protocol, lines: list[str], observation: Any, wall_s: float, cpu_s: float | None
) -> Reply:
    """Turn complete reply lines into a Reply with its action, or an `invalid` fault."""
    text = "\n".join(lines)
    try:
        action = protocol.parse(lines, observation)
    except ProtocolError as exc:
        return Reply(
            lines=lines,
            text=text,
            fault=Status.INVALID,
            detail=str(exc),
            wall_s=wall_s,
            cpu_s=cpu_s,
        )
    return Reply(lines=lines, text=text, action=action, wall_s=wall_s, cpu_s=cpu_s)


def split_command(command: str) -> list[str]:
    """Split a command line as a shell would; raises ValueError naming the problem."""
    argv = shlex.split(command)
    if not argv:
        raise ValueError("empty command line")
    return argv


class ProcessPlayer(PipeEnds, Player):
    """A bot program on pipes, one process group, frozen while it is not its turn."""

    needs_text = True
    frozen_between_turns = True
    """Whether the bot is frozen while it is not its turn (a transport whose program runs
    none of the bot's code between calls sets it False: a stop and a resume per call cost
    more than the call)."""
    reply_spin_s = 0.0
    """How long the jury polls for a reply before it sleeps in `select`. Waking a sleeping
    jury on another CPU costs about 30 µs on a virtual machine, more than a fast bot's
    whole answer: a transport of many tiny calls (posts of a role game, about 19 000 a game)
    sets this (at most this much of the jury's CPU per call). Only where the bot has a core
    the jury is not on (`_runs_beside_jury`): on the jury's own, the bot cannot answer while
    the jury polls."""

    def __init__(
        self,
        argv: list[str],
        name: str,
        spec: str = "",
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        sandbox: Sandbox = DEFAULT,
    ) -> None:
        self.argv = argv
        self.sandbox = sandbox
        self.name = name
        self.spec = spec or shlex.join(argv)
        self.cwd = cwd
        self.env = env
        self.process = BotProcess(argv, sandbox, cwd, env)  # made again at `start`
        super().__init__()
        self._box: Confinement | None = None
        self._watch_s = None

    @property
    def proc(self) -> subprocess.Popen[bytes] | None:
        return self.process.proc

    @property
    def java_line_breaks(self) -> bool:
        return self._lines.java_line_breaks

    @java_line_breaks.setter
    def java_line_breaks(self, value: bool) -> None:
        self._lines.java_line_breaks = value

    # -- life cycle ---------------------------------------------------------------------
    def start(self, seat: int, seed: str = "") -> None:
        become_subreaper()
        if self.reply_spin_s and self._runs_beside_jury():
            self._spin_s = self.reply_spin_s
        # the game's seed and the seat, for a bot that draws its randomness from them
        game_seed = seed.removesuffix(seat_seed("", seat))
        identity = {"BOTARENA_SEED": game_seed, "BOTARENA_SEAT": str(seat)}
        process = self.process = BotProcess(self.argv, self.sandbox, self.cwd, self.env)
        box = self._box = process.spawn(identity, self.cores)
        box.output_in_flight = self._output_in_flight
        self._watch_s = box.watch_s
        if self.frozen_between_turns:  # bound once: per exchange, no detour
            self.pause = box.pause  # type: ignore[method-assign]
            self.resume = box.resume  # type: ignore[method-assign]
        self.cpu_now = process.cpu_now  # type: ignore[method-assign]  # read twice an exchange
        self._stdin_fd, self._stdout_fd = process.stdin_fd, process.stdout_fd
        self._watched = process.watched

    def _runs_beside_jury(self) -> bool:
        """Whether the bot can answer while the jury polls: some core is the bot's and
        not only the jury's."""
        jury = allowed_cores()
        if jury is None:
            return cores() > 1
        return len(jury | (jury if self.cores is None else self.cores)) > 1

    def move_to_core(self, core: int) -> None:
        """Every thread of the bot onto `core`, the jury's: it no longer answers while the
        jury polls, so the jury sleeps for its replies from now on."""
        self.cores = {core}
        self._spin_s = 0.0
        if self._box is not None:
            self._box.move_to(core)

    def hold_between_turns(self) -> None:
        if self._box is not None:
            self._box.hold_between_turns()

    def pause(self) -> None:
        """Freeze every process of the bot (its confinement's own once started)."""

    def resume(self) -> None:
        """Let the bot run (its confinement's own once started)."""

    @property
    def alive(self) -> bool:
        return self.process.alive

    # -- exchanges ----------------------------------------------------------------------
    def send(self, text: str, observation: Any) -> None:
        """Write, then resume: the bot wakes once, with its input already there (what did
        not fit in the pipe follows while its reply is awaited)."""
        self._late_bytes = 0
        if self._box is not None:
            self._box.to_turn_core()
        if text:
            self._write(text)
        self.resume()

    def _quiet_watch(self) -> Status | None:
        """A bot stuck at its process limit has crashed (`_fault_reply` names the limit); a
        long turn may need cores; and it is resumed again (see `pipes.RESUME_AGAIN_S`)."""
        if self._box is not None:
            if self._box.at_process_limit():
                return Status.CRASHED
            self._box.leave_core_if_threaded()
        self.resume()
        return None

    def collect(self, protocol: Protocol, observation: Any, deadline: float | None) -> Reply:
        started = time.monotonic()
        lines: list[str] = []
        self._spin_now = self._spin_s > 0 and not self._unsent
        while not protocol.reply_complete(lines):
            line, fault = self._next_line(deadline)
            if fault is not None:
                return self._fault_reply(fault, lines, started)
            lines.append(line or "")
        wall = time.monotonic() - started
        if self._box is not None and self._box.multi_process:
            reason = self._box.limit_reason()  # a bot past its process limit still answers
            if reason:
                self.kill()
                return Reply(
                    lines=lines,
                    text="\n".join(lines),
                    fault=Status.CRASHED,
                    detail=reason,
                    wall_s=wall,
                )
        if self._box is not None:
            if self.joins_core is not None:
                self._box.join_core(self.joins_core)
                self.joins_core = None
            elif wall > LONG_TURN_S:
                self._box.leave_core_if_threaded()
        return parse_reply(protocol, lines, observation, wall, None)

    def greet(self, greeting: str | None) -> None:
        self.send(greeting or "", None)

    def await_handshake(
        self, done: Callable[[str], bool], started: float, deadline: float | None
    ) -> Reply:
        ignored: list[str] = []
        while True:
            line, fault = self._next_line(deadline)
            if fault is not None:
                reply = self._fault_reply(fault, ignored, started)
                return reply
            text = line or ""
            if done(text):
                return Reply(
                    lines=[*ignored, text],
                    text="\n".join([*ignored, text]),
                    wall_s=max(0.0, time.monotonic() - started),  # it may start later
                )
            ignored.append(text)

    def _fault_reply(self, fault: Status, lines: list[str], started: float) -> Reply:
        wall = max(0.0, time.monotonic() - started)
        reason = self._box.limit_reason() if self._box is not None else ""
        if reason:  # killed by its sandbox, or stuck at a limit (a fork bomb)
            self.kill()
            detail = self.process.exit_detail.removeprefix(", ")
            if reason not in detail:
                detail += f", {reason}"
            fault = Status.CRASHED
        elif fault is Status.INVALID:
            detail = f"a reply line longer than {LINE_CAP >> 20} MiB"
            self.kill()
        elif fault is Status.TIMEOUT:
            detail = "no complete reply in time"
            if not self._lines.said_anything:
                detail = NEVER_FLUSHED
            self.kill()
        else:
            detail = self._send_error or "closed its output"
            # say how it ended: in the sandbox, the end of its output means bubblewrap is
            # ending too (it holds the pipe), and reports the bot's exit a moment later
            self.process.wait_exit(2.0 if self._box is not None and self._box.wrapped else 0.2)
            self.kill()
            detail = f"{detail}{self.process.exit_detail}"
        return Reply(lines=lines, text="\n".join(lines), fault=fault, detail=detail, wall_s=wall)

    def notify(self, text: str) -> None:
        if self.alive:
            self.resume()
            self._write(text)

    # -- accounting and the end ---------------------------------------------------------
    def cpu_now(self) -> float:
        return self.process.cpu_now()

    @property
    def cpu_s(self) -> float:
        return self.process.cpu_s

    def kill(self) -> None:
        """Kill every process of the bot at once and reap it (see `BotProcess.kill`)."""
        self.process.kill()

    def release(self) -> None:
        if self._box is not None:
            self._box.leave_core()
        self.process.release(self.resume)

    def close(self, deadline: float | None = None) -> None:
        self.process.close(deadline, self.resume)

    @property
    def stderr(self) -> str:
        return self.process.stderr
