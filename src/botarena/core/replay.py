"""Replays: one versioned JSON document per game (gzip on disk), and `verify`.

A replay holds the inputs that reproduce the game (seed, options, the map in the header,
every reply and every fault) and what came out of it (what each bot was sent, a frame per
step, the result). `verify` re-plays the inputs through the rules and compares the outputs.
"""

from __future__ import annotations

import gc
import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from botarena.core.entrypoints import own_version
from botarena.core.rules import GameError, ProtocolError, State, Status
from botarena.core.rules import ReplayError as ReplayError  # where readers of replays find it

if TYPE_CHECKING:
    from botarena.core.game import Game
    from botarena.core.player import Reply

SCHEMA_VERSION = 1

FREEZE_EVERY_STEPS = 1000
"""How often the recorder hides what the process holds from the cyclic garbage collector.

A long game's replay is hundreds of thousands of containers that live until its end, and
each full collection walks them all: three collections took 135 ms of a 19 000-step game
between two process bots. Every FREEZE_EVERY_STEPS steps the recorder moves every object
alive to the collector's permanent generation (`gc.freeze`, constant time); the match gives
them back (`gc.unfreeze`) as the game ends. Reference counting frees them as always; only a
cycle that becomes garbage meanwhile waits for the game's end to be collected."""


class ReplayRecorder:
    """Collects a game's exchanges into the replay document as the referee plays it."""

    def __init__(
        self,
        game: Game,
        seed: int | str,
        options: dict[str, Any],
        state: State,
        bots: list[tuple[str, str]],
        from_seed: bool = True,
    ) -> None:
        """`from_seed`: the rules drew the map from the seed (no map was given)."""
        self.game = game
        self.document: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "botarena_version": own_version(),
            "game": game.name,
            "rules_version": game.info.rules_version,
            "seed": seed,
            "options": options,
            "header": _header(state, options, from_seed),
            "bots": [
                {"seat": seat, "name": name, "spec": spec} for seat, (name, spec) in enumerate(bots)
            ],
            "initial_frame": state.frame(),
            "handshake_faults": {},
            "steps": [],
        }

    def handshake(self, faults: dict[int, Reply], waits: dict[int, float]) -> None:
        self.document["handshake_faults"] = {
            str(seat): [reply.fault.value if reply.fault else "invalid", reply.detail]
            for seat, reply in faults.items()
        }
        self.document["handshake_ms"] = {
            str(seat): round(wall_s * 1000, 1) for seat, wall_s in waits.items()
        }

    def step(
        self,
        seats: list[int],
        observations: dict[int, Any],
        texts: dict[int, str],
        replies: dict[int, Reply],
        frame: dict[str, Any],
    ) -> None:
        acts = []
        protocol = self.game.protocol
        for seat in seats:
            reply = replies[seat]
            act: dict[str, Any] = {"seat": seat}
            packed = protocol.pack_reply(reply.text, observations[seat])
            if (
                packed is not None
                and protocol.unpack_reply(packed, observations[seat]) == reply.text
            ):
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
        steps = self.document["steps"]
        steps.append({"acts": acts, "frame": frame})
        if len(steps) % FREEZE_EVERY_STEPS == 0:
            gc.freeze()

    def finish(self, result: dict[str, Any], stderr: list[str]) -> dict[str, Any]:
        # the result as `play --json` gives it, less where the replay was written: a file
        # cannot attest its own path, and `verify` checks every other field
        self.document["result"] = {key: value for key, value in result.items() if key != "replay"}
        self.document["stderr"] = stderr
        return self.document


