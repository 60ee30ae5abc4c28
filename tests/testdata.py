"""Where the test and bench data live inside the repository, and the unpacking of its archives.

Large data sets are kept as `.tar.xz` archives under `tests/data/`; `unpacked` extracts one
once into a cache folder keyed by the archive's content, so tests (at collection time, for
parametrisation) and benches (`bench/`) read plain files without a copy in git.
"""

from __future__ import annotations

import hashlib
import tempfile
from importlib import resources
from pathlib import Path

from botarena.core.maps import unpack_once

DATA = Path(__file__).resolve().parent / "data"
"""The repository's test data; see tests/data/README.md."""

AMAZES_MAZES = Path(str(resources.files("botarena.games.amazes").joinpath("mazes")))
"""The 10 official Amazes mazes, shipped in the package (`--map amazes:maze01`)."""
ANTS_GOLDEN = DATA / "ants" / "golden"


def unpacked(archive: str) -> Path:
    """The folder `tests/data/<archive>` (a .tar.xz) unpacks to, extracted on first use."""
    source = DATA / archive
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    target = Path(tempfile.gettempdir()) / f"botarena-testdata-{source.name}-{digest}"
    unpack_once(source, target)
    return target


def ants_maps() -> Path:
    """The 302 official Ants maps of the 2011 contest, in their original folders: shipped in
    the package (`--map ants:maze_04p_01`) and unpacked from there once."""
    from botarena.games import get_game

    return get_game("ants").maps.path("tutorial1").parents[1]


def falldown_golden() -> Path:
    """The Falldown games recorded with the original JavaChallenge 2015 engine."""
    return unpacked("falldown/golden.tar.xz") / "falldown"
