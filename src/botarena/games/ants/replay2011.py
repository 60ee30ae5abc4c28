"""2011 replays (revision 3 JSON): re-simulate one with botarena's rules and compare, or
write one from a botarena game so the 2011 visualizer and its users' tools keep working."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from botarena.core.rules import GameError
from botarena.games.ants.mapfile import AntsMap
from botarena.games.ants.rules import AntsState, ScriptMismatch


class Map(msgspec.Struct):
    """What re-simulation reads of a 2011 replay (the file has more fields)."""

    rows: int
    cols: int
    data: list[str]


class Data(msgspec.Struct):
    players: int
    loadtime: int
    turntime: int
    turns: int
    viewradius2: int
    attackradius2: int
    spawnradius2: int
    food_rate: int
    food_turn: int
    food_start: int
    map: Map
    food: list[list[int]]  # row, col, start, end[, owner]
    ants: list[tuple[int, int, int, int, int, str]]
    hills: list[tuple[int, int, int, int]]
    engine_seed: int | None = None
    player_seed: int | str = 0


class File(msgspec.Struct):
    replaydata: Data
    status: list[str] = []
    playerturns: list[int] = []


MAP_RENDER = "abcdefghij" + "ABCDEFGHIJ" + "0123456789" + "?%*.!"


def read_2011(path: str | Path) -> dict[str, Any]:
    """A 2011 replay file (gzip or plain JSON); raises GameError with one line naming it."""
    from botarena.core.reader import REPLAY, read_json

    document = read_json(path, REPLAY)
    data = document.get("replaydata") if isinstance(document, dict) else None
    if not isinstance(data, dict) or data.get("revision") != 3:
        raise GameError(f"{path}: not a revision-3 Ants replay (no replaydata revision 3)")
    try:
        _check_2011(document)
    except GameError as exc:
        raise GameError(f"{path}: {exc}") from None
    return document


def _check_2011(document: dict[str, Any]) -> None:
    """The fields re-simulation reads, typed by a schema, and every number that sizes an
    allocation (players, rows, columns, radii, food figures) within the rules' bounds
    before anything is built. Raises GameError naming the field."""
    from botarena.games.ants import INFO
    from botarena.games.ants.mapcheck import MAX_SIDE

    try:
        parsed = msgspec.convert(document, File, strict=True)
    except msgspec.ValidationError as exc:
        reason, _, where = str(exc).partition(" - at `$.")
        raise GameError(f"malformed 2011 replay: {where.rstrip('`')}: {reason}") from None
    data = parsed.replaydata
    if not INFO.min_seats <= data.players <= INFO.max_seats:
        raise GameError(
            f"malformed 2011 replay: players {data.players} is not"
            f" {INFO.min_seats} to {INFO.max_seats}"
        )
    rows, cols = data.map.rows, data.map.cols
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise GameError(f"malformed 2011 replay: map {rows}x{cols} is not 1 to {MAX_SIDE} a side")
    if len(data.map.data) != rows or any(len(line) != cols for line in data.map.data):
        raise GameError(f"malformed 2011 replay: map.data is not {rows} lines of {cols}")
    listed: tuple[tuple[str, Sequence[Sequence[Any]], int | None], ...] = (
        ("hills", data.hills, 2),
        ("ants", data.ants, 4),
        ("food", data.food, None),
    )
    for field, items, owner_at in listed:
        for index, item in enumerate(items):
            if (
                len(item) < 4
                or not (0 <= item[0] < rows and 0 <= item[1] < cols)
                or (owner_at is not None and not 0 <= item[owner_at] < data.players)
            ):
                raise GameError(
                    f"malformed 2011 replay: replaydata.{field}[{index}] is off"
                    " the map or names no player"
                )
    INFO.resolve_options(options_from_replay(document["replaydata"]))


def map_from_replay(data: dict[str, Any], name: str) -> AntsMap:
    """Water from the end-of-game map picture, hills (in engine order) from the hill list."""
    water = frozenset(
        (row, col)
        for row, line in enumerate(data["map"]["data"])
        for col, char in enumerate(line)
        if char == "%"
    )
    hills = [(row, col, owner) for row, col, owner, _ in data["hills"]]
    return AntsMap(data["map"]["rows"], data["map"]["cols"], data["players"], water, hills, name)


def options_from_replay(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "turns": data["turns"],
        "loadtime": data["loadtime"],
        "turntime": data["turntime"],
        "viewradius2": data["viewradius2"],
        "attackradius2": data["attackradius2"],
        "spawnradius2": data["spawnradius2"],
        "player_seed": data.get("player_seed", 0),
        "food_rate": data["food_rate"],
        "food_turn": data["food_turn"],
        "food_start": data["food_start"],
        "food_visible": 0,
        "cutoff_turn": 150,
        "cutoff_percent": 0.85,
        "food": "symmetric",
        "strict": 0,
    }


def resimulate(
    document: dict[str, Any], name: str = "replay", overrides: dict[str, Any] | None = None
) -> AntsState:
    """Play a 2011 replay again with its food, spawn choices, moves and faults as inputs.

    `overrides` sets options the replay does not record (`cutoff_turn`, `cutoff_percent`).
    Raises ScriptMismatch when a recorded input cannot happen under botarena's rules.
    """
    data = document["replaydata"]
    food_script: dict[int, list[tuple[int, int]]] = {}
    for row, col, start, *_ in data["food"]:
        food_script.setdefault(start, []).append((row, col))
    spawn_script: dict[int, set[tuple[int, int]]] = {}
    moves: dict[tuple[int, int, int, int], str] = {}
    for row, col, spawn, _end, owner, path in data["ants"]:
        spawn_script.setdefault(spawn, set()).add((row, col))
        moves[(row, col, spawn, owner)] = path
    options = {**options_from_replay(data), **(overrides or {})}
    state = AntsState(
        int(data.get("engine_seed") or 0),
        options,
        map_from_replay(data, name),
        food_script,
        spawn_script,
    )
    faults: dict[int, list[int]] = {}
    for seat, (status, turn) in enumerate(
        zip(document.get("status", []), document.get("playerturns", []), strict=False)
    ):
        word = status.split()[0]
        if word in ("crashed", "timeout"):
            faults.setdefault(0 if status == "crashed 0" else turn, []).append(seat)
        elif word == "invalid":
            state.invalid_script.setdefault(turn, []).append(seat)
    from botarena.core.rules import Status

    def fault_all(turn: int) -> None:
        for seat in faults.get(turn, []):
            word = document["status"][seat].split()[0]
            state.fault(seat, Status.CRASHED if word == "crashed" else Status.TIMEOUT, word)

    fault_all(0)
    while not state.is_over():
        turn = state.turn + 1
        seats = state.to_act()
        fault_all(turn)
        actions: dict[int, list[str]] = {seat: [] for seat in seats}
        for ant in state.current_ants.values():
            path = moves.get((*ant.initial_loc, ant.spawn_turn, ant.owner), "")
            index = turn - ant.spawn_turn - 1
            if 0 <= index < len(path) and path[index] in "nesw" and ant.owner in actions:
                actions[ant.owner].append(f"o {ant.loc[0]} {ant.loc[1]} {path[index]}")
        state.apply(actions)
    return state


def replay_data(state: AntsState, name: str = "map") -> dict[str, Any]:
    """The 2011 `get_replay()` of a finished game."""
    params = state.params
    end = state.turn + 1
    return {
        "revision": 3,
        "players": state.num_players,
        "loadtime": params.loadtime,
        "turntime": params.turntime,
        "turns": params.turns,
        "viewradius2": params.viewradius2,
        "attackradius2": params.attackradius2,
        "spawnradius2": params.spawnradius2,
        "engine_seed": state.engine_seed,
        "player_seed": params.player_seed,
        "food_rate": state.food_rate,
        "food_turn": state.food_turn,
        "food_start": state.food_start,
        "map": {"rows": state.height, "cols": state.width, "data": map_picture(state)},
        "food": [
            [*food.loc, food.start_turn, end if food.end_turn is None else food.end_turn]
            + ([food.owner] if food.owner is not None else [])
            for food in state.all_food
        ],
        "ants": [
            [
                *ant.initial_loc,
                ant.spawn_turn,
                ant.die_turn if ant.killed else end,
                ant.owner,
                "".join(ant.orders),
            ]
            for ant in state.all_ants
        ],
        "hills": [[*hill.loc, hill.owner, hill.end_turn or end] for hill in state.hills.values()],
        "scores": state.score_history,
        "bonus": state.bonus,
        "hive_history": state.hive_history,
        "winning_turn": state.winning_turn,
        "ranking_turn": state.ranking_turn,
        "cutoff": state.cutoff,
    }


def map_picture(state: AntsState) -> list[str]:
    """The end-of-game map as the 2011 engine draws it (hills without an ant come out 'I')."""
    lines = []
    for row in range(state.height):
        chars = []
        for col in range(state.width):
            square = state.grid[row][col]
            if (row, col) in state.hills:
                square += 10 if (row, col) in state.current_ants else 20
            chars.append(MAP_RENDER[square])
        lines.append("".join(chars))
    return lines


def game_result(state: AntsState, names: list[str]) -> dict[str, Any]:
    """The whole 2011 replay file: result fields around `replaydata`."""
    scores = list(state.score)
    ordered = sorted(scores, reverse=True)
    return {
        "challenge": "ants",
        "location": "botarena",
        "game_id": 0,
        "status": list(state.bot_status),
        "playerturns": list(state.bot_turns),
        "score": scores,
        "rank": [ordered.index(s) for s in scores],
        "replayformat": "json",
        "replaydata": replay_data(state),
        "game_length": state.turn,
        "playernames": names,
    }


def compare(recorded: dict[str, Any], state: AntsState) -> tuple[int, str] | None:
    """The first (earliest-turn) difference between a 2011 replay and a re-simulation."""
    data = recorded["replaydata"]
    ours = replay_data(state)
    found: list[tuple[int, str]] = []
    mine = {(a[0], a[1], a[2], a[4]): a for a in ours["ants"]}
    theirs = {(a[0], a[1], a[2], a[4]): a for a in data["ants"]}
    for key, ant in theirs.items():
        if key not in mine:
            found.append(
                (
                    key[2],
                    f"ant of player {key[3]} spawned at {key[:2]} on turn"
                    f" {key[2]} in the replay, not in the re-simulation",
                )
            )
        elif mine[key][3] != ant[3]:
            found.append(
                (
                    min(mine[key][3], ant[3]),
                    f"ant of player {key[3]} spawned at {key[:2]} on turn {key[2]}"
                    f" ends at turn {ant[3]} in the replay, {mine[key][3]} here",
                )
            )
    for key in mine.keys() - theirs.keys():
        found.append(
            (
                key[2],
                f"ant of player {key[3]} spawns at {key[:2]} on turn {key[2]}"
                " here, not in the replay",
            )
        )
    hills = {(h[0], h[1]): h[3] for h in ours["hills"]}
    for row, col, owner, end in data["hills"]:
        if hills.get((row, col)) != end:
            found.append(
                (
                    min(end, hills.get((row, col), end)),
                    f"hill of player {owner} at {(row, col)} ends at turn {end} in the"
                    f" replay, {hills.get((row, col))} here",
                )
            )
    for series, label in (("scores", "score"), ("hive_history", "hive")):
        for player, (left, right) in enumerate(zip(data[series], ours[series], strict=False)):
            for turn in range(max(len(left), len(right))):
                a = left[turn] if turn < len(left) else None
                b = right[turn] if turn < len(right) else None
                if a != b:
                    found.append(
                        (turn, f"{label} of player {player} at turn {turn}: replay {a}, here {b}")
                    )
                    break
    end = state.turn
    for field_name, theirs_value, ours_value in (
        ("bonus", data["bonus"], ours["bonus"]),
        ("end turn", recorded.get("game_length"), end),
        ("end reason", data["cutoff"], ours["cutoff"]),
        ("final score", recorded.get("score"), list(state.score)),
        ("status", recorded.get("status"), _statuses(recorded, state)),
        ("playerturns", recorded.get("playerturns"), list(state.bot_turns)),
        ("ranking turn", data.get("ranking_turn"), ours["ranking_turn"]),
        ("winning turn", data.get("winning_turn"), ours["winning_turn"]),
    ):
        if theirs_value is not None and theirs_value != ours_value:
            found.append((end, f"{field_name}: replay {theirs_value}, here {ours_value}"))
    return min(found) if found else None


def _statuses(recorded: dict[str, Any], state: AntsState) -> list[str]:
    return [
        theirs if theirs == "crashed 0" else ours
        for theirs, ours in zip(recorded.get("status", []), state.bot_status, strict=False)
    ]


def check_replay(path: str | Path, overrides: dict[str, Any] | None = None) -> tuple[bool, str]:
    """Re-simulate a 2011 replay file and report (ok, message naming the first difference)."""
    document = read_2011(path)
    try:
        state = resimulate(document, str(path), overrides)
    except ScriptMismatch as exc:
        return False, f"{path}: {exc}"
    difference = compare(document, state)
    if difference is None:
        return True, (
            f"{path}: ok, {state.turn} turns, {len(state.all_ants)} ants,"
            f" scores {state.score}, {state.cutoff}"
        )
    turn, message = difference
    return False, f"{path}: first difference at turn {turn}: {message}"


def state_from_botarena(document: dict[str, Any]) -> AntsState:
    """Re-play a botarena Ants replay (its seed, options, map, answers and faults)."""
    from botarena.core.replay import rebuild, recorded_actions
    from botarena.core.rules import Status
    from botarena.games.ants import GAME

    if document.get("game") != "ants":
        raise GameError(f"not an Ants replay (game {document.get('game')!r})")
    state = rebuild(GAME, document)
    assert isinstance(state, AntsState)
    for seat, (status, detail) in document.get("handshake_faults", {}).items():
        state.fault(int(seat), Status(status), detail)
    for step in document["steps"]:
        state.to_act()
        state.apply(recorded_actions(GAME, state, step))
    state.is_over()  # as the referee asks after every step: a game over at turn 0 ends here
    return state


def export_replay(document: dict[str, Any]) -> dict[str, Any]:
    """A botarena Ants replay as the 2011 engine's replay file (revision 3)."""
    state = state_from_botarena(document)
    if not state.is_over():
        raise GameError(
            "the replay ends before the game does; the 2011 format has no"
            " unfinished games (run botarena verify on it)"
        )
    names = [bot["name"] for bot in document["bots"]]
    result = game_result(state, names)
    faults = {player["bot"]: player["status"] for player in document["result"]["players"]}
    for seat, name in enumerate(names):
        if faults.get(name) in ("crashed", "timeout"):
            result["status"][seat] = faults[name]
    return result
