"""The replay viewer in a real browser (Debian's chromium): for each game it opens, plays,
steps and seeks, and draws what the replay's frames (or, for Ants, the rules) say; the
self-contained HTML works from a file URL; unknown versions are refused with a message."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import botarena
from botarena.core.replay import load, rebuild, recorded_actions
from botarena.games import get_game
from botarena.web.viewdoc import standalone_html, view_document
from browser import open_viewer

BOTS = {
    "amazes": ["builtin:amazes/explorer", "builtin:amazes/random"],
    "falldown": [
        "builtin:falldown/hunter",
        "builtin:falldown/random",
        "builtin:falldown/hunter",
        "builtin:falldown/random",
    ],
    "labyrinth": ["builtin:labyrinth/cartographer", "builtin:labyrinth/warden"],
}


class North:
    """An Ants bot sending every ant north: ants queued behind one blocked by water walk
    onto it (a collision), which no built-in bot does."""

    name = "north"

    def act(self, observation: Any) -> list[str]:
        if observation.turn == 0:
            return []
        return [f"o {row} {col} n" for row, col, owner in observation.ants if owner == 0]


BOTS["ants"] = [North(), "builtin:ants/swarm", "builtin:ants/random", "builtin:ants/greedy"]
SEEDS = {"ants": 2}
OPTIONS = {"labyrinth": {"max_rounds": 3}}
SEAT_RGB = [(0xE5, 0x39, 0x35), (0x1E, 0x88, 0xE5)]  # Amazes Red, Blue


@pytest.fixture(scope="module")
def replays(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("replays")
    paths = {}
    for game, bots in BOTS.items():
        paths[game] = folder / f"{game}.json.gz"
        botarena.play(
            game, bots, seed=SEEDS.get(game, 3), replay=paths[game], **OPTIONS.get(game, {})
        )
    return paths


def html_file(replay: Path, folder: Path) -> str:
    """The self-contained page of `replay` written by `botarena view --html`; its file URL."""
    out = folder / (replay.name.split(".")[0] + ".html")
    subprocess.run(
        [sys.executable, "-m", "botarena", "view", str(replay), "--html", str(out)],
        check=True,
        capture_output=True,
    )
    return out.as_uri()


def shot(viewer, tmp_path: Path, name: str) -> None:
    """A screenshot kept with the test's files (pytest's tmp dir), for a human to look at."""
    viewer.page.screenshot(path=str(tmp_path / f"{name}.png"))


def pixel(viewer, x: float, y: float) -> tuple[int, int, int]:
    return tuple(
        viewer.page.evaluate(
            f"Array.from(document.getElementById('board').getContext('2d')"
            f".getImageData({int(x)}, {int(y)}, 1, 1).data.slice(0, 3))"
        )
    )


def controls(viewer) -> None:
    """Play, pause, step with keys and buttons, seek with the bar: the position follows."""
    page = viewer.page
    last = viewer.api("last")
    page.select_option("#speed", "16")
    page.keyboard.press("Space")
    page.wait_for_function("window.botarenaView.position > 0")
    page.keyboard.press("Space")
    assert viewer.api("playing") is False
    page.keyboard.press("Home")
    assert viewer.api("position") == 0
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert viewer.api("position") == 2
    page.keyboard.press("ArrowLeft")
    assert viewer.api("position") == 1
    page.click("#forward")
    assert viewer.api("position") == 2
    page.keyboard.press("End")
    assert viewer.api("position") == last
    assert page.inner_text("#counter") == f"step {last} / {last}"
    page.fill("#seek", str(last // 2))
    assert viewer.api("position") == last // 2
    page.click("#first")
    assert viewer.api("position") == 0


def frames(replay: Path) -> list[dict[str, Any]]:
    document = load(replay)
    return [document["initial_frame"]] + [step["frame"] for step in document["steps"]]


# -- Amazes --------------------------------------------------------------------------------
def test_amazes(browser, replays, tmp_path):
    viewer = open_viewer(browser, html_file(replays["amazes"], tmp_path))
    controls(viewer)
    recorded = frames(replays["amazes"])
    names = [bot["name"] for bot in load(replays["amazes"])["bots"]]
    for t in (0, 1, 2, len(recorded) // 2, len(recorded) - 1):
        viewer.api(f"seek({t})")
        state = viewer.api("state()")
        assert state["players"] == recorded[t]["players"]
        assert state["discovered"] == recorded[t]["discovered"]
        assert state["path"] == recorded[t].get("path", [])
        assert viewer.page.inner_text("#counter") == f"step {t} / {len(recorded) - 1}"
        for seat, (square, _) in enumerate(recorded[t]["players"]):
            if recorded[t]["players"][1 - seat][0] == square:
                continue  # both on one square: the later arrow covers the other
            row, col = divmod(square, 25)
            assert pixel(viewer, 10 + (col + 0.5) * 28, 10 + (row + 0.5) * 28) == SEAT_RGB[seat]
        cells = viewer.page.locator("#players tbody tr")
        for seat in (0, 1):
            points = max(0, min(1000, recorded[t]["points"][seat]))
            assert cells.nth(seat).locator("td").nth(1).inner_text() == names[seat]
            assert cells.nth(seat).locator("td").nth(2).inner_text() == str(points)
    viewer.page.select_option("#options select", "truth")
    assert viewer.api("state()")["view"] == "truth"
    shot(viewer, tmp_path, "amazes")
    assert viewer.errors == []


# -- Falldown ------------------------------------------------------------------------------
def falldown_line(frame: dict[str, Any]) -> dict[str, Any] | None:
    """The rule text's attack line: from the attacker along its facing to the board edge."""
    if frame.get("command") != "A":
        return None
    actor = frame["players"][frame["seat"]]
    x, y = actor["x"], actor["y"]
    ends = {"U": (x, 0), "D": (x, 17), "L": (0, y), "R": (17, y)}
    return {"seat": frame["seat"], "from": [x, y], "to": list(ends[actor["facing"]])}


