"""The built-in bots: `builtin:connect4/NAME`, or as processes `python -m
botarena_connect4.bots.NAME`."""
