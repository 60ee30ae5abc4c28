"""The base of errors that are the user's to fix (a damaged store, an unreachable cluster):
the command line answers each in one line, exit 2, wherever it is raised.

Raised below the command line (the store, the cluster), they need no `try` in each command:
`botarena.cli.main` catches them at its one boundary.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem of the user's input, files or environment; the message says what to do."""