def test_falldown(browser, replays, tmp_path):
    viewer = open_viewer(browser, html_file(replays["falldown"], tmp_path))
    controls(viewer)
    recorded = frames(replays["falldown"])
    attacks = [t for t, frame in enumerate(recorded) if frame.get("command") == "A"]
    fallen = [
        t
        for t, frame in enumerate(recorded)
        if any(value < 0 for row in frame["blocks"] for value in row)
    ]
    assert attacks and fallen
    for t in (0, attacks[0], attacks[-1], fallen[0], len(recorded) - 1):
        viewer.api(f"seek({t})")
        state = viewer.api("state()")
        frame = recorded[t]
        expected = [
            [["falling" if v > 0 else "fallen" if v < 0 else "standing", v] for v in row]
            for row in frame["blocks"]
        ]
        assert state["blocks"] == expected
        assert state["players"] == frame["players"]
        assert state["attack"] == falldown_line(frame)
        for row, values in enumerate(frame["blocks"]):  # a block's colour: its state
            for col, value in enumerate(values):
                colour = pixel(viewer, 18 + col * 114 + 6, 18 + row * 114 + 6)
                if (row * 6 + col) in frame["fallen_blocks"]:
                    assert colour == (0xB7, 0x1C, 0x1C)
                elif value > 0:
                    assert colour == (0xFF, 0xB7, 0x4D)
                elif value < 0:
                    assert colour == (0x37, 0x47, 0x4F)
                else:
                    assert colour == (0xD7, 0xCC, 0xC8)
    shot(viewer, tmp_path, "falldown")
    assert viewer.errors == []


