"""A game without a renderer of its own is shown at once by the generic one (web/static/
generic.js): each frame as text, the scores, and what each bot was sent and answered."""

from __future__ import annotations

import json
from pathlib import Path

import botarena
from botarena.web.viewdoc import standalone_html, view_document
from browser import open_viewer


def test_a_game_without_a_renderer_is_shown_frame_by_frame(browser, tmp_path: Path) -> None:
    played = botarena._play(
        "amazes",
        ["builtin:amazes/random", "builtin:amazes/random"],
        seed=4,
        map=None,
        replay=None,
        options={"turns": 3},
        observe=lambda document: None,
    )
    replay = json.loads(json.dumps(played.document))
    replay["game"] = "unhosted"  # installed nowhere: no renderer, no viewer_data hook
    page = tmp_path / "generic.html"
    page.write_text(standalone_html(view_document(replay)), encoding="utf-8")
    viewer = open_viewer(browser, page.as_uri())
    recorded = [replay["initial_frame"], *(step["frame"] for step in replay["steps"])]
    assert viewer.api("last") == len(recorded) - 1
    for t in range(len(recorded)):
        viewer.api(f"seek({t})")
        state = viewer.api("state()")
        assert state["frame"] == recorded[t]
        acts = [] if t == 0 else replay["steps"][t - 1]["acts"]
        assert state["acts"] == acts
        shown = viewer.page.inner_text("#extra")
        for act in acts:
            assert f"{played.players[act['seat']].bot} answered:\n{act['reply']}" in shown
    final = [p["score"] for p in replay["result"]["players"]]
    cells = viewer.page.locator("#players tbody tr")
    assert [int(cells.nth(seat).locator("td").nth(2).inner_text()) for seat in (0, 1)] == final
    assert viewer.errors == []
