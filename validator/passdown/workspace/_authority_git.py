"""The ``git`` ownership authority: a goal's owner lives in the ref
``refs/passdown/<goal>/owner`` on the checkout's remote, as a commit whose message holds the
owner record (owner, epoch, checkpoint digest, restart id, time); each commit's parent is the
record it replaced, so the ref's history is the goal's ownership history.

The ref moves only by ``git push --atomic --force-with-lease=<ref>:<old>``: the remote's own
ref update compares the old value and refuses a push that names another, which is the
compare-and-swap; of two pushes from the same old value exactly one lands. Every git call goes
through the product's git runner (:mod:`passdown.workspace._git`: its own environment, no
hooks, no pager, no configured program, no credential helper), with only the transport to
the remote allowed back: the file, ssh and http(s) transports, plain ``ssh``, and the stock
``git-upload-pack`` and ``git-receive-pack`` whatever ``remote.<url>.uploadpack`` or
``receivepack`` names. git's own ``git://`` protocol is not allowed: it is unauthenticated,
and git starts the proxy program ``core.gitProxy`` names for it, which no override on the
command line can clear (git takes the first value it reads, the repository's).
"""

from __future__ import annotations

import json
import re

from passdown.workspace import _git
from passdown.workspace._authority import (GIT, Authority, AuthorityError, Record, Transition,
                                         decode, lost, unreachable)

#: Set after the runner's own switches (:data:`passdown.workspace._git.SAFE_CONFIG`, which
#: already clear credential helpers, the ssh command and every transport): the transports a
#: remote may use (not ``git://``, see above), plain ``ssh``, no signing program, an identity
#: for the record commits.
_TRANSPORT_CONFIG = ("core.sshCommand=ssh", "protocol.file.allow=always",
                     "protocol.ssh.allow=always", "protocol.https.allow=always",
                     "protocol.http.allow=always",
                     "push.gpgSign=false", "commit.gpgSign=false", "user.name=passdown",
                     "user.email=passdown@localhost")


class _Transport(_git._Reader):
    """The product's git runner with the transport to the remote allowed back."""

    def _prepare(self):
        return [*super()._prepare(), *_TRANSPORT_CONFIG]


#: The programs the remote end runs, named on the command line, which outranks the
#: ``remote.<url>.uploadpack`` and ``receivepack`` a repository may set (over the file
#: transport git starts them here; over ssh the remote shell runs them).
_UPLOAD_PACK = "--upload-pack=git-upload-pack"
_RECEIVE_PACK = "--receive-pack=git-receive-pack"
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
        self._runner = _Transport(workspace)

    # -- the runner ----------------------------------------------------------------------

    def _git(self, *args, input_bytes=None) -> tuple[int, bytes, str]:
        """``(status, stdout, first line of the error)`` of one git call through the runner."""
        try:
            _, out = self._runner.run(*args, input_bytes=input_bytes)
        except _git.GitError as error:
            if error.code == "git.timeout":
                raise unreachable(self.what, error.message) from None
            if error.code in ("git.failed", "git.not_a_repository"):
                return 1, b"", error.message
            raise
        return 0, out, ""

    def url(self) -> str:
        if self._url is None:
            code, out, err = self._git("remote", "get-url", "--push", self.remote)
            if code != 0:
                where = ("is not inside a git checkout" if "not inside a git" in err
                         else f"has no remote {self.remote!r}")
                raise AuthorityError(f"{self.workspace} {where}", code="authority.no_remote",
                                     hint="the git authority keeps ownership on the checkout's "
                                          "remote: add it (`git remote add origin URL`) or "
                                          "name another with --remote")
            self._url = out.decode("utf-8", "replace").strip()
        return self._url

    def _failed(self, step: str, err: str) -> AuthorityError:
        if any(word in err.lower() for word in _UNREACHABLE_WORDS):
            return unreachable(self.what, err)
        return AuthorityError(f"`git {step}` to {self.what} failed: {err}",
                              code="authority.failed",
                              hint="run the same git command by hand to see what is wrong")

    # -- read ----------------------------------------------------------------------------

    def _remote_oid(self) -> str | None:
        code, out, err = self._git("ls-remote", _UPLOAD_PACK, self.url(), self.ref)
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
                code, _, err = self._git("fetch", "--no-tags", "--no-write-fetch-head",
                                         _UPLOAD_PACK, self.url(), self.ref)
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
        code, _, err = self._git("push", "--atomic", "--porcelain", "--no-verify", lease,
                                 _RECEIVE_PACK, self.url(), f"{oid}:{self.ref}")
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