# -- Ants ----------------------------------------------------------------------------------
def ants_truth(replay: Path) -> list[dict[str, Any]]:
    """What stands on the board after each turn, straight from the rules: live ants, ants
    killed by a collision (the move) and by battle (the attack), food, hills razed by an ant
    (the lone survivor's bonus hills stay standing)."""
    document = load(replay)
    game = get_game("ants")
    state = rebuild(game, document)
    moving = state.do_orders

    def do_orders() -> None:
        moving()
        state.collided_now = list(state.killed_ants)

    state.do_orders = do_orders

    def snapshot() -> dict[str, Any]:
        collided = getattr(state, "collided_now", [])
        dead = [ant for ant in state.killed_ants if ant not in collided]
        ants = lambda items: sorted([*ant.loc, ant.owner] for ant in items)  # noqa: E731
        return {
            "ants": ants(state.current_ants.values()),
            "collided": ants(collided),
            "battle": ants(dead),
            "food": sorted(list(loc) for loc in state.current_food),
            "razed": sorted(
                [*hill.loc, hill.owner]
                for hill in state.hills.values()
                if hill.end_turn is not None
            ),  # not the survivor's bonus
            "score": list(state.score),
        }

    truth = [snapshot()]
    for step in document["steps"]:
        state.collided_now = []
        state.to_act()
        state.apply(recorded_actions(game, state, step))
        truth.append(snapshot())
    return truth


def test_ants(browser, replays, tmp_path):
    viewer = open_viewer(browser, html_file(replays["ants"], tmp_path))
    controls(viewer)
    truth = ants_truth(replays["ants"])
    collisions = [t for t, turn in enumerate(truth) if turn["collided"]]
    battles = [t for t, turn in enumerate(truth) if turn["battle"]]
    assert collisions and battles
    for t in (0, 1, collisions[0], battles[0], battles[-1], len(truth) - 1):
        viewer.api(f"seek({t})")
        state = viewer.api("state()")
        for key in ("ants", "collided", "battle", "food", "score"):
            assert state[key] == truth[t][key], (t, key)
        assert sorted(state["razed"]) == truth[t]["razed"]
    viewer.api(f"seek({battles[0]})")
    viewer.page.select_option("#options select", "0")
    fogged = viewer.api("state()")
    assert fogged["fog"] == 0 and 0 < fogged["visible"] < 60 * 90
    scale = fogged["scale"]
    viewer.page.mouse.move(300, 300)
    viewer.page.mouse.wheel(0, -100)
    viewer.page.wait_for_function(f"window.botarenaView.state().scale > {scale}")
    shot(viewer, tmp_path, "ants")
    assert viewer.errors == []


# -- Labyrinth -----------------------------------------------------------------------------
def test_labyrinth(browser, replays, tmp_path):
    viewer = open_viewer(browser, html_file(replays["labyrinth"], tmp_path))
    controls(viewer)
    recorded = frames(replays["labyrinth"])
    changed = [
        t
        for t, frame in enumerate(recorded)
        if any(change["result"] == "changed" for change in frame.get("changes", []))
    ]
    assert changed
    mazes = [t for t, frame in enumerate(recorded) if "maze" in frame]
    for t in (0, 1, 2, changed[0], changed[0] + 1, changed[-1], len(recorded) - 1):
        viewer.api(f"seek({t})")
        state = viewer.api("state()")
        frame = recorded[t]
        board = max((m for m in mazes if m <= t), default=None)
        assert state["maze"] == (recorded[board]["maze"] if board is not None else None)
        assert state["adventurers"] == frame.get("adventurers", [])
        assert state["changes"] == frame.get("changes", [])
        assert (state["mana"], state["round"], state["n"]) == (
            frame["mana"],
            frame["round"],
            frame["n"],
        )
        label = viewer.page.inner_text("#label")
        assert f"round {frame['round']} · n {frame['n']}" in label
        assert f"mana {frame['mana']}" in label
    viewer.api(f"seek({changed[0]})")
    notes = viewer.page.inner_text("#events")
    for change in recorded[changed[0]]["changes"]:
        assert f"cost {change['cost']}" in notes
    shot(viewer, tmp_path, "labyrinth")
    assert viewer.errors == []


