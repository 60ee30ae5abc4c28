"""The document the replay viewer reads: a replay plus what a renderer cannot read off its
frames, and the page around it (served, or one self-contained HTML file)."""

from __future__ import annotations

import base64
import gzip
import json
from importlib import resources
from typing import Any

VIEW_VERSION = 1
"""The viewer document's own format; the page refuses any other (and any replay schema it
does not know), with a message saying which."""

SCRIPTS = ("player.js", "generic.js")
"""The viewer's own scripts (web/static); each installed game's renderer follows them."""

RENDERER = "renderer.js"
"""A game's renderer: this file in its package, registering itself in Botarena.renderers
(docs/new-game.md); a game without one is shown by generic.js."""


def renderers() -> dict[str, str]:
    """The installed games' renderers: game -> its script (imports only each game's cheap
    module, to find its folder). A game without one (a single-module plug-in ships no
    files), or whose file cannot be read as UTF-8, is shown by the generic renderer."""
    from botarena.core.registry import available, game_file

    found = {}
    for name in available():
        file = game_file(name, RENDERER)
        if file is None:
            continue
        try:
            found[name] = file.read_text("utf-8")
        except (OSError, ValueError):  # the plug-in's file, not the page, is broken
            continue
    return found


def view_document(replay: dict[str, Any], io: BotIo | None = None) -> dict[str, Any]:
    """`replay` with the renderer's derived data: the bots' texts (`io`: those made so far,
    a live game adds to one; else made here), the game's end reasons in words and its
    `viewer_data` hook, if it has one (a replay of a game not installed here is shown as it
    is)."""
    from botarena.core.registry import get_game

    if io is None:
        io = BotIo(replay)
        io.add(replay.get("steps", []))
    derived: dict[str, Any] = {}
    try:
        game = get_game(str(replay.get("game")))
    except KeyError:
        game = None
    if game is not None and game.viewer_data is not None:
        derived, replay = game.viewer_data(replay)
    derived["io"] = io.texts()
    if game is not None:
        derived["end_reasons"] = dict(game.info.end_reasons)
    return {"view_version": VIEW_VERSION, "replay": replay, "derived": derived}


IO_BUDGET = 3_000_000
"""Characters of bot input and output a view document holds at most (before gzip): a long
game's texts are cut shorter, not dropped, so the page stays a few MB at worst."""
IO_TEXT_LIMITS = (4000, 1000, 250, 60)
"""Each text's cut, the longest that keeps the whole game within IO_BUDGET."""


class BotIo:
    """What each bot was sent and answered at each step: `texts()[k][i]` = [sent, answered]
    of the k-th step's i-th act. Texts a replay does not store (games may keep no
    `sent`; packed replies) are re-made by re-playing the recorded answers through the rules;
    where the rules refuse the replay, the stored texts alone are shown. Each text is cut at
    the longest of IO_TEXT_LIMITS that keeps the whole game within IO_BUDGET, with a note
    saying how much was cut; the cut is made as steps are added, so a long game never holds
    its whole text (a large game's views can be hundreds of MB)."""

    def __init__(self, replay: dict[str, Any]) -> None:
        from botarena.core.registry import get_game
        from botarena.core.replay import ReplayError, rebuild
        from botarena.core.rules import GameError, Status

        self.limit = IO_TEXT_LIMITS[0]
        self.total = 0  # characters kept at self.limit
        self.steps: list[list[tuple[str, int, str, int]]] = []  # cut text, whole length
        try:
            self.game: Any = get_game(replay["game"])
            self.state: Any = rebuild(self.game, replay)
            for seat_text, (status, detail) in replay.get("handshake_faults", {}).items():
                self.state.fault(int(seat_text), Status(status), detail)
        except (KeyError, ValueError, TypeError, IndexError, ReplayError, GameError):
            self.state = None

    def add(self, steps: list[dict[str, Any]]) -> None:
        """Add the texts of the replay's next `steps`."""
        for step in steps:
            sent_replies = self._step(step)
            kept = []
            for sent, reply in sent_replies:
                kept.append((sent[: self.limit], len(sent), reply[: self.limit], len(reply)))
                self.total += min(len(sent), self.limit) + min(len(reply), self.limit)
            self.steps.append(kept)
            while self.total > IO_BUDGET and self.limit != IO_TEXT_LIMITS[-1]:
                self._shrink()

    def _step(self, step: dict[str, Any]) -> list[tuple[str, str]]:
        from botarena.core.replay import ReplayError, StepMismatch, recorded_actions
        from botarena.core.rules import GameError

        stored = [
            (act.get("sent", "(not recorded)"), act.get("reply", "(not recorded)"))
            for act in step["acts"]
        ]
        if self.state is None:
            return stored
        try:
            self.state.to_act()
            texts = []
            for act in step["acts"]:
                observation = self.state.observation(act["seat"])
                sent = act.get("sent")
                if sent is None:
                    sent = self.game.protocol.encode(observation)
                reply = act.get("reply")
                if reply is None and "packed" in act:
                    reply = self.game.protocol.unpack_reply(act["packed"], observation)
                texts.append((sent, "(no answer)" if reply is None else reply))
            self.state.apply(recorded_actions(self.game, self.state, step))
            return texts
        except (KeyError, ValueError, TypeError, IndexError, ReplayError, StepMismatch, GameError):
            self.state = None  # the rules refuse the rest: show what is stored
            return stored

    def _shrink(self) -> None:
        self.limit = IO_TEXT_LIMITS[IO_TEXT_LIMITS.index(self.limit) + 1]
        self.total = 0
        for kept in self.steps:
            for index, (sent, sent_length, reply, reply_length) in enumerate(kept):
                kept[index] = (sent[: self.limit], sent_length, reply[: self.limit], reply_length)
                self.total += len(kept[index][0]) + len(kept[index][2])

    def texts(self) -> list[list[list[str]]]:
        return [
            [
                [_noted(sent, length), _noted(reply, reply_length)]
                for sent, length, reply, reply_length in step
            ]
            for step in self.steps
        ]


