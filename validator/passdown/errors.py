"""The errors the library raises: frozen data with a stable code, a message, a fix hint and
the exit status the CLI maps them to (click's convention: the class carries it)."""

from __future__ import annotations

__all__ = ["PassdownError", "UsageError", "UnreadableInput", "ConflictError", "LockTimeout",
           "RefusedError", "DigestError"]


class PassdownError(Exception):
    """Base of every error Passdown raises on purpose."""

    exit_code = 2
    code = "error"

    def __init__(self, message: str, *, code: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.hint = hint

    def __setattr__(self, name, value):
        if name in self.__dict__:
            raise AttributeError(f"{type(self).__name__} is frozen")
        super().__setattr__(name, value)

    def __eq__(self, other):
        return type(self) is type(other) and (self.code, self.message, self.hint) == (
            other.code,
            other.message,
            other.hint,
        )

    def __hash__(self):
        return hash((type(self), self.code, self.message, self.hint))

    def to_dict(self) -> dict:
        found = {"code": self.code, "message": self.message, "hint": self.hint}
        if "problems" in self.__dict__:  # a refusal listing several problems (migrate)
            found["problems"] = self.__dict__["problems"]
        return found


class UsageError(PassdownError):
    """The call itself is wrong: options, arguments, or an input that cannot be placed."""

    exit_code = 2
    code = "usage"


class UnreadableInput(PassdownError):
    """An input could not be read or parsed at all."""

    exit_code = 2
    code = "unreadable"


class ConflictError(PassdownError):
    """A compare-and-swap lost: the revision moved since the caller read it. Nothing changed."""

    exit_code = 1
    code = "conflict"


class LockTimeout(PassdownError):
    """Another writer held the file's lock for longer than the timeout. Nothing changed."""

    exit_code = 1
    code = "lock_timeout"


class RefusedError(PassdownError):
    """The requested change is not allowed by the artifact's state. Nothing changed."""

    exit_code = 1
    code = "refused"


class DigestError(PassdownError):
    """A digest could not be computed or a digest string is not usable (``passdown digest``,
    :func:`passdown.digest_file`); ``code`` is the ``digest.*`` or ``load.*`` refusal, ``path``
    the JSON path of the offending value where there is one (``$.a[0]``)."""

    exit_code = 2
    code = "digest.error"

    def __init__(self, message, *, code=None, hint=None, path=None):
        super().__init__(message, code=code, hint=hint)
        self.path = path

    def to_dict(self):
        out = super().to_dict()
        if self.path is not None:
            out["path"] = self.path
        return out
