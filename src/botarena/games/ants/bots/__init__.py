"""Built-in Ants bots; each also runs as a 2011 bot process with `python -m`."""
