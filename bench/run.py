"""Runs every benchmark module in bench/ and prints a table (or JSON with --json).

Each `bench/bench_*.py` exposes `run(quick: bool) -> list[dict]`, one dict per figure with
`name`, `value`, `unit` and `goal` (a short text such as ">= 100").
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # testdata: the data the benches read


def as_a_user_runs_it() -> None:
    """Commands the benches time start as a user's do: with the package's bytecode cached
    (an environment that forbids writing it, as some sandboxes and CI images do, would time
    the compiling of every module at each start: 20-30 ms of a `botarena play`)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    import compileall

    import botarena

    compileall.compile_dir(Path(botarena.__file__).parent, quiet=1)


def load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples, same figures")
    parser.add_argument("--json", action="store_true", help="print a JSON list instead")
    parser.add_argument("only", nargs="*", help="run only modules whose name contains these")
    args = parser.parse_args()
    as_a_user_runs_it()
    rows = []
    for path in sorted(HERE.glob("bench_*.py")):
        if args.only and not any(word in path.stem for word in args.only):
            continue
        if not args.json:
            print(f"running {path.stem} ...", file=sys.stderr, flush=True)
        rows += load(path).run(args.quick)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table("benchmark", "value", "unit", "goal")
    for row in rows:
        value = row["value"]
        table.add_row(
            row["name"],
            f"{value:.4g}" if isinstance(value, float) else str(value),
            row["unit"],
            str(row.get("goal", "")),
        )
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
