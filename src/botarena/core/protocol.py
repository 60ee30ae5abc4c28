"""The text protocol base: observation -> exact text, reply lines -> action, both sides.

The jury side (`encode`, `reply_complete`, `parse`) is what the match uses; the bot side
(`read_observation`, `format`) is what built-in bots use when they run as processes, and
what a Python bot author can reuse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Protocol:
    """One game's wire format. Subclasses override what their game needs."""

    has_handshake = False
    """Whether bots must answer a greeting before the first observation (a `READY`,
    the game's parameters)."""

    simultaneous_handshake = False
    """Whether every bot is greeted at once and all answer against one clock (a turn 0),
    instead of one after the other (a `READY`, as some engines start bots)."""

    handshake_waits_out_a_crash = False
    """In a handshake one bot after the other: whether a bot whose output ends before its
    handshake line holds the next bot's start until its own limit, as an engine that reads
    the end of the output in a loop until its time-out does (the next bot's clock then
    starts where that engine's would)."""

    java_line_breaks = False
    """Whether bots' lines end at LF, CR or CR LF, as the original engine (Java's
    `readLine`) read them, instead of at LF only."""

    def greeting(self, state: Any, seat: int) -> str | None:
        """Text sent once before the first observation, or None."""
        return None

    def handshake_done(self, line: str) -> bool:
        """Whether `line` completes the handshake (earlier lines are ignored)."""
        return True

    def encode(self, observation: Any) -> str:
        """The exact text (lines ending in newline) a bot reads for `observation`."""
        raise NotImplementedError

    def reply_complete(self, lines: list[str]) -> bool:
        """Whether `lines` read so far form a whole reply (default: one line)."""
        return len(lines) >= 1

    def parse(self, lines: list[str], observation: Any) -> Any:
        """The action the reply names; raises ProtocolError quoting the text."""
        raise NotImplementedError

    def format(self, action: Any) -> str:
        """The reply text (without the final newline) for `action`; inverse of `parse`."""
        return str(action)

    def for_bot(self, observation: Any) -> Any:
        """What an in-process bot is handed for `observation`, made before its clock starts:
        building it is the jury's work, not the bot's (default: the observation itself)."""
        return observation

    def pack_reply(self, text: str, observation: Any) -> str | None:
        """A shorter form of the reply `text` for the replay, or None to keep the text.

        Games whose replies repeat what the observation already says (e.g. the square of
        every ordered piece) store less; the recorder keeps the packed form only when
        `unpack_reply` gives back exactly `text`.
        """
        return None

    def unpack_reply(self, packed: str, observation: Any) -> str:
        """The reply text `pack_reply` packed, given the same observation."""
        raise NotImplementedError

    def farewell(self, state: Any, seat: int) -> str | None:
        """Text sent to a still-running bot when the game ends (e.g. `Quit`), or None."""
        return None

    def read_observation(self, readline: Callable[[], str]) -> Any | None:
        """Bot side: read one observation with `readline`; None when the game is over."""
        raise NotImplementedError
