"""Starter bots `botarena amazes starter LANG` writes (package data; each file runs alone)."""
