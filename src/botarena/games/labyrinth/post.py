"""Original JavaScript submissions: read a post (`# Adventurers: NAME` or `# Maze Master:
NAME`, first code block = the bot's function body) and run it under Node through runner.js.

>>> post = parse_post("# Maze Master: lazy\\n\\n    return {generateMaze() {}, takeTurn() {}}\\n")
>>> post.role, post.name, post.first_line
('maze master', 'lazy', 3)
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botarena.core.player import ProcessPlayer
from botarena.core.spec import BotSpecError
from botarena.games.labyrinth.postwire import PostWire
from botarena.games.labyrinth.rules import ROLE_NAMES

RUNNER = Path(__file__).with_name("runner.js")
HEADER = re.compile(r"^#+\s*(?P<type>[^:#]+?)\s*:\s*(?P<name>.+?)\s*#*\s*$")
FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})")
ROLE_WORDS = {"adventurer": 0, "adventurers": 0, "mazemaster": 1}


class PostError(ValueError):
    """A post that is not in the submission format; the message says what is wrong."""


@dataclass(frozen=True)
class Post:
    """A parsed submission: its role, name and code, and where the code starts (1-based)."""

    role: str
    name: str
    code: str
    first_line: int
    indented: bool = False

    @property
    def seat(self) -> int:
        return ROLE_NAMES.index(self.role)


def parse_post(text: str) -> Post:
    """The submission in `text`; raises PostError naming the problem."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None:
        raise PostError("the post is empty")
    try:
        role, name = parse_header(lines[start])
    except PostError as exc:
        raise PostError(f"line {start + 1}: {exc}") from None
    code, first, indented = _first_code_block(lines, start + 1)
    if not code.strip():
        raise PostError("the post has no code block (fenced with ``` or indented 4 spaces)")
    return Post(role, name, code, first + 1, indented)


def parse_header(line: str) -> tuple[str, str]:
    """The role and name a header line `# <submission type>: <name>` gives; raises PostError
    naming the problem (no header, an unknown submission type)."""
    match = HEADER.match(line.strip())
    if match is None:
        raise PostError(
            "no header; the post must start with '# Adventurers: NAME' or '# Maze Master: NAME'"
        )
    word = re.sub(r"[\s_-]", "", match["type"]).lower()
    if word not in ROLE_WORDS:
        raise PostError(
            f"unknown submission type {match['type']!r}; it must be 'Adventurers' or 'Maze Master'"
        )
    return ROLE_NAMES[ROLE_WORDS[word]], match["name"]


def _first_code_block(lines: list[str], begin: int) -> tuple[str, int, bool]:
    """The first fenced or indented code block after the header: (code, its 0-based first
    line, whether it is indented)."""
    previous_blank = True
    for index in range(begin, len(lines)):
        line = lines[index]
        fence = FENCE.match(line)
        if fence is not None:
            marker = fence["fence"]
            body = []
            for inner in range(index + 1, len(lines)):
                if lines[inner].strip().startswith(marker[0] * len(marker)) and not lines[
                    inner
                ].strip().strip(marker[0]):
                    break
                body.append(lines[inner])
            return "\n".join(body), index + 1, False
        if previous_blank and _indented(line) and line.strip():
            body = []
            for inner in range(index, len(lines)):
                if lines[inner].strip() and not _indented(lines[inner]):
                    break
                body.append(_dedent(lines[inner]))
            while body and not body[-1].strip():
                body.pop()
            return "\n".join(body), index, True
        previous_blank = not line.strip() or line.lstrip().startswith("<!--")
    return "", begin, False


def _indented(line: str) -> bool:
    return line.startswith(("    ", "\t"))


def _dedent(line: str) -> str:
    return line[1:] if line.startswith("\t") else line[4:]


