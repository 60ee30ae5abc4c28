"""Builds the C referee when the package is installed (pip install [-e] examples/connect4-c):
gcc compiles referee.c into botarena_connect4c/referee, which the wheel then carries."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PROGRAM = "botarena_connect4c/referee"


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        compiler = shutil.which("gcc") or shutil.which("cc")
        if compiler is None:
            raise RuntimeError("connect4c needs a C compiler (gcc or cc) to build its referee")
        root = Path(self.root)
        subprocess.run(
            [compiler, "-O2", "-Wall", "-o", str(root / PROGRAM), str(root / "referee.c")],
            check=True,
        )
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        build_data["artifacts"].append(PROGRAM)
