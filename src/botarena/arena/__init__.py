"""The contest site: contestants register, upload bots and follow them on a ladder."""
