"""The bubblewrap command line, written from a plan with nothing looked up: exact argv."""

from __future__ import annotations

from dataclasses import replace

from botarena.core.sandbox import BOT_GID, BOT_UID, BwrapPlan, bwrap_argv

PLAN = BwrapPlan(
    bwrap="/usr/bin/bwrap",
    namespaces=("--unshare-pid", "--unshare-net"),
    as_root=False,
    info_fd=6,
    seccomp_fd=None,
    system=(("--ro-bind", "/usr", "/usr"), ("--symlink", "usr/bin", "/bin")),
    etc_binds=("--dir", "/etc", "--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"),
    etc_data=((8, "/etc/passwd"),),
    tmp_bytes=64 << 20,
    parents=("--perms", "0755", "--dir", "/home"),
    binds=(
        ("--ro-bind", "/home/me/bot", ("--tmpfs", "/home/me/bot/replays")),
        ("--bind", "/home/me/out", ()),
    ),
    workdir="/home/me/bot",
    argv=("./bot", "--fast"),
)


def test_a_plan_s_command_line_in_order() -> None:
    assert bwrap_argv(PLAN) == [
        "/usr/bin/bwrap",
        "--unshare-pid",
        "--unshare-net",
        "--die-with-parent",
        "--cap-drop",
        "ALL",
        "--new-session",
        "--info-fd",
        "6",
        "--ro-bind",
        "/usr",
        "/usr",
        "--symlink",
        "usr/bin",
        "/bin",
        "--dir",
        "/etc",
        "--ro-bind",
        "/etc/ld.so.cache",
        "/etc/ld.so.cache",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(64 << 20),
        "--perms",
        "1777",
        "--tmpfs",
        "/tmp",
        "--perms",
        "0644",
        "--ro-bind-data",
        "8",
        "/etc/passwd",
        "--perms",
        "0755",
        "--dir",
        "/home",
        "--ro-bind",
        "/home/me/bot",
        "/home/me/bot",
        "--tmpfs",
        "/home/me/bot/replays",
        "--bind",
        "/home/me/out",
        "/home/me/out",
        "--chdir",
        "/home/me/bot",
        "--",
        "./bot",
        "--fast",
    ]


def test_as_root_the_bot_becomes_the_bots_user_with_no_way_back() -> None:
    """Root's sandbox keeps only the two capabilities setpriv needs to drop to BOT_UID,
    and the seccomp filter comes in through its descriptor."""
    argv = bwrap_argv(replace(PLAN, as_root=True, seccomp_fd=7))
    assert argv[7:15] == [
        "--cap-add",
        "CAP_SETUID",
        "--cap-add",
        "CAP_SETGID",
        "--info-fd",
        "6",
        "--seccomp",
        "7",
    ]
    assert argv[argv.index("--") + 1 :] == [
        "setpriv",
        f"--reuid={BOT_UID}",
        f"--regid={BOT_GID}",
        "--clear-groups",
        "--inh-caps=-all",
        "--no-new-privs",
        "--",
        "./bot",
        "--fast",
    ]