def save(document: dict[str, Any], path: str | Path) -> None:
    """Write `document` as JSON, gzip-compressed when the name ends in `.gz`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(document, separators=(",", ":"), allow_nan=False).encode()
    if path.suffix == ".gz":
        data = gzip.compress(data, compresslevel=6, mtime=0)
    path.write_bytes(data)


def load(path: str | Path) -> dict[str, Any]:
    """Read a replay (gzip or plain JSON) within the reader's limits and check its shape;
    raises ReplayError with one line naming the file and, when malformed, the field."""
    from botarena.core.reader import REPLAY, ReadError, read_json

    try:
        document = read_json(path, REPLAY)
    except ReadError as exc:
        raise ReplayError(str(exc)) from None
    return check_document(document, str(path))


def check_document(document: Any, path: str) -> dict[str, Any]:
    """`document` if it is a replay of the schema this botarena reads, well shaped; raises
    ReplayError naming `path` and the field."""
    from botarena.core.replaydoc import check_shape

    if not isinstance(document, dict) or "schema_version" not in document:
        raise ReplayError(f"{path}: not a botarena replay (no schema_version)")
    version = document["schema_version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise ReplayError(
            f"{path}: malformed replay: schema_version {version!r} is not a whole number"
        )
    if version != SCHEMA_VERSION:
        raise ReplayError(
            f"{path}: replay schema_version {version!r} is not supported"
            f" (this botarena reads schema_version {SCHEMA_VERSION})"
        )
    try:
        check_shape(document)
    except ReplayError as exc:
        raise ReplayError(f"{path}: {exc}") from None
    return document


@dataclass
class Verdict:
    """What `verify` found: ok, or the first step that differs and how."""

    ok: bool
    message: str
    step: int | None = None


def verify(document: dict[str, Any]) -> Verdict:
    """Re-play the recorded replies and faults through the rules; compare every output:
    the header, every frame and the whole result.

    Raises ReplayError when the document cannot be re-played at all (unknown game, a seed,
    option or map the rules refuse, ill-formed steps); `load` has checked its shape.
    """
    from botarena.core.registry import get_game

    try:
        game = get_game(document["game"])
    except KeyError as exc:
        raise ReplayError(str(exc.args[0])) from None
    if document.get("rules_version") != game.info.rules_version:
        return Verdict(
            False,
            f"rules version {document.get('rules_version')!r} differs from"
            f" this botarena's {game.info.rules_version!r}",
        )
    try:
        return _replay_steps(game, document)
    except RecursionError:
        raise ReplayError("a frame is nested too deep to compare") from None


def _replay_steps(game: Game, document: dict[str, Any]) -> Verdict:
    state = rebuild(game, document)
    from_seed = _drawn_from_seed(document)
    if _canonical(_header(state, document["options"], from_seed)) != _canonical(document["header"]):
        if from_seed:
            return Verdict(
                False,
                f"the game the rules draw from seed {document['seed']!r} (map, starts) differs"
                " from the recorded one: the seed or the header was edited",
                0,
            )
        return Verdict(False, "the game's header (map, starts) differs from the recorded one", 0)
    if _canonical(state.frame()) != _canonical(document["initial_frame"]):
        return Verdict(False, "the initial frame differs", 0)
    for seat_text, (status, detail) in document.get("handshake_faults", {}).items():
        state.fault(int(seat_text), Status(status), detail)
    for number, step in enumerate(document["steps"], start=1):
        if state.is_over():
            return Verdict(False, f"step {number}: the rules ended the game already", number)
        seats = state.to_act()
        recorded = [act["seat"] for act in step["acts"]]
        if seats != recorded:
            return Verdict(
                False,
                f"step {number}: the rules ask seats {seats}, the replay answers for {recorded}",
                number,
            )
        try:
            state.apply(recorded_actions(game, state, step))
        except StepMismatch as exc:
            return Verdict(False, f"step {number}: {exc}", number)
        frame = state.frame()
        if _canonical(frame) != _canonical(step["frame"]):
            where = _first_difference(step["frame"], _json(frame))
            return Verdict(False, f"step {number}: frame differs at {where}", number)
    if not state.is_over():
        return Verdict(
            False, "the replay ends before the rules end the game", len(document["steps"])
        )
    difference = _result_difference(document, expected_result(document, state))
    if difference:
        return Verdict(False, f"result: {difference}")
    return Verdict(True, f"ok: {len(document['steps'])} steps and the result reproduced")


def expected_result(document: dict[str, Any], state: State) -> dict[str, Any]:
    """The result `play` reports for the game the replay records, from the finished
    `state` and the recorded faults and times (the `replay` path left out)."""
    from botarena.core.result import PlayerResult

    outcome = state.outcome()
    seats = len(document["bots"])
    faults: list[list[str]] = [[] for _ in range(seats)]
    waited = [0.0] * seats
    for seat_text, (status, _detail) in document["handshake_faults"].items():
        faults[int(seat_text)].append(status)
    for seat_text, ms in document.get("handshake_ms", {}).items():
        waited[int(seat_text)] += ms
    for step in document["steps"]:
        for act in step["acts"]:
            waited[act["seat"]] += act["ms"]
            if "fault" in act:
                faults[act["seat"]].append(act["fault"][0])
    players = [
        PlayerResult(
            bot=document["bots"][seat]["name"],
            score=outcome.scores[seat],
            rank=outcome.ranks[seat],
            status=outcome.statuses[seat] or (faults[seat][0] if faults[seat] else Status.OK.value),
            time_ms=waited[seat],
            faults=len(faults[seat]) + outcome.faults[seat],
        ).to_dict()
        for seat in range(seats)
    ]
    return {
        "game": document["game"],
        "seed": document["seed"],
        "turns": state.step_count,
        "end_reason": outcome.end_reason,
        "players": players,
    }


def _result_difference(document: dict[str, Any], expected: dict[str, Any]) -> str:
    """Where the recorded result differs from `expected`, or "" when it does not. A seat's
    `time_ms` is the sum of its recorded per-reply times, as the referee adds them."""
    recorded = document["result"]
    for seat, (mine, theirs) in enumerate(
        zip(expected["players"], recorded["players"], strict=True)
    ):
        for key, value in mine.items():
            if _typed(value) != _typed(theirs[key]):
                return f"players[{seat}].{key}: recorded {theirs[key]!r}, replayed {value!r}"
    for key, value in expected.items():
        if key != "players" and _typed(value) != _typed(recorded[key]):
            return f"{key}: recorded {recorded[key]!r}, replayed {value!r}"
    return ""


def _typed(value: Any) -> tuple[str, Any]:
    """A value with its JSON type, so that 1 (integer score) and 1.0 and True differ."""
    kind = (
        "bool"
        if isinstance(value, bool)
        else "int"
        if isinstance(value, int)
        else ("float" if isinstance(value, float) else type(value).__name__)
    )
    return kind, value


class StepMismatch(Exception):
    """A recorded step the rules no longer accept; the message says which seat and why."""


def rebuild(game: Game, document: dict[str, Any]) -> State:
    """The game's state at its start, from the replay's seed, options, header and seats,
    each checked as `play` checks them: a value `play` would refuse is a ReplayError."""
    info = game.info
    try:
        seed = info.check_seed(document["seed"])
        options = info.resolve_options(document["options"])
    except GameError as exc:
        raise ReplayError(f"cannot rebuild the game: {exc}") from None
    if _json(options) != document["options"]:
        missing = sorted(set(options) - set(document["options"]))
        field = (
            f"option {missing[0]} is missing"
            if missing
            else next(
                f"option {name} is recorded as {value!r}, which play records as"
                f" {_json(options[name])!r}"
                for name, value in document["options"].items()
                if _typed(_json(options[name])) != _typed(value)
            )
        )
        raise ReplayError(f"cannot rebuild the game: {field}")
    seats = len(document["bots"])
    if not info.min_seats <= seats <= info.max_seats:
        raise ReplayError(
            f"cannot rebuild the game: {seats} bots; {info.name} seats"
            f" {info.min_seats} to {info.max_seats}"
        )
    try:
        map_data = None
        if game.map_from_header is not None and not _drawn_from_seed(document):
            map_data = game.map_from_header(document["header"])
        return game.new_state(seed, options, map_data, seats)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ReplayError(f"cannot rebuild the game: {_plain(exc)}") from None


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
        try:
            text = (
                protocol.unpack_reply(act["packed"], observation)
                if "packed" in act
                else act["reply"]
            )
        except (ValueError, IndexError, KeyError, TypeError):
            raise ReplayError(
                f"malformed replay: seat {seat}'s packed reply"
                f" {_short(act['packed'])} does not unpack"
            ) from None
        try:
            actions[seat] = protocol.parse(text.split("\n"), observation)
        except ProtocolError as exc:
            raise StepMismatch(f"recorded reply of seat {seat} no longer parses ({exc})") from None
    return actions


def _plain(exc: Exception) -> str:
    """An exception as one line; a bare KeyError says which key is missing."""
    if isinstance(exc, KeyError):
        return f"header has no {exc.args[0]!r}" if exc.args else "a key is missing"
    return str(exc) or exc.__class__.__name__


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _header(state: State, options: dict[str, Any], from_seed: bool) -> dict[str, Any]:
    """The game's header (map, starts) with the options restated: options that only set
    clocks (a whole-game budget, a per-turn time) leave no trace in the frames, so a replay
    states them twice and `verify` catches an edit of either. `map_from` says whether the
    rules drew the map from the seed (`verify` then draws it again: an edited seed shows)
    or were given one (`verify` takes it from the header)."""
    return {
        **state.header(),
        "options": _json(options),
        "map_from": "seed" if from_seed else "given",
    }


def _drawn_from_seed(document: dict[str, Any]) -> bool:
    """Whether the replay's map was drawn from its seed: anything but a stated "given" is
    (a header cannot escape the seed's check by leaving the field out)."""
    return bool(document["header"].get("map_from") != "given")


def _canonical(value: Any) -> str:
    """`value` as sorted JSON text: equal only when the same JSON, so 1, 1.0 and true
    differ as they do in the file."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _json(value: Any) -> Any:
    """`value` as it reads back from JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def _first_difference(recorded: Any, replayed: Any, path: str = "") -> str:
    """A short description of where two JSON values first differ."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in list(recorded) + [k for k in replayed if k not in recorded]:
            if _canonical(recorded.get(key)) != _canonical(replayed.get(key)):
                return _first_difference(recorded.get(key), replayed.get(key), f"{path}.{key}")
    if isinstance(recorded, list) and isinstance(replayed, list) and len(recorded) == len(replayed):
        for index, (left, right) in enumerate(zip(recorded, replayed, strict=True)):
            if _canonical(left) != _canonical(right):
                return _first_difference(left, right, f"{path}[{index}]")
    return f"{path or 'frame'}: recorded {_short(recorded)}, replayed {_short(replayed)}"
