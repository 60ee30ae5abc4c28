"""The store's schema migrations, Alembic revisions: `versions/` holds one file a change.

A release that changes the tables adds a revision here (copy the newest file: `revision`,
`down_revision` naming the one before, `upgrade()` with Alembic's `op`), appends its id to
`REVISIONS` below and writes the live tables (tournament/schema.py, arena/store.py) to match;
tests/test_store_migrations.py checks that the revisions, run from an empty database, make
exactly the live tables. Naming the revisions here lets every command check a store's
revision without importing Alembic (docs/store.md).
"""

from __future__ import annotations

from pathlib import Path

REVISIONS = ("0001",)
"""Every revision, oldest first; the last is the one this botarena's code reads and writes."""
HEAD = REVISIONS[-1]
FOLDER = Path(__file__).parent
