"""A contest's statement (`/rules`): everything a contestant needs before writing a line.

The game's rules as its contest gave them and botarena's notes on them (the files RULES.*
and NOTES.md its package ships: a plug-in game brings its own), the options and time limits
as this contest sets them, the seats, the site's own limits, and per language how an upload
is built (compiler or interpreter, its version on this machine, its flags) and run, which
file of an archive is the main one, and the starters.
"""

from __future__ import annotations

import functools
import subprocess
import sys
import threading
from typing import Any

from botarena.arena.store import Contest

RULE_FILES = (("RULES.md", "markdown"), ("RULES.txt", "text"))
NOTES_FILE = "NOTES.md"
STATEMENT_LIMIT = 1 << 20
"""The most of a rules file shown (the built-in games' are 5 to 60 KiB)."""

ARCHIVES = (
    "Upload one source file, or a .zip or .tar.gz of the sources of one language (folders"
    " allowed; a single top folder is stripped).",
    "The main file is the only source of the language; with several, the one at the top"
    " named bot.EXT or main.EXT (Java: Bot.java or Main.java, holding that public class).",
    "Every source of the language is compiled with the main file (Go: those of its folder;"
    " Rust: the main file, which names its modules); headers (.h, .hpp, ...) are read from"
    " the archive. Nothing else is run: a Makefile, build script or binary is ignored,"
    " and an executable or object file is refused.",
    "The build runs in the sandbox without the network; its messages are the build log.",
)


def _text(game: str, name: str) -> str | None:
    from botarena.core.registry import game_file

    found = game_file(game, name)
    if found is None:
        return None
    with found.open("rb") as data:
        return data.read(STATEMENT_LIMIT).decode("utf-8", "replace")


def rule_texts(game: str) -> list[dict[str, str]]:
    """The game's rule text and notes, as its package ships them (none: an empty list)."""
    texts = []
    for name, kind in RULE_FILES:
        text = _text(game, name)
        if text is not None:
            texts.append({"title": "The rules", "format": kind, "text": text})
            break
    notes = _text(game, NOTES_FILE)
    if notes is not None:
        texts.append({"title": "How botarena plays them", "format": "markdown", "text": notes})
    return texts


@functools.cache
def toolchain(tool: str) -> str | None:
    """The first line `tool --version` (or `-version`, or `version` as Go takes it) prints
    here, None without the tool."""
    if not tool:
        return f"Python {sys.version.split()[0]}"
    for flag in ("--version", "-version", "version"):
        try:
            done = subprocess.run(
                [tool, flag], capture_output=True, text=True, timeout=10, check=False
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        said = (done.stdout or done.stderr).strip().splitlines()
        if done.returncode == 0 and said:
            return said[0][:200]
    return None


def languages() -> list[dict[str, Any]]:
    """Every language an upload may be written in: its file endings, how it is built and
    run (the main file `MAIN`), and the toolchain's version on this machine. Made once a
    process, under a lock: the versions come from running each compiler (a JVM's start
    among them, 0.8 s in all), and requests that came together each ran every one of them
    (200 readers' p95 went from 0.3 s to 3 s); `arena_app` makes it as the site starts."""
    with _MAKING:
        return [{**entry, "endings": list(entry["endings"])} for entry in _languages()]


_MAKING = threading.Lock()


@functools.cache
def _languages() -> list[dict[str, Any]]:
    from pathlib import Path

    from botarena.tournament.build import LANGUAGES

    by_name: dict[str, dict[str, Any]] = {}
    for ending, language in LANGUAGES.items():
        entry = by_name.get(language.name)
        if entry is None:
            main = f"MAIN{ending}"
            build = language.compile(Path("BUILD"), main, [main, f"OTHER{ending}"])
            entry = by_name[language.name] = {
                "language": language.name,
                "endings": [],
                "build": " ".join(_shown(part) for part in build),
                "run": " ".join(_shown(part) for part in language.run(Path("BUILD"), main)),
                "toolchain": toolchain(language.tools[0] if language.tools else ""),
            }
        entry["endings"].append(ending)
    return list(by_name.values())


def _shown(part: str) -> str:
    """A command's word as the page shows it: tools by name, not this machine's paths."""
    if part == sys.executable:
        return "python3"
    return part.rsplit("/", 1)[-1] if part.startswith("/") and "BUILD" not in part else part


def _limits_of(clock: Any) -> dict[str, float]:
    """A clock's limits in seconds, the ones it sets only (CPU ones, then the wall caps)."""
    named = {
        "cpu_reply_s": clock.cpu_s,
        "cpu_budget_s": clock.cpu_budget_s,
        "wall_reply_s": clock.reply_s,
        "wall_budget_s": clock.budget_s,
    }
    return {key: round(value, 6) for key, value in named.items() if value is not None}


def time_rules(rules: Any, options: dict[str, Any]) -> list[dict[str, Any]]:
    """How each seat is timed in this contest (its first exchange, then each turn), as the
    referee will time it: with `clock=cpu` the limits are CPU time and the wall caps are
    `core.rules.wall_cap` of them. Seats timed alike are listed together; a game that cannot
    set up a game without a map here gives none."""
    from botarena.core.rules import GameError

    try:
        resolved = rules.info.resolve_options(options)
        seats = rules.info.min_seats
        state = rules.new_state(0, resolved, None, seats)
    except (GameError, ValueError, TypeError, KeyError):
        return []
    cpu = resolved.get("clock") == "cpu"
    found: list[dict[str, Any]] = []
    for seat in range(seats):
        first, turn = state.handshake_clock(seat), state.clock(seat)
        if cpu:
            first, turn = first.in_cpu_time(), turn.in_cpu_time()
        entry = {"first": _limits_of(first), "turn": _limits_of(turn)}
        same = next(
            (
                rule
                for rule in found
                if rule["first"] == entry["first"] and rule["turn"] == entry["turn"]
            ),
            None,
        )
        if same is None:
            found.append({"seats": [seat], **entry})
        else:
            same["seats"].append(seat)
    return found


def statement(contest: Contest, ladder_options: dict[str, Any]) -> dict[str, Any]:
    """The statement's JSON: rules, options, time rules, seats, limits, languages, archives,
    starters."""
    from botarena.core import starters
    from botarena.core.registry import get_game

    rules = get_game(contest.ladder.game)
    info = rules.info
    options = [
        {
            "name": option.name,
            "value": ladder_options.get(option.name, option.default),
            "default": option.default,
            "description": option.description,
        }
        for option in info.options
    ]
    settings = contest.settings
    return {
        "game": info.name,
        "title": info.title,
        "seats": [info.min_seats, info.max_seats],
        "rules": rule_texts(info.name),
        "options": options,
        "time": time_rules(rules, ladder_options),
        "limits": {
            key: settings.get(key)
            for key in (
                "max_source_bytes",
                "uploads_per_hour",
                "max_bots_per_user",
                "challenges_per_hour",
                "compare_games",
            )
        },
        "languages": languages(),
        "archives": list(ARCHIVES),
        "starters": starters.languages(info.name, contest.roles),
    }