# -- versions, escaping, the commands ------------------------------------------------------
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("schema_version", 2, "This replay has schema version 2"),
        ("view_version", 9, "This page was made for viewer format 9"),
    ],
)
def test_unknown_version_is_refused(browser, replays, tmp_path, field, value, message):
    document = view_document(load(replays["amazes"]))
    if field == "schema_version":
        document["replay"]["schema_version"] = value
    else:
        document["view_version"] = value
    page_file = tmp_path / "refused.html"
    page_file.write_text(standalone_html(document))
    viewer = open_viewer(browser, page_file.as_uri())
    assert message in viewer.page.inner_text("#error")
    assert viewer.page.is_hidden("#viewer")


def test_bot_texts_are_text(browser, tmp_path):
    """A bot's name and stderr are shown as text, never as markup."""
    name = "<b>x</b><script>alert(1)</script>"
    stderr = "<img src=x onerror=window.pwned=1><script>window.pwned=1</script>"
    path = tmp_path / "hostile.json.gz"
    botarena.play("amazes", ["builtin:amazes/random", "builtin:amazes/random"], seed=1, replay=path)
    document = load(path)  # a tournament's names and a process bot's stderr, as stored
    document["bots"][0]["name"] = name
    document["stderr"][0] = stderr
    page_file = tmp_path / "hostile.html"
    page_file.write_text(standalone_html(view_document(document)))
    dialogs = []
    viewer = open_viewer(browser, page_file.as_uri())
    viewer.page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    assert viewer.page.inner_text("#players tbody tr td:nth-child(2) >> nth=0") == name
    assert stderr in viewer.page.inner_text("#stderr")
    assert viewer.page.locator("#players b, #stderr img").count() == 0
    assert viewer.page.evaluate("window.pwned") is None
    assert dialogs == []
    assert viewer.errors == []


def test_view_serves_the_replay(browser, replays):
    """`botarena view REPLAY --no-open` prints the URL of a local server showing it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "botarena", "view", str(replays["falldown"]), "--no-open"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        viewer = open_viewer(browser, url)
        assert viewer.api("game") == "falldown"
        assert viewer.api("last") == len(load(replays["falldown"])["steps"])
        assert viewer.errors == []
    finally:
        process.terminate()
        process.wait(10)


def test_view_refuses_a_file_that_is_no_replay(tmp_path):
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(gzip.compress(json.dumps({"schema_version": 7}).encode()))
    done = subprocess.run(
        [sys.executable, "-m", "botarena", "view", str(bad), "--html", str(tmp_path / "out.html")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"botarena: error: {bad}: replay schema_version 7 is not"
        " supported (this botarena reads schema_version 1)\n"
    )
    assert not (tmp_path / "out.html").exists()


def test_play_watch_follows_the_game(browser, tmp_path):
    """`play --watch` serves the game as it is played; the page ends on its last step."""
    replay = tmp_path / "watched.json.gz"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "botarena",
            "play",
            "ants",
            "builtin:ants/greedy",
            "builtin:ants/random",
            "--seed",
            "2",
            "--replay",
            str(replay),
            "--watch",
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "BROWSER": "true"},
    )
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", process.stderr.readline()).group(0)
        viewer = open_viewer(browser, url)
        result = json.loads(process.stdout.readline())
        viewer.page.wait_for_function(
            f"window.botarenaView.last === {result['turns']}"
            f" && window.botarenaView.position === {result['turns']}",
            timeout=30000,
        )
        assert process.wait(30) == 0
        assert viewer.api("state()")["score"] == [p["score"] for p in result["players"]]
        assert viewer.errors == []
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(10)


# -- the game-over banner, the counters' labels, each bot's input and output, the keys ------
END_REASONS = {
    "sudden_death": "sudden death: a player caught the other once the whole maze was discovered",
    "turns": "both players took all their turns",
}
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


@pytest.mark.slow
def test_amazes_banner_labels_and_io(browser, replays, tmp_path):
    """The banner is shown at the last step only, with each bot's place, points and the end
    reason in words; the counters say what they count, per player; the I/O panel holds the
    recorded texts and the reply's time."""
    document = load(replays["amazes"])
    result, recorded = document["result"], frames(replays["amazes"])
    last = len(recorded) - 1
    viewer = open_viewer(browser, html_file(replays["amazes"], tmp_path))
    page = viewer.page
    assert page.is_hidden("#banner")
    page.keyboard.press("End")
    order = sorted(range(2), key=lambda seat: result["players"][seat]["rank"])
    assert page.inner_text("#banner").splitlines() == [
        f"Game over after {result['turns']} turns (both players' together):"
        f" {END_REASONS[result['end_reason']]}",
        *(
            f"{ORDINALS[result['players'][seat]['rank']]}: {result['players'][seat]['bot']}:"
            f" points {result['players'][seat]['score']}"
            for seat in order
        ),
    ]
    viewer.api(f"seek({last - 1})")
    assert page.is_hidden("#banner")
    assert page.inner_text("#players thead").split("\t")[1:3] == ["bot", "points"]
    for t in (1, 2, last):
        viewer.api(f"seek({t})")
        red, blue = recorded[t]["discovered"]
        assert (
            f"squares of the maze each player has discovered (of 625): Red {red}, Blue {blue}"
            in page.inner_text("#events")
        )
        assert page.inner_text("#label").startswith(f"turns played (both players): {t} · ")
        (act,) = document["steps"][t - 1]["acts"]
        name = document["bots"][act["seat"]]["name"]
        assert page.inner_text("#io .who") == (
            f"{name} (seat {act['seat']}): answered in {act['ms']:.1f} ms"
        )
        assert page.inner_text("#io pre.sent") == act["sent"].removesuffix("\n")
        answered = act.get("reply")
        if answered is None:  # packed: the rules' moves are the reply's letters
            answered = recorded[t]["moves"]
        assert page.inner_text("#io pre.answered") == answered
    assert viewer.page.inner_text("#legend").startswith(
        "pink: squares Red discovered · blue: squares Blue discovered"
    )
    shot(viewer, tmp_path, "amazes-over")
    assert viewer.errors == []


