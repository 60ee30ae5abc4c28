"""Replays: one versioned JSON document per game (gzip on disk), and `verify`.

A replay holds the inputs that reproduce the game (seed, options, the map in the header,
every reply and every fault) and what came out of it (what each bot was sent, a frame per
step, the result). `verify` re-plays the inputs through the rules and compares the outputs.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from botarena import __version__
from botarena.core.rules import ProtocolError, State, Status

if TYPE_CHECKING:
    from botarena.core.game import Game
    from botarena.core.player import Reply

SCHEMA_VERSION = 1


class ReplayError(ValueError):
    """The file is not a readable botarena replay; the message names the file."""


class ReplayRecorder:
    """Collects a game's exchanges into the replay document as the referee plays it."""

    def __init__(self, game: Game, seed: int | str, options: dict[str, Any], state: State,
                 bots: list[tuple[str, str]]) -> None:
        self.game = game
        self.document: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "botarena_version": __version__,
            "game": game.name,
            "rules_version": game.info.rules_version,
            "seed": seed,
            "options": options,
            "header": state.header(),
            "bots": [{"seat": seat, "name": name, "spec": spec}
                     for seat, (name, spec) in enumerate(bots)],
            "initial_frame": state.frame(),
            "handshake_faults": {},
            "steps": [],
        }

    def handshake(self, faults: dict[int, Reply]) -> None:
        self.document["handshake_faults"] = {
            str(seat): [reply.fault.value if reply.fault else "invalid", reply.detail]
            for seat, reply in faults.items()}

    def step(self, seats: list[int], observations: dict[int, Any], texts: dict[int, str],
             replies: dict[int, Reply], frame: dict[str, Any]) -> None:
        acts = []
        protocol = self.game.protocol
        for seat in seats:
            reply = replies[seat]
            act: dict[str, Any] = {"seat": seat}
            packed = protocol.pack_reply(reply.text, observations[seat])
            if packed is not None and protocol.unpack_reply(packed,
                                                            observations[seat]) == reply.text:
                act["packed"] = packed
            else:
                act["reply"] = reply.text
            act["ms"] = round(reply.wall_s * 1000, 1)
            if self.game.record_sent:
                act["sent"] = texts[seat]
            if reply.cpu_s is not None:
                act["cpu_s"] = reply.cpu_s  # exact: verify re-feeds it to State.charge
            if reply.fault is not None:
                act["fault"] = [reply.fault.value, reply.detail]
            acts.append(act)
        self.document["steps"].append({"acts": acts, "frame": frame})

    def finish(self, result: dict[str, Any], stderr: list[str]) -> dict[str, Any]:
        self.document["result"] = result
        self.document["stderr"] = stderr
        return self.document


def save(document: dict[str, Any], path: str | Path) -> None:
    """Write `document` as JSON, gzip-compressed when the name ends in `.gz`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(document, separators=(",", ":")).encode()
    if path.suffix == ".gz":
        data = gzip.compress(data, compresslevel=6, mtime=0)
    path.write_bytes(data)


def load(path: str | Path) -> dict[str, Any]:
    """Read a replay (gzip or plain JSON); raises ReplayError with one line naming the file."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        document = json.loads(raw)
    except (OSError, EOFError, ValueError) as exc:
        raise ReplayError(f"{path}: not a replay ({exc.__class__.__name__}: {exc})") from None
    if not isinstance(document, dict) or "schema_version" not in document:
        raise ReplayError(f"{path}: not a botarena replay (no schema_version)")
    if document["schema_version"] != SCHEMA_VERSION:
        raise ReplayError(f"{path}: replay schema {document['schema_version']} is not supported"
                          f" (this botarena reads schema {SCHEMA_VERSION})")
    for key in ("game", "seed", "options", "header", "bots", "steps", "result"):
        if key not in document:
            raise ReplayError(f"{path}: replay has no {key!r}")
    return document


@dataclass
class Verdict:
    """What `verify` found: ok, or the first step that differs and how."""

    ok: bool
    message: str
    step: int | None = None


