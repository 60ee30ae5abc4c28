"""Built-in Falldown bots; each also runs as a process:
`python -m botarena.games.falldown.bots.NAME`."""
