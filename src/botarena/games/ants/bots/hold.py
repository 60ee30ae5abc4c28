"""`hold`: gives no orders at all (the 2011 HoldBot); a baseline and a benchmark load."""

from __future__ import annotations

from botarena.games.ants.observation import Observation


class HoldBot:
    def act(self, observation: Observation) -> list:
        return []


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.ants.protocol import AntsProtocol

    run_stdio(HoldBot(), AntsProtocol())


if __name__ == "__main__":
    main()
