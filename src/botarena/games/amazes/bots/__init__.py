"""Built-in Amazes bots; each runs in-process or as `python -m botarena.games.amazes.bots.NAME`."""
