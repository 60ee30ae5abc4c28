"""The store's schema migrations, Alembic revisions: `versions/` holds one file a change.

A release that changes the tables adds a revision here (copy the newest file: `revision`,
`down_revision` naming the one before, `upgrade()` with Alembic's `op`), appends its id to
`REVISIONS` below and writes the live tables (tournament/schema.py, arena/store.py) to match;
tests/test_store_migrations.py checks that the revisions, run from an empty database, make
exactly the live tables. Naming the revisions here lets every command check a store's
revision without importing Alembic (docs/store.md); only `migrate` imports it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

REVISIONS = ("0001", "0002", "0003", "0004", "0005")
"""Every revision, oldest first; the last is the one this botarena's code reads and writes."""
HEAD = REVISIONS[-1]
FOLDER = Path(__file__).parent


def migrate(conn: Connection) -> None:
    """Run every revision the store lacks, up to `HEAD`, in `conn`'s transaction:
    from an empty database (a new store), from a store of hand-kept schema version 1 (the
    baseline makes only the tables it lacks), or from an older revision."""
    from alembic.config import Config
    from alembic.runtime.environment import EnvironmentContext
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(FOLDER))
    script = ScriptDirectory.from_config(config)

    def steps(revision: str, _context: object) -> object:
        return script._upgrade_revs(HEAD, revision)

    with EnvironmentContext(config, script, fn=steps, destination_rev=HEAD) as env:
        env.configure(connection=conn, render_as_batch=True)
        env.run_migrations()