def verify(document: dict[str, Any]) -> Verdict:
    """Re-play the recorded replies and faults through the rules; compare every output.

    Raises ReplayError when the document cannot be re-played at all (unknown game, a map
    that does not load, ill-formed steps).
    """
    from botarena.games import get_game

    try:
        game = get_game(document["game"])
    except KeyError as exc:
        raise ReplayError(str(exc.args[0])) from None
    if document.get("rules_version") != game.info.rules_version:
        return Verdict(False, f"rules version {document.get('rules_version')!r} differs from"
                              f" this botarena's {game.info.rules_version!r}")
    state = rebuild(game, document)
    if _json(state.header()) != document["header"]:
        return Verdict(False, "the game's header (map, starts) differs from the recorded one", 0)
    if _json(state.frame()) != document.get("initial_frame", {}):
        return Verdict(False, "the initial frame differs", 0)
    for seat_text, (status, detail) in document.get("handshake_faults", {}).items():
        state.fault(int(seat_text), Status(status), detail)
    for number, step in enumerate(document["steps"], start=1):
        if state.is_over():
            return Verdict(False, f"step {number}: the rules ended the game already", number)
        seats = state.to_act()
        recorded = [act["seat"] for act in step["acts"]]
        if seats != recorded:
            return Verdict(False, f"step {number}: the rules ask seats {seats},"
                                  f" the replay answers for {recorded}", number)
        try:
            state.apply(recorded_actions(game, state, step))
        except StepMismatch as exc:
            return Verdict(False, f"step {number}: {exc}", number)
        frame = _json(state.frame())
        if frame != step["frame"]:
            where = _first_difference(step["frame"], frame)
            return Verdict(False, f"step {number}: frame differs at {where}", number)
    if not state.is_over():
        return Verdict(False, "the replay ends before the rules end the game",
                       len(document["steps"]))
    outcome = state.outcome()
    recorded_result = document["result"]
    scores = [player["score"] for player in recorded_result["players"]]
    if outcome.scores != scores:
        return Verdict(False, f"final scores {outcome.scores} differ from recorded {scores}")
    if outcome.end_reason != recorded_result["end_reason"]:
        return Verdict(False, f"end reason {outcome.end_reason!r} differs from recorded"
                              f" {recorded_result['end_reason']!r}")
    return Verdict(True, f"ok: {len(document['steps'])} steps and the result reproduced")


class StepMismatch(Exception):
    """A recorded step the rules no longer accept; the message says which seat and why."""


def rebuild(game: Game, document: dict[str, Any]) -> State:
    """The game's state at its start, from the replay's seed, options, header and seats."""
    try:
        map_data = None
        if game.map_from_header is not None:
            map_data = game.map_from_header(document["header"])
        return game.new_state(document["seed"], dict(document["options"]), map_data,
                              len(document["bots"]))
    except (ValueError, KeyError, TypeError) as exc:
        raise ReplayError(f"cannot rebuild the game: {exc}") from None


def recorded_actions(game: Game, state: State, step: dict[str, Any]) -> dict[int, Any]:
    """One recorded step fed to the rules: its faults and CPU charges go to `state`, and its
    replies (unpacked where the recorder packed them) are parsed against what each seat is
    shown. Returns the actions for `state.apply`; raises StepMismatch when a seat would be
    sent a different text than recorded or a reply no longer parses."""
    protocol = game.protocol
    actions = {}
    for act in step["acts"]:
        seat = act["seat"]
        observation = state.observation(seat)
        if "sent" in act and protocol.encode(observation) != act["sent"]:
            raise StepMismatch(f"seat {seat} was sent a different text")
        if "fault" in act:
            state.fault(seat, Status(act["fault"][0]), act["fault"][1])
            continue
        if "cpu_s" in act:
            state.charge(seat, act["cpu_s"])
        text = (protocol.unpack_reply(act["packed"], observation) if "packed" in act
                else act["reply"])
        try:
            actions[seat] = protocol.parse(text.split("\n"), observation)
        except ProtocolError as exc:
            raise StepMismatch(f"recorded reply of seat {seat} no longer parses ({exc})"
                               ) from None
    return actions


def _json(value: Any) -> Any:
    """`value` as it reads back from JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def _first_difference(recorded: Any, replayed: Any, path: str = "") -> str:
    """A short description of where two JSON values first differ."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in list(recorded) + [k for k in replayed if k not in recorded]:
            if recorded.get(key) != replayed.get(key):
                return _first_difference(recorded.get(key), replayed.get(key), f"{path}.{key}")
    if (isinstance(recorded, list) and isinstance(replayed, list)
            and len(recorded) == len(replayed)):
        for index, (left, right) in enumerate(zip(recorded, replayed, strict=True)):
            if left != right:
                return _first_difference(left, right, f"{path}[{index}]")
    return f"{path or 'frame'}: recorded {recorded!r}, replayed {replayed!r}"
