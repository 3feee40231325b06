"""Who the host is, as ``passdown.hosts._host`` observes it from ``/proc``: the walk up the parent
chain past the shell that runs hook commands, and the pid, parent, group, session, names,
command line and units read for the guard. A fake ``/proc`` holds the real files' shapes."""

from __future__ import annotations

import os

from passdown.hosts import _host


def _proc(tmp_path, table):
    """``table``: pid -> (name, parent, group, session, argv, cgroup text)."""
    for pid, (name, parent, group, session, argv, cgroup) in table.items():
        folder = tmp_path / str(pid)
        folder.mkdir()
        (folder / "stat").write_text(f"{pid} ({name}) S {parent} {group} {session} 34817 {group} 4194560\n")
        (folder / "cmdline").write_bytes(b"\0".join(a.encode() for a in argv) + b"\0")
        (folder / "cgroup").write_text(cgroup)
    return str(tmp_path)


CGROUP_V2 = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-claude-4242.scope\n"
CGROUP_V1 = "12:pids:/user.slice\n1:name=systemd:/system.slice/dsh.service\n"


def test_the_walk_passes_shells_and_wrappers(tmp_path):
    proc = _proc(tmp_path, {30: ("sh", 20, 30, 9, ["sh", "-c", "x"], ""),
                            20: ("env", 10, 10, 9, ["env"], ""),
                            10: ("claude", 9, 10, 9, ["claude"], "")})
    assert _host.host_pid(30, proc) == 10


def test_a_name_with_spaces_and_parentheses_is_read_whole(tmp_path):
    proc = _proc(tmp_path, {30: ("sh", 20, 1, 1, ["sh"], ""), 20: ("node (main) x", 1, 1, 1, ["node"], "")})
    assert _host.stat(20, proc)[0] == "node (main) x"
    assert _host.host_pid(30, proc) == 20


def test_without_proc_the_start_is_the_host(tmp_path):
    assert _host.host_pid(77, str(tmp_path / "missing")) == 77
    assert _host.observe(77, str(tmp_path / "missing")) == {"host_pid": 77}


def test_a_shell_whose_parent_is_init_is_taken_as_the_host(tmp_path):
    assert _host.host_pid(30, _proc(tmp_path, {30: ("sh", 1, 30, 30, ["sh"], "")})) == 30


def test_everything_the_guard_judges_is_observed(tmp_path):
    proc = _proc(tmp_path, {4242: ("claude", 4100, 4242, 4100,
                                   ["/usr/local/bin/claude", "--model", "opus"], CGROUP_V2)})
    assert _host.observe(4242, proc) == {
        "host_pid": 4242, "host_parent_pid": 4100, "host_pgid": 4242, "host_sid": 4100,
        "host_names": ["claude"], "host_command_lines": ["/usr/local/bin/claude --model opus"],
        "host_units": ["app-claude-4242.scope", "user@1000.service"]}


def test_what_the_session_hangs_on_is_observed_by_name(tmp_path):
    """A host started from a shell in tmux: its session's leader is the shell, whose parent is
    the tmux server (named ``tmux: server``, started as ``/usr/bin/tmux``)."""
    proc = _proc(tmp_path, {4242: ("claude", 4100, 4242, 4100, ["claude"], ""),
                            4100: ("zsh", 3900, 4100, 4100, ["-zsh"], ""),
                            3900: ("tmux: server", 1, 3900, 3900, ["/usr/bin/tmux"], "")})
    assert _host.observe(4242, proc)["host_session_names"] == ["zsh", "tmux: server", "tmux"]


def test_a_host_that_leads_its_own_session_or_whose_leader_is_unseen_hangs_on_nothing(tmp_path):
    proc = _proc(tmp_path, {50: ("node", 1, 50, 50, ["node"], ""),
                            60: ("claude", 1, 60, 4100, ["claude"], "")})
    assert "host_session_names" not in _host.observe(50, proc)
    assert "host_session_names" not in _host.observe(60, proc)  # its leader is outside this /proc


def test_an_interpreter_host_is_known_by_both_names_and_a_v1_cgroup_is_read(tmp_path):
    proc = _proc(tmp_path, {50: ("node", 1, 50, 50, ["node", "/srv/dsh/main.js"], CGROUP_V1)})
    observed = _host.observe(50, proc)
    assert (observed["host_names"], observed["host_command_lines"], observed["host_units"]) == (
        ["node"], ["node /srv/dsh/main.js"], ["dsh.service"])


def test_unreadable_names_and_command_lines_are_left_out(tmp_path):
    proc = _proc(tmp_path, {60: ("x\x01y", 1, 60, 60, ["a\x02"], "0::/\n")})
    assert _host.observe(60, proc) == {"host_pid": 60, "host_parent_pid": 1, "host_pgid": 60, "host_sid": 60}


def test_this_process_is_observed_as_the_system_shows_it():
    if not os.path.isdir("/proc/self"):
        return
    observed = _host.observe(os.getpid())
    # A number the kernel shows as 0 (a session or group led from outside this pid namespace,
    # as in a container) is left out, like every value that names no process here.
    shown = {"host_pid": os.getpid(), "host_parent_pid": os.getppid(), "host_pgid": os.getpgrp(),
             "host_sid": os.getsid(0)}
    expected = {key: value for key, value in shown.items() if value >= 1}
    assert {key: observed[key] for key in shown if key in observed} == expected


def test_a_group_and_session_led_from_outside_the_namespace_are_left_out(tmp_path):
    # In a container the kernel shows 0 for a session or group whose leader it cannot name.
    proc = _proc(tmp_path, {70: ("claude", 0, 0, 0, ["claude"], "")})
    assert _host.observe(70, proc) == {"host_pid": 70, "host_names": ["claude"],
                                       "host_command_lines": ["claude"]}
