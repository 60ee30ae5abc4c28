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

SCRIPTS = ("player.js", "games/amazes.js", "games/falldown.js", "games/ants.js",
           "games/labyrinth.js")


def view_document(replay: dict[str, Any]) -> dict[str, Any]:
    """`replay` with the renderer's derived data. Ants frames hold only scores and counts,
    so the ants' lives (spawn, moves, end), food and hills are re-simulated here with the
    rules, as the 2011 replay stores them; the replies they come from are then dropped."""
    derived: dict[str, Any] = {}
    io = bot_io(replay)
    if replay.get("game") == "ants" and replay.get("schema_version") == 1:
        derived, replay = _ants(replay)
    derived["io"] = io
    return {"view_version": VIEW_VERSION, "replay": replay, "derived": derived}


IO_BUDGET = 3_000_000
"""Characters of bot input and output a view document holds at most (before gzip): a long
game's texts are cut shorter, not dropped, so the page stays a few MB at worst."""
IO_TEXT_LIMITS = (4000, 1000, 250, 60)
"""Each text's cut, the longest that keeps the whole game within IO_BUDGET."""


def bot_io(replay: dict[str, Any]) -> list[list[list[str]]]:
    """io[k][i] = [sent, answered] of the k-th step's i-th act, each cut at the longest of
    IO_TEXT_LIMITS that fits IO_BUDGET, with a note saying how much was cut. Texts a replay
    does not store (Ants and Labyrinth keep no `sent`; packed replies) are re-made by
    re-playing the recorded answers through the rules; if the rules refuse the replay, the
    stored texts alone are shown."""
    texts = _io_texts(replay)
    total = sum(len(sent) + len(reply) for step in texts for sent, reply in step)
    limit = next((limit for limit in IO_TEXT_LIMITS
                  if sum(min(len(sent), limit) + min(len(reply), limit)
                         for step in texts for sent, reply in step) <= IO_BUDGET),
                 IO_TEXT_LIMITS[-1]) if total > IO_BUDGET else IO_TEXT_LIMITS[0]
    return [[[_cut(sent, limit), _cut(reply, limit)] for sent, reply in step]
            for step in texts]


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({len(text) - limit} more characters not shown here)"


def _io_texts(replay: dict[str, Any]) -> list[list[tuple[str, str]]]:
    from botarena.core.replay import ReplayError, StepMismatch, rebuild, recorded_actions
    from botarena.core.rules import GameError, Status
    from botarena.games import get_game

    steps = replay.get("steps", [])
    stored = [[(act.get("sent", "(not recorded)"), act.get("reply", "(not recorded)"))
               for act in step["acts"]] for step in steps]
    try:
        game = get_game(replay["game"])
        state = rebuild(game, replay)
        for seat_text, (status, detail) in replay.get("handshake_faults", {}).items():
            state.fault(int(seat_text), Status(status), detail)
        texts = []
        for step in steps:
            state.to_act()
            line = []
            for act in step["acts"]:
                observation = state.observation(act["seat"])
                sent = act.get("sent")
                if sent is None:
                    sent = game.protocol.encode(observation)
                reply = act.get("reply")
                if reply is None and "packed" in act:
                    reply = game.protocol.unpack_reply(act["packed"], observation)
                line.append((sent, "(no answer)" if reply is None else reply))
            state.apply(recorded_actions(game, state, step))
            texts.append(line)
        return texts
    except (KeyError, ValueError, TypeError, IndexError, ReplayError, StepMismatch,
            GameError):
        return stored


def _ants(replay: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    from botarena.games.ants.replay2011 import replay_data, state_from_botarena

    state = state_from_botarena(replay)
    data = replay_data(state)
    derived = {key: data[key] for key in ("ants", "food", "hills", "viewradius2",
                                          "attackradius2")}
    derived["rows"], derived["cols"] = data["map"]["rows"], data["map"]["cols"]
    derived["water"] = ["".join("%" if char == "%" else "." for char in line)
                        for line in data["map"]["data"]]
    steps = [{"acts": [{key: value for key, value in act.items()
                        if key not in ("packed", "reply")} for act in step["acts"]],
              "frame": step["frame"]} for step in replay["steps"]]
    return derived, {**replay, "steps": steps}


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
        code = _slim("\n;\n".join(static_text(name) for name in SCRIPTS)).encode()
        scripts = UNPACK.replace("CODE", _gzip64(code)).replace("SOURCE", start)
    else:
        style = f'<link rel="stylesheet" href="{static}viewer.css">'
        scripts = "".join(f'<script src="{static}{name}"></script>' for name in SCRIPTS)
        scripts += f"<script>Botarena.start({start});</script>"
    return (static_text("viewer.html").replace("<!--STYLE-->", style)
            .replace("<!--SCRIPTS-->", scripts))


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
