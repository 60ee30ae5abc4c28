"""Starter bots `botarena labyrinth starter LANG` writes (package data; each file runs alone)."""
