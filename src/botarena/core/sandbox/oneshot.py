"""One-shot commands (a compiler) run in the sandbox, like `subprocess.run` with captured
and capped output."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from botarena.core.sandbox.confinement import Confinement
from botarena.core.sandbox.limits import DEFAULT, Sandbox
from botarena.core.sandbox.processes import become_subreaper, death_signal_setter


def run(
    argv: list[str],
    *,
    cwd: str,
    writable: tuple[str, ...] | list[str] = (),
    timeout: float | None = None,
    memory_mib: int | None = None,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
    sandbox: Sandbox = DEFAULT,
    output_cap: int | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run a one-shot command (a compiler) in the sandbox, like `subprocess.run` with
    captured output: `cwd` is its working folder (read-only unless in `writable`); of each
    of stdout and stderr at most `output_cap` bytes are kept (the rest is read and dropped).

    Raises `subprocess.TimeoutExpired` after `timeout` seconds (every process of it killed
    first); returns the CompletedProcess otherwise, a signal death as a negative code."""
    settings = replace(sandbox, writable=tuple(writable) or sandbox.writable)
    if memory_mib is not None:
        settings = replace(settings, memory_mib=memory_mib)
    box = Confinement(list(argv), settings, cwd=cwd, env=env)
    become_subreaper()  # bubblewrap's processes left by the kill come to us, to be reaped
    try:
        with box.launching():
            proc = subprocess.Popen(
                box.argv,
                cwd=box.cwd,
                env=box.env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                pass_fds=box.pass_fds,
                preexec_fn=partial(_dying_with_us, death_signal_setter(), box, settings.enabled),
            )
            box.started(proc.pid)
        try:
            out, err = _communicate(proc, input, timeout, output_cap)
        except subprocess.TimeoutExpired:
            box.kill()
            if output_cap is None:
                proc.communicate()
            raise
        finally:
            box.kill()  # nothing it started outlives it
            proc.wait()
            box.reap()
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        code = box.exit_code(proc.returncode)
        return subprocess.CompletedProcess(list(argv), code, out, err)
    finally:
        box.close()


def _dying_with_us(dies: Callable[[], None] | None, box: Confinement, confined: bool) -> None:
    """Between fork and exec of a one-shot command: it dies with this process, even killed
    -9 (bubblewrap's own --die-with-parent comes only after its set-up; a command run
    without bubblewrap has no other tie), then joins its confinement."""
    if dies is not None:
        dies()
    if confined:
        box.preexec()


def _communicate(
    proc: subprocess.Popen[bytes], data: bytes | None, timeout: float | None, cap: int | None
) -> tuple[bytes, bytes]:
    """`proc.communicate(data, timeout)` keeping at most `cap` bytes of each output (None:
    all); raises TimeoutExpired holding what it said so far."""
    if cap is None:
        return proc.communicate(data, timeout=timeout)
    import selectors

    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    with contextlib.suppress(BrokenPipeError):
        if data:
            proc.stdin.write(data)
        proc.stdin.close()
    kept = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    deadline = None if timeout is None else time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        for stream in (proc.stdout, proc.stderr):
            selector.register(stream.fileno(), selectors.EVENT_READ)
        while selector.get_map():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(
                    proc.args,
                    timeout or 0,
                    bytes(kept[proc.stdout.fileno()]),
                    bytes(kept[proc.stderr.fileno()]),
                )
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fd)
                elif len(kept[key.fd]) < cap:
                    kept[key.fd] += chunk[: cap - len(kept[key.fd])]
    proc.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
    return bytes(kept[proc.stdout.fileno()]), bytes(kept[proc.stderr.fileno()])
