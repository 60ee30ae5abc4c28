"""Starter bots `botarena falldown starter LANG` writes (package data; each file runs alone)."""
