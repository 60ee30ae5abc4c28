"""The limits of one sandbox: memory, processes, open files, file size, /tmp, writable folders."""

from __future__ import annotations

from dataclasses import dataclass, replace

from botarena.core.rules import MEMORY_OPTION


@dataclass(frozen=True)
class Sandbox:
    """The limits for one bot (or one build command). `enabled=False`: none at all."""

    enabled: bool = True
    memory_mib: int = MEMORY_OPTION.default
    processes: int = 64
    """Processes and threads of the bot together."""
    open_files: int = 256
    file_size_mib: int = 64
    tmp_mib: int = 64
    writable: tuple[str, ...] = ()
    """Folders the bot may write to (bound read-write); everything else it sees is read-only."""

    def with_options(self, options: dict[str, object]) -> Sandbox:
        """This sandbox with `memory` (MiB) taken out of a game's `-o` options, if given."""
        if "memory" not in options:
            return self
        return replace(self, memory_mib=read_memory(options.pop("memory")))


DEFAULT = Sandbox()
NONE = Sandbox(enabled=False)


def read_memory(value: object) -> int:
    """The `memory` option in MiB (16 or more); raises ValueError naming the option."""
    try:
        mib = int(str(value))
    except ValueError:
        raise ValueError(f"option memory: {value!r} is not a whole number of MiB") from None
    assert MEMORY_OPTION.minimum is not None
    if mib < MEMORY_OPTION.minimum:
        raise ValueError(f"option memory: {mib} MiB is below the minimum {MEMORY_OPTION.minimum}")
    return mib