def node_program() -> str:
    """The node executable; raises BotSpecError when Node is not installed."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise BotSpecError(
            "post bots need Node.js: install Debian's nodejs (apt-get install nodejs)"
        )
    return node


def load_post(path: str) -> Post:
    """Read and parse a post file; raises BotSpecError naming the file."""
    from botarena.core.reader import Kind, MiB, ReadError, read_text

    POST = Kind("post", 1 * MiB)

    try:
        text = read_text(path, POST)  # a saved post may start with a BOM: dropped
        return parse_post(text)
    except ReadError as exc:
        raise BotSpecError(str(exc)) from None
    except PostError as exc:
        raise BotSpecError(f"{path}: {exc}") from None


CHECK_HEAP_MIB = 256
"""The JavaScript heap a post may use while it is checked (its body runs once): a post
checked on its way into a tournament is untrusted code."""


def runner_argv(path: str, post: Post, check: bool = False) -> list[str]:
    """The command running `post` (read from `path`) under Node with runner.js; `check`:
    compile it and build the bot once, with the heap capped at CHECK_HEAP_MIB."""
    code_lines = post.code.count("\n") + 1
    limits = [f"--max-old-space-size={CHECK_HEAP_MIB}"] if check else []
    argv = [
        node_program(),
        *limits,
        str(RUNNER),
        str(Path(path).resolve()),
        post.role,
        post.name,
        str(post.first_line),
        str(code_lines),
        "indented" if post.indented else "fenced",
    ]
    return [*argv, "--check"] if check else argv


class PostPlayer(ProcessPlayer):
    """An original JavaScript submission under Node; it must sit in its post's role.

    It is sent the calls through `PostWire` (the maze master's maze as the cells that
    changed) and is never frozen: between its calls the runner waits in a blocking read and
    runs none of the bot's code, so there is nothing to stop, and SIGSTOP and SIGCONT
    would cost more than most calls (they wake all of Node's threads)."""

    needs_text = False  # the referee need not encode: send() does, for the runner
    frozen_between_turns = False
    runs_only_in_calls = True  # on a core of its own beside the referee's, where free
    reply_spin_s = 0.0002  # the referee polls: a call is answered in 20-100 µs

    def __init__(self, path: str, post: Post, spec: str) -> None:
        super().__init__(runner_argv(path, post), name=post.name, spec=spec)
        self.post = post
        self.path = path
        self.wire = PostWire()

    def start(self, seat: int, seed: str = "") -> None:
        if seat != self.post.seat:
            raise BotSpecError(
                f"{self.path} is a {self.post.role} post; seat {seat} is the"
                f" {ROLE_NAMES[seat]} (play labyrinth ADVENTURERS MAZEMASTER)"
            )
        super().start(seat, seed)

    def send(self, text: str, observation: Any) -> None:
        """The call for the runner (the handshake's greeting comes as text already)."""
        super().send(text if observation is None else self.wire.encode(observation), observation)


def post_player(rest: str, spec: str) -> PostPlayer:
    """The `post:PATH` bot spec."""
    return PostPlayer(rest, load_post(rest), spec)


CHECK_OUTPUT_CAP = 64 << 10
"""What `check-post` keeps of Node's output, per stream."""

CHECK_TIME_S = 10.0
"""Wall time `check-post` gives Node to compile a post and build its bot (the four
reference posts take well under a second)."""


def check_post(path: str, timeout_s: float | None = None) -> tuple[bool, str]:
    """Check a post: the format, then that Node compiles it and builds a bot object with
    the role's methods. Returns (ok, one message, with line numbers for syntax errors)."""
    post = load_post(path)
    argv = runner_argv(path, post, check=True)  # with V8's heap capped at CHECK_HEAP_MIB
    timeout_s = CHECK_TIME_S if timeout_s is None else timeout_s
    from botarena.core import sandbox

    try:  # in the bots' sandbox: a post's code is a stranger's (a vm realm is no boundary)
        done = sandbox.run(
            argv,
            cwd=str(Path(path).resolve().parent),
            timeout=timeout_s,
            output_cap=CHECK_OUTPUT_CAP,
        )
    except subprocess.TimeoutExpired:
        return False, (
            f"{path}: building the bot took more than {timeout_s:g} s (an endless loop?)"
        )
    message = (done.stdout + done.stderr).decode(errors="replace").strip()
    if "heap out of memory" in message or "Reached heap limit" in message:
        return False, (f"{path}: building the bot used more than {CHECK_HEAP_MIB} MiB of memory")
    return done.returncode == 0, message or f"{path}: node exited with {done.returncode}"
