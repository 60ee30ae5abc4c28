"""A PettingZoo AEC adapter over any game's rules, for research in-process.

An observation is a dict: `text`, the exact text a bot program would read, and
`observation`, the same bytes as a zero-padded uint8 array (PettingZoo wants arrays). An
action is the reply text a bot program would write (a gymnasium `Text` space), so an agent
trained here plays the same game as a bot program. Simultaneous games collect one action
per acting agent, then apply them together. An action the protocol rejects is the game's
`invalid` fault, as it would be for a bot program.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from botarena.core.game import DEFAULT_ENV_SPEC, EnvSpec
from botarena.core.rules import ProtocolError, Status

__all__ = ["BotarenaAEC", "EnvSpec"]  # EnvSpec lives in core.game (no numpy import there)


class BotarenaAEC(AECEnv):
    """`botarena.make(game, seed=...)`: one game as a PettingZoo AEC environment.

    Rewards are the change of each seat's score (`State.outcome().scores`) after each step.
    In a simultaneous game they are paid by the step whose action completes the turn; the
    steps that only collect an action pay nothing (PettingZoo accumulates `rewards` after
    every step, so a turn's rewards left in place would be counted again).
    """

    agent_selection: str
    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's class attribute, per instance here)
        "name": "botarena",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        *,
        seed: int | None = None,
        seats: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        from botarena.core.registry import get_game

        super().__init__()
        self.game = get_game(game)
        info = self.game.info
        self.metadata = {**self.metadata, "name": f"botarena_{info.name}"}
        self.seats = seats or info.min_seats
        self.options = info.resolve_options(options)
        self.seed = seed
        self.render_mode = render_mode
        self.possible_agents = [info.seat_name(seat).lower() for seat in range(self.seats)]
        spec = self.game.env_spec or DEFAULT_ENV_SPEC
        self._observation_length = spec.observation_max_length
        self._signs = tuple(info.score_sign(seat) for seat in range(self.seats))
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (spec.observation_max_length,), np.uint8),
                "text": spaces.Text(
                    spec.observation_max_length, min_length=0, charset=spec.observation_charset
                ),
            }
        )
        action_space = spaces.Text(
            spec.action_max_length, min_length=spec.action_min_length, charset=spec.action_charset
        )
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: action_space for agent in self.possible_agents}
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `options` may set the game's own options for it (PettingZoo passes
        any dict here: keys that are no option of the game are ignored)."""
        if seed is not None:
            self.seed = seed
        game_seed = self.seed if self.seed is not None else 0
        known = {option.name for option in self.game.info.options}
        given = {key: value for key, value in (options or {}).items() if key in known}
        self.state = self.game.new_state(game_seed, {**self.options, **given}, None, self.seats)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._scores = list(self.state.outcome().scores)
        self._pending: dict[int, Any] = {}
        self._advance()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        text = self.game.protocol.encode(self.state.observation(seat))
        array = np.zeros(self._observation_length, np.uint8)
        data = text.encode()[: self._observation_length]
        array[: len(data)] = np.frombuffer(data, np.uint8)
        return {"observation": array, "text": text}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0
        text = action if isinstance(action, str) else str(action)
        try:
            self._pending[seat] = self.game.protocol.parse(
                text.split("\n"), self.state.observation(seat)
            )
        except ProtocolError as exc:
            self.state.fault(seat, Status.INVALID, str(exc))
            self.infos[agent] = {"fault": str(exc)}
        waiting = [s for s in self.state.to_act() if s not in self._pending and s != seat]
        if waiting:  # nothing applied yet: this step pays nobody (the last turn's are paid)
            self._clear_rewards()
            self.agent_selection = self.possible_agents[waiting[0]]
            return
        actions, self._pending = self._pending, {}
        self.state.apply(actions)
        self._advance()

    def _advance(self) -> None:
        """Let the rules play the steps that need nobody, then settle rewards and endings."""
        while not self.state.is_over() and not self.state.to_act():
            self.state.apply({})
        scores = list(self.state.outcome().scores)
        for seat, agent in enumerate(self.possible_agents):
            if agent in self.rewards:
                change = scores[seat] - self._scores[seat]
                self.rewards[agent] = self._signs[seat] * change
        self._scores = scores
        self._accumulate_rewards()
        if self.state.is_over():
            for agent in self.agents:
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.to_act()[0]]

    def render(self) -> str:
        return str(self.state.frame())

    def close(self) -> None:
        self.state = None