def _noted(text: str, length: int) -> str:
    """A text cut from one of `length` characters, saying how many are not shown."""
    if len(text) >= length:
        return text
    return text + f"\n… ({length - len(text)} more characters not shown here)"


def packed(document: dict[str, Any]) -> str:
    """The document as gzip + base64 text (the page inflates it with DecompressionStream)."""
    return _gzip64(json.dumps(document, separators=(",", ":")).encode())


def _gzip64(raw: bytes) -> str:
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


UNPACK = """<script>(async () => {
  const inflate = async (text) => new Response(new Blob([Uint8Array.from(atob(text),
    (c) => c.charCodeAt(0))]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  const script = document.createElement("script");
  script.textContent = await inflate("CODE");
  document.body.appendChild(script);
  Botarena.start(SOURCE);
})();</script>"""
"""The self-contained page's one plain script: the viewer's scripts are stored like the
replay (gzip + base64: a third of their size), inflated and run at load."""


def static_text(name: str) -> str:
    return resources.files("botarena.web").joinpath("static", name).read_text("utf-8")


def page(source: dict[str, Any], inline: bool, static: str = "static/") -> str:
    """The viewer page reading `source` (`{"b64": ...}`, `{"url": ...}` or `{"sse": ...}`):
    scripts and style linked from `static` (served) or written into the page."""
    start = _script_safe(json.dumps(source))
    if inline:
        style = f"<style>{static_text('viewer.css')}</style>"
        texts = [*(static_text(name) for name in SCRIPTS), *renderers().values()]
        code = _slim("\n;\n".join(texts)).encode()
        scripts = UNPACK.replace("CODE", _gzip64(code)).replace("SOURCE", start)
    else:
        style = f'<link rel="stylesheet" href="{static}viewer.css">'
        names = [*SCRIPTS, *(f"games/{game}.js" for game in renderers())]
        scripts = "".join(f'<script src="{static}{name}"></script>' for name in names)
        scripts += f"<script>Botarena.start({start});</script>"
    return (
        static_text("viewer.html").replace("<!--STYLE-->", style).replace("<!--SCRIPTS-->", scripts)
    )


def standalone_html(document: dict[str, Any]) -> str:
    """One HTML file holding the viewer and the replay: no network access needed."""
    return page({"b64": packed(document)}, inline=True)


def _slim(code: str) -> str:
    """The scripts without indentation, blank lines and whole-line comments (a sixth less
    in the page; safe because no string or template literal of the viewer spans lines)."""
    lines = (line.strip() for line in code.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//"))


def _script_safe(text: str) -> str:
    """Text placed inside <script>: no `</script` can end the element early."""
    return text.replace("</", "<\\/")
