"""The terminal output of every command: rich's Console, printing text as it is given.

Bot names, file paths, seeds and the authors a scraper reads are the users' own text and may
hold brackets, which rich's markup takes for styles and drops (`--replay x[bold]y.gz` was
reported as `xy.gz`), or colons, which its emoji codes read (`hold:smile:x.py` was listed
as `hold😄x`); its highlighter would also recolour numbers and paths in them. A command
styles its own words with `rich.text.Text` or an explicit `markup=True` on text it escapes.
"""

from __future__ import annotations

from typing import Any


def literal_console(stderr: bool = False) -> Any:
    """A rich Console without markup, emoji codes or highlighting (rich is imported here:
    20 ms that a command printing no table does not pay)."""
    from rich.console import Console

    return Console(stderr=stderr, markup=False, emoji=False, highlight=False)
