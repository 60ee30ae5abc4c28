"""botarena: jury software for AI bot-programming contests.

>>> import botarena
>>> result = botarena.play("amazes", ["builtin:amazes/random", "builtin:amazes/random"], seed=1)
>>> result.to_dict()["end_reason"]
'turns'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["__version__", "load_replay", "make", "new_state", "play", "verify_replay"]


def __getattr__(name: str) -> Any:
    """`__version__`, read from the installed package's metadata on first use (one home for
    the version: pyproject.toml)."""
    if name != "__version__":
        raise AttributeError(f"module 'botarena' has no attribute {name!r}")
    from botarena.core.entrypoints import own_version

    found = own_version()
    globals()["__version__"] = found
    return found


def play(
    game: str,
    bots: list[Any],
    *,
    seed: int | str | None = None,
    map: str | Path | None = None,
    replay: str | Path | None = None,
    sandbox: Any = True,
    **options: Any,
) -> Any:
    """Play one game and return its `MatchResult` (`.to_dict()` is the `--json` object).

    `bots` are spec strings (`builtin:amazes/explorer`, `./a.out`, `NAME=SPEC`) or objects
    with `act(observation)`. Built-in bots run in-process, so no subprocess is started for
    them. Process bots run in the sandbox (docs/sandbox.md): `sandbox=False` runs them
    without it (trusted bots), a `botarena.core.sandbox.Sandbox` sets its limits, and the
    option `memory` (MiB) overrides its memory limit. Raises
    `botarena.core.rules.GameError` or `botarena.core.spec.BotSpecError` for a bad game,
    option, map or bot.
    """
    return _play(game, bots, seed=seed, map=map, replay=replay, options=options, sandbox=sandbox)


def _play(
    game: str,
    bots: list[Any],
    *,
    seed: int | str | None,
    map: str | Path | None,
    replay: str | Path | None,
    options: dict[str, Any],
    observe: Any = None,
    sandbox: Any = True,
) -> Any:
    """`play`, and `observe(document)` with the replay document as soon as it exists: the
    referee fills it while the game runs (`botarena play --watch` shows it live)."""
    from botarena.core.match import run_match
    from botarena.core.replay import save
    from botarena.core.setup import set_up

    setup = set_up(
        game,
        bots,
        seed=seed,
        options=options,
        map=None if map is None else str(map),
        sandbox=sandbox,
    )
    if replay is not None:  # checked before the game, not after it
        from botarena.core.outputs import output_path

        replay = output_path(replay, "--replay")
    result = run_match(
        setup.game,
        setup.players,
        seed=setup.seed,
        options=setup.options,
        map_data=setup.map_data,
        record=replay is not None or observe is not None,
        replay_path=str(replay) if replay is not None else None,
        observe=observe,
    )
    if replay is not None:
        save(result.document, replay)
    return result


def sandbox_limits(sandbox: Any, options: dict[str, Any]) -> Any:
    """The `Sandbox` for `play`'s `sandbox` argument, with the `memory` option taken out of
    `options` (`botarena.core.setup.sandbox_limits`)."""
    from botarena.core.setup import sandbox_limits as limits

    return limits(sandbox, options)


def check_options(info: Any, options: dict[str, Any]) -> dict[str, Any]:
    """What `play` accepts of `options`, checked up front by commands that play later
    (`botarena.core.setup.check_options`)."""
    from botarena.core.setup import check_options as check

    return check(info, options)


def new_state(
    game: str,
    *,
    seed: int | str = 0,
    map: str | Path | None = None,
    seats: int | None = None,
    **options: Any,
) -> Any:
    """A fresh rules state for research: `to_act()`, `observation()`, `apply()`, `outcome()`."""
    from botarena.core.registry import get_game

    rules = get_game(game)
    map_data = rules.read_map(str(map)) if map is not None else None
    return rules.new_state(
        seed, rules.info.resolve_options(options), map_data, seats or rules.info.min_seats
    )


def make(game: str, *, seed: int | None = None, **options: Any) -> Any:
    """A PettingZoo AEC environment for `game` (see `botarena.env`)."""
    from botarena.env import BotarenaAEC

    return BotarenaAEC(game, seed=seed, **options)


def load_replay(path: str | Path) -> dict[str, Any]:
    """Read a replay file (gzip or plain JSON)."""
    from botarena.core.replay import load

    return load(path)


def verify_replay(path: str | Path) -> Any:
    """Re-play a replay file through the rules; returns a `Verdict` (`.ok`, `.message`)."""
    from botarena.core.replay import load, verify

    return verify(load(path))