CRASHES_AFTER_12_TURNS = """import sys
turns = 0
for line in sys.stdin:
    if line.strip() == "Start":
        continue
    turns += 1
    if turns % 5 == 0:  # a turn's five lines read
        if turns // 5 > 12:
            sys.exit(3)
        print("FLFR", flush=True)
"""


@pytest.mark.slow
def test_a_crashed_bot_ends_at_its_final_score_not_its_points(browser, tmp_path):
    """Amazes: a bot that crashes after 12 turns had 98 points; the rules make its final
    score 0 (docs/games/amazes.md, Faults), so the last step shows 0 and its place, never the
    points it had while it played."""
    bot = tmp_path / "crashes.py"
    bot.write_text(CRASHES_AFTER_12_TURNS)
    replay = tmp_path / "crashed.json"
    specs = [f"crash={sys.executable} {bot}", "builtin:amazes/explorer"]
    botarena.play("amazes", specs, seed=19, sandbox=False, replay=replay)
    assert load(replay)["steps"][-1]["frame"]["points"][0] == 98
    viewer = open_viewer(browser, html_file(replay, tmp_path))
    page = viewer.page
    page.keyboard.press("End")
    rows = page.locator("#players tbody tr")
    assert [rows.nth(seat).locator("td").nth(2).inner_text() for seat in (0, 1)] == ["0", "1000"]
    assert page.inner_text("#banner").splitlines()[1:] == [
        "1st: explorer: points 1000",
        "2nd: crash: points 0 (crashed)",
    ]
    page.keyboard.press("ArrowLeft")
    assert rows.nth(0).locator("td").nth(2).inner_text() == "98"
    assert viewer.errors == []


ECHO_ANTS = """import sys
for line in sys.stdin:
    sys.stderr.write(line)
    if line.strip() in ("ready", "go"):
        sys.stdout.write("go\\n")
        sys.stdout.flush()
    if line.strip() == "end":
        break
"""


