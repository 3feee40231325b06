"""The ``git`` ownership authority: a goal's owner lives in the ref
``refs/passdown/<goal>/owner`` on the checkout's remote, as a commit whose message holds the
owner record (owner, epoch, checkpoint digest, restart id, time); each commit's parent is the
record it replaced, so the ref's history is the goal's ownership history.

The ref moves only by ``git push --atomic --force-with-lease=<ref>:<old>``: the remote's own
ref update compares the old value and refuses a push that names another, which is the
compare-and-swap; of two pushes from the same old value exactly one lands. Every git call goes
through the product's git runner (:mod:`passdown.workspace._git`: its own environment, no
hooks, no pager, no configured program) with more switched off for the transport: no
credential helper, only the file, ssh, git and http(s) transports, plain ``ssh``.
"""

from __future__ import annotations

import json
import re

from passdown.workspace import _git
from passdown.workspace._authority import (GIT, Authority, AuthorityError, Record, Transition,
                                         decode, lost, unreachable)

#: Seconds one transport call (ls-remote, fetch, push) may take.
TIMEOUT = 30.0
_TRANSPORT_CONFIG = ("credential.helper=", "core.sshCommand=ssh", "protocol.allow=never",
                     "protocol.file.allow=always", "protocol.ssh.allow=always",
                     "protocol.git.allow=always", "protocol.https.allow=always",
                     "protocol.http.allow=always", "push.gpgSign=false",
                     "commit.gpgSign=false", "user.name=passdown",
                     "user.email=passdown@localhost", "fetch.fsckObjects=false",
                     "transfer.credentialsInUrl=allow")
_GOAL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_OID = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_UNREACHABLE_WORDS = ("could not read from remote", "does not appear to be a git repository",
                      "could not resolve host", "connection refused", "connection timed out",
                      "unable to access", "no such file or directory", "not found",
                      "network is unreachable", "could not connect")
_HEADER = "passdown owner record"


def ref_name(goal_id: str) -> str:
    if not _GOAL.fullmatch(goal_id) or ".." in goal_id or goal_id.endswith((".lock", ".")):
        raise AuthorityError(f"the goal id {goal_id!r} cannot name a git ref",
                             code="authority.bad_setting",
                             hint="the git authority needs a goal id of letters, digits, "
                                  "'.', '_' and '-' (no '..', not ending in '.lock')")
    return f"refs/passdown/{goal_id}/owner"


class GitAuthority(Authority):
    name = GIT

    def __init__(self, workspace: str, goal_id: str, *, remote: str = "origin"):
        self.workspace = workspace
        self.goal_id = goal_id
        self.remote = remote
        self.ref = ref_name(goal_id)
        self.settings = {"kind": GIT, "remote": remote}
        self.what = f"ref {self.ref} on the remote {remote!r}"
        self._url = None

    # -- the runner ----------------------------------------------------------------------

    def _git(self, *args, input_bytes=None, timeout=_git.TIMEOUT):
        command = ["git"]
        for override in (*_git._SAFE_CONFIG, *_TRANSPORT_CONFIG):
            command += ["-c", override]
        command += ["-C", self.workspace, *args]
        return _git._run_bounded(command, args[0], self.workspace, input_bytes, timeout)

    def _transport(self, *args):
        try:
            return self._git(*args, timeout=TIMEOUT)
        except _git.GitError as error:
            if error.code == "git.timeout":
                raise unreachable(self.what, error.message) from None
            raise

    def url(self) -> str:
        if self._url is None:
            code, out, err = self._git("remote", "get-url", "--push", "--", self.remote)
            if code != 0:
                text = err.decode("utf-8", "replace").strip()
                if "not a git repository" in text:
                    raise AuthorityError(f"{self.workspace} is not inside a git checkout",
                                         code="authority.no_remote",
                                         hint="the git authority keeps ownership on the "
                                              "checkout's remote: run in the checkout")
                raise AuthorityError(f"the checkout has no remote {self.remote!r}",
                                     code="authority.no_remote",
                                     hint="add the shared remote (`git remote add origin URL`) "
                                          "or name it with --remote")
            self._url = out.decode("utf-8", "replace").strip()
        return self._url

    @staticmethod
    def _first_line(err: bytes) -> str:
        lines = [line.strip() for line in err.decode("utf-8", "replace").splitlines()
                 if line.strip()]
        return lines[0] if lines else "no message"

    def _failed(self, step: str, err: bytes) -> AuthorityError:
        text = err.decode("utf-8", "replace")
        if any(word in text.lower() for word in _UNREACHABLE_WORDS):
            return unreachable(self.what, self._first_line(err))
        return AuthorityError(f"`git {step}` to {self.what} failed: {self._first_line(err)}",
                              code="authority.failed",
                              hint="run the same git command by hand to see what is wrong")

    # -- read ----------------------------------------------------------------------------

    def _remote_oid(self) -> str | None:
        code, out, err = self._transport("ls-remote", "--", self.url(), self.ref)
        if code != 0:
            raise self._failed("ls-remote", err)
        for line in out.splitlines():
            oid, _, name = line.partition(b"\t")
            if name.strip() == self.ref.encode() and _OID.fullmatch(oid):
                return oid.decode()
        return None

    def _message(self, oid: str) -> bytes | None:
        code, out, _ = self._git("cat-file", "commit", oid)
        return out if code == 0 else None

    def read(self) -> Record | None:
        for _ in range(3):
            oid = self._remote_oid()
            if oid is None:
                return None
            body = self._message(oid)
            if body is None:
                code, _, err = self._transport("fetch", "--no-tags", "--no-write-fetch-head",
                                               "--", self.url(), self.ref)
                if code != 0:
                    raise self._failed("fetch", err)
                body = self._message(oid)
            if body is not None:
                return self._parse(oid, body)
        raise unreachable(self.what, "the ref kept moving while it was read")

    def _parse(self, oid: str, commit: bytes) -> Record:
        _, _, message = commit.partition(b"\n\n")
        _, _, payload = message.partition(b"\n\n")
        return decode(payload.strip(), f"{self.what} (commit {oid})", token=oid)

    # -- transition ----------------------------------------------------------------------

    def transition(self, move: Transition, current: Record | None = None) -> Record:
        current = self.read()
        if move.is_mine(current):
            return current
        move.check_source(current, self.what)
        new = move.record()
        oid = self._commit(new, parent=current.token if current else None)
        lease = f"--force-with-lease={self.ref}:{current.token if current else ''}"
        code, _, err = self._transport("push", "--atomic", "--porcelain", "--no-verify", lease,
                                       "--", self.url(), f"{oid}:{self.ref}")
        after = self.read() if code != 0 else None
        if code == 0 or (after is not None and after.token == oid):
            return Record(**{**new.body(), "token": oid})
        if after is not None and (current is None or after.token != current.token):
            raise lost(after, self.what)
        raise self._failed("push", err)

    def _commit(self, record: Record, *, parent: str | None) -> str:
        code, tree, err = self._git("mktree", input_bytes=b"")
        if code != 0:
            raise self._failed("mktree", err)
        message = (f"{_HEADER}: {self.goal_id} owned by {record.owner_id} at epoch "
                   f"{record.fencing_epoch}\n\n"
                   + json.dumps(record.body(), sort_keys=True, indent=1) + "\n").encode()
        args = ["commit-tree", tree.decode().strip()]
        if parent:
            args += ["-p", parent]
        code, out, err = self._git(*args, input_bytes=message)
        if code != 0 or not _OID.fullmatch(out.strip()):
            raise self._failed("commit-tree", err)
        return out.strip().decode()
