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
    module, to find its folder)."""
    from botarena.core.registry import available, entries

    found = {}
    for name in available():
        file = resources.files(entries()[name].module).joinpath(RENDERER)
        if file.is_file():
            found[name] = file.read_text("utf-8")
    return found


def view_document(replay: dict[str, Any]) -> dict[str, Any]:
    """`replay` with the renderer's derived data: the game's `viewer_data` hook, if it has
    one (a replay of a game not installed here is shown as it is)."""
    from botarena.core.registry import get_game

    derived: dict[str, Any] = {}
    try:
        hook = get_game(str(replay.get("game"))).viewer_data
    except KeyError:
        hook = None
    if hook is not None:
        derived, replay = hook(replay)
    return {"view_version": VIEW_VERSION, "replay": replay, "derived": derived}


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
