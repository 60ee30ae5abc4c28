"""The view document's bot I/O: every act's sent and answered text, re-made where the replay
keeps none, and cut (with a note) when a long game would exceed the document's budget."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import botarena
from botarena.core.replay import load
from botarena.web import viewdoc


def test_io_holds_the_recorded_texts(tmp_path):
    path = tmp_path / "a.json.gz"
    botarena.play("amazes", ["builtin:amazes/random", "builtin:amazes/random"], seed=2, replay=path)
    document = load(path)
    io = viewdoc.view_document(document)["derived"]["io"]
    assert len(io) == len(document["steps"])
    for step, texts in zip(document["steps"], io, strict=True):
        (act,) = step["acts"]
        ((sent, answered),) = texts
        assert sent == act["sent"]
        assert answered == act.get("reply", step["frame"]["moves"])


def test_long_texts_are_cut_with_a_note(tmp_path, monkeypatch):
    """Over the budget, each text is cut at the longest limit that fits, and says how much
    is missing."""
    path = tmp_path / "f.json.gz"
    botarena.play("falldown", ["builtin:falldown/random"] * 4, seed=1, replay=path, turns=40)
    document = load(path)
    sent = document["steps"][0]["acts"][0]["sent"]
    assert len(sent) > 60
    monkeypatch.setattr(viewdoc, "IO_BUDGET", 60 * 2 * 40)
    monkeypatch.setattr(viewdoc, "IO_TEXT_LIMITS", (500, 60, 10))
    made = viewdoc.BotIo(document)
    made.add(document["steps"])
    io = made.texts()
    assert io[0][0][0] == (sent[:60] + f"\n… ({len(sent) - 60} more characters not shown here)")
    assert io[0][0][1] == document["steps"][0]["acts"][0]["reply"]  # short: whole


@given(
    lengths=st.lists(st.tuples(st.integers(0, 300), st.integers(0, 300)), max_size=40),
    budget=st.integers(0, 6000),
)
def test_the_cut_made_step_by_step_is_the_whole_game_s(lengths, budget):
    """Texts cut as steps arrive end cut exactly as if the whole game had been cut at once:
    at the longest limit whose total fits the budget (the shortest when none does)."""
    limits = (200, 50, 5)
    steps = [
        {"acts": [{"seat": 0, "sent": "s" * sent, "reply": "r" * reply}]} for sent, reply in lengths
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(viewdoc, "IO_BUDGET", budget)
        patch.setattr(viewdoc, "IO_TEXT_LIMITS", limits)
        made = viewdoc.BotIo({"game": "no such game", "steps": steps})
        for step in steps:
            made.add([step])
        texts = made.texts()
    fits = [
        limit
        for limit in limits
        if sum(min(sent, limit) + min(reply, limit) for sent, reply in lengths) <= budget
    ]
    limit = fits[0] if fits else limits[-1]

    def cut(text: str) -> str:
        if len(text) <= limit:
            return text
        return text[:limit] + f"\n… ({len(text) - limit} more characters not shown here)"

    assert texts == [[[cut("s" * sent), cut("r" * reply)]] for sent, reply in lengths]
