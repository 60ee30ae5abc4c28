"""Competitions: schedules, a store that survives kill -9, ratings and standings, the runner."""
