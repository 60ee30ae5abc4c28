"""Reply lines from a bot's output bytes, however the pipe cuts them: no I/O, no clock.

The player feeds what each read returns and takes whole lines; the same bytes give the same
lines and the same limit, whatever the chunks (a property the tests check).

>>> reader = LineReader()
>>> reader.feed(b"1 2\\r\\nhal")
>>> reader.take(), reader.take()
('1 2', None)
>>> reader.feed(b"f")
>>> reader.feed(b"")  # the end of its output: the unfinished line counts
>>> reader.take(), reader.take(), reader.ended
('half', None, True)
"""

from __future__ import annotations

LINE_CAP = 16 << 20
"""Bytes a reply line may have: a bot streaming a line without end is cut off here (an
`invalid` reply) instead of filling the jury's memory."""


class LineReader:
    """Splits a bot's output into lines: at LF (a CR before it dropped) or, with
    `java_line_breaks`, at LF, CR or CR LF, as Java's `BufferedReader.readLine` reads. Text
    after the last line break is a line of its own once the output has ended (less a CR
    at its very end)."""

    __slots__ = (
        "_buffer",
        "_eof",
        "_scanned",
        "_skip_lf",
        "cap",
        "java_line_breaks",
        "said_anything",
        "too_long",
    )

    def __init__(self, cap: int = LINE_CAP, java_line_breaks: bool = False) -> None:
        self.cap = cap
        self.java_line_breaks = java_line_breaks
        self.too_long = False
        """Set once a line (ended or not) holds more than `cap` bytes: nothing more is
        taken, as the bot is out of the game."""
        self._buffer = bytearray()  # grows in place: a long line costs no quadratic copy
        self._scanned = 0  # leading bytes of the buffer known to hold no line break
        self._eof = False
        self._skip_lf = False  # a CR ended the last line: a LF right after it belongs to it
        self.said_anything = False
        """Whether any byte was ever fed: a bot that never flushes its output says nothing."""

    def feed(self, chunk: bytes) -> None:
        """What one read returned; b"" is the end of the output."""
        if chunk:
            self._buffer += chunk
            self.said_anything = True
        else:
            self._eof = True

    @property
    def ended(self) -> bool:
        """Whether the output has ended and every line of it has been taken."""
        return self._eof and not self._buffer and not self.too_long

    @property
    def pending(self) -> int:
        """Bytes fed and not taken yet."""
        return len(self._buffer)

    def take(self) -> str | None:
        """The next whole line, or None until more is fed (or for good once `too_long`)."""
        if self.too_long:
            return None
        buffer = self._buffer
        if self._skip_lf and buffer:
            self._skip_lf = False
            if buffer[0] == 10:
                del buffer[0]
        end = buffer.find(b"\n", self._scanned)
        cut, skip = end, 1
        if self.java_line_breaks:
            cr = buffer.find(b"\r", self._scanned, None if end < 0 else end)
            if cr >= 0:
                cut = end = cr
                self._skip_lf = True
        elif end > 0 and buffer[end - 1] == 13:
            cut = end - 1
        if end < 0:
            if not self._eof or not buffer:
                self._scanned = len(buffer)  # a CR at its end may belong to the LF to come
                self.too_long = self._scanned - (buffer[-1:] == b"\r") > self.cap
                return None
            cut = end = len(buffer)  # the last line, at the end of the output
            cut -= buffer[-1] == 13  # a CR there ends it too (none is left in Java's way)
            skip = 0
        if cut > self.cap:
            self.too_long = True
            return None
        line = buffer[:cut].decode("utf-8", errors="replace")
        del buffer[: end + skip]
        self._scanned = 0
        return line
