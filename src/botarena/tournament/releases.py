"""The botarena release a store names (`store_meta.botarena_version`): recorded as a
tournament is made, moved by `botarena store upgrade`, and the one every worker must be.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from botarena.tournament.ladder import LadderError
from botarena.tournament.store import Store, store_meta


def recorded(conn: Connection) -> str | None:
    """The release the store on `conn` names, or None (no tournament made yet)."""
    return conn.execute(
        sa.select(store_meta.c.value).where(store_meta.c.key == "botarena_version")
    ).scalar()


def store_version(store: Store) -> str | None:
    with store.engine.connect() as conn:
        return recorded(conn)


def stamp_version(store: Store) -> None:
    """Record this botarena's version in a store that has none yet."""
    from botarena import __version__

    if store_version(store) is None:
        with store.transaction() as conn:
            conn.execute(store_meta.insert().values(key="botarena_version", value=__version__))


def release_moved(store: Store) -> str | None:
    """Why this worker may no longer play for `store`: `botarena store upgrade` moved it
    to another release, or to a schema revision this one does not know, while the worker
    ran (docs/store.md); None while the store is this release's."""
    from botarena import __version__
    from botarena.tournament.store import revision_of

    with store.engine.connect() as conn:
        theirs, revision = recorded(conn), revision_of(conn)
    if revision.kind != "current":
        return (
            f"the store was upgraded to schema revision {revision.found} while this worker"
            f" (botarena {__version__}) ran: start the new release's workers"
        )
    if theirs is not None and theirs != __version__:
        return (
            f"the store was upgraded to botarena {theirs} while this worker (botarena"
            f" {__version__}) ran: start the new release's workers"
        )
    return None


def check_version(store: Store, url: str) -> None:
    """LadderError when the store was made by another botarena release than this one."""
    from botarena import __version__

    theirs = store_version(store)
    if theirs is not None and theirs != __version__:
        raise LadderError(
            f"this worker is botarena {__version__}, the store {url} is"
            f" botarena {theirs}: install botarena {theirs}, or move the store to this"
            f" release with `botarena store upgrade --db {url}` (docs/store.md)"
        )
