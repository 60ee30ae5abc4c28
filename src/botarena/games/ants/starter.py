"""The text `botarena ants starter` writes: a minimal 2011-protocol bot, standard library only
(shipped as starters/bot.py, the same file `botarena ants starter python` writes)."""

from importlib import resources

STARTER = resources.files("botarena.games.ants").joinpath("starters", "bot.py").read_text("utf-8")