@pytest.mark.slow
def test_ants_io_is_what_the_bot_read(browser, tmp_path):
    """Ants replays keep no `sent` text: the panel's text, re-made through the rules, is what
    a process bot read (it copies its input to stderr), and its answer is its `go`."""
    bot = tmp_path / "echo.py"
    bot.write_text(ECHO_ANTS)
    path = tmp_path / "echo.json.gz"
    # a command, not botarena.play: an in-process game with a process bot makes this test
    # process a subreaper, and the browser's exiting helpers would then become its zombies
    subprocess.run(
        [
            sys.executable,
            "-m",
            "botarena",
            "play",
            "ants",
            f"{sys.executable} {bot}",
            "builtin:ants/hold",
            "--seed",
            "1",
            "-o",
            "turns=3",
            "--replay",
            str(path),
        ],
        check=True,
        capture_output=True,
    )
    document = load(path)
    read = document["stderr"][0]
    turns = re.split(r"(?m)^(?=turn \d+$)", read)[1:]  # what it read, turn by turn
    assert [text.split("\n", 1)[0] for text in turns[:3]] == ["turn 0", "turn 1", "turn 2"]
    viewer = open_viewer(browser, html_file(path, tmp_path))
    page = viewer.page
    for t in (1, 2):
        viewer.api(f"seek({t})")
        act = document["steps"][t - 1]["acts"][0]
        assert page.inner_text("#io .who >> nth=0") == (
            f"{document['bots'][0]['name']} (seat 0): answered in {act['ms']:.1f} ms"
        )
        assert page.inner_text("#io pre.sent >> nth=0") == turns[t].removesuffix("\n")
        assert page.inner_text("#io pre.answered >> nth=0") == "go"
    assert (
        page.inner_text("#label") == f"turn 2 · live ants on the map (all players): "
        f"{load(path)['steps'][1]['frame']['ants']}"
    )
    assert viewer.errors == []


@pytest.mark.slow
def test_other_labels(browser, replays, tmp_path):
    """Falldown's and Labyrinth's counters say what they count."""
    viewer = open_viewer(browser, html_file(replays["falldown"], tmp_path))
    recorded = frames(replays["falldown"])
    names = [bot["name"] for bot in load(replays["falldown"])["bots"]]
    viewer.api("seek(5)")
    assert viewer.page.inner_text("#label") == (
        f"slot 4 (one bot's command a slot, in seat order) · {names[recorded[5]['seat']]}"
        f" played {recorded[5]['command']}"
    )
    assert viewer.page.inner_text("#legend").startswith(
        "number on a block: slots until it falls (orange, falling) or until it stands again"
    )
    viewer = open_viewer(browser, html_file(replays["labyrinth"], tmp_path))
    recorded = frames(replays["labyrinth"])
    viewer.api("seek(3)")
    frame = recorded[3]
    assert viewer.page.inner_text("#label").startswith(
        f"round {frame['round']} · n {frame['n']} (maze {frame['n']}×{frame['n']}) · turn of"
        f" the round {frame['turn']} · maze master's mana {frame['mana']}"
    )
    assert viewer.page.inner_text("#score-name") == "game score (one for both roles)"
    assert "green cell: the goal" in viewer.page.inner_text("#legend")


@pytest.mark.slow
def test_keyboard_shortcuts_are_shown_and_work(browser, replays, tmp_path):
    viewer = open_viewer(browser, html_file(replays["falldown"], tmp_path))
    page = viewer.page
    assert page.inner_text("#keys") == (
        "keys: space play/pause · ← → step · PgUp PgDn 10 steps · Home End first/last · - + speed"
    )
    page.keyboard.press("PageDown")
    page.keyboard.press("PageDown")
    assert viewer.api("position") == 20
    page.keyboard.press("PageUp")
    assert viewer.api("position") == 10
    assert viewer.api("speed") == 1
    page.keyboard.press("+")
    page.keyboard.press("+")
    assert viewer.api("speed") == 4
    assert page.input_value("#speed") == "4"
    page.keyboard.press("-")
    assert viewer.api("speed") == 2
    for _ in range(8):
        page.keyboard.press("-")
    assert viewer.api("speed") == 0.25
    page.keyboard.press("End")
    page.keyboard.press("PageDown")
    assert viewer.api("position") == viewer.api("last")
    assert viewer.errors == []
