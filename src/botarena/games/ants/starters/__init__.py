"""Starter bots `botarena ants starter LANG` writes (package data; each file runs alone)."""
