"""Placeholder explorer (replaced by the real one): walks like random."""

from __future__ import annotations

from botarena.games.amazes.bots.random import RandomBot


class ExplorerBot(RandomBot):
    pass


def main() -> None:
    from botarena.core.botmain import run_stdio
    from botarena.games.amazes.protocol import PROTOCOL

    run_stdio(ExplorerBot(), PROTOCOL)


if __name__ == "__main__":
    main()
