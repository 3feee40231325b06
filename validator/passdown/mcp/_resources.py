"""What ``passdown mcp`` offers to read: the bound folder's continue checkpoint and
continuation packet, and every packaged JSON Schema (by its ``$id``, never fetched)."""

from __future__ import annotations

from passdown.errors import PassdownError
from passdown.mcp._folder import Folder

CHECKPOINT_URI = "passdown://handoff/checkpoint"
PACKET_URI = "passdown://handoff/packet"
#: The largest file a resource read returns (the loading bound of every artifact).
MAX_BYTES = 10 * 1024 * 1024


class Resource:
    """One readable resource: its ``uri``, ``name``, ``description``, ``mime_type``, and
    ``locate(folder)``, the file it reads."""

    __slots__ = ("uri", "name", "description", "mime_type", "locate")

    def __init__(self, uri, name, description, mime_type, locate):
        self.uri, self.name, self.description = uri, name, description
        self.mime_type, self.locate = mime_type, locate


class ResourceError(PassdownError):
    """A resource that cannot be read: no such URI, no such file (yet), or not text."""

    exit_code = 2
    code = "mcp.not_found"


def _handoff():
    from passdown.authoring import CHECKPOINT_PATH as PATH, PACKET_NAME as TEXT_NAME

    return (
        Resource(CHECKPOINT_URI, "checkpoint", f"The continue checkpoint ({PATH}): the "
                 "source of truth a fresh session resumes from.", "application/json",
                 lambda folder: folder.path(PATH)),
        Resource(PACKET_URI, "packet", f"The continuation packet ({TEXT_NAME}): the bounded "
                 "text a fresh session reads first.", "text/plain",
                 lambda folder: folder.path(TEXT_NAME)),
    )


def _schemas():
    from passdown.engine._schemas import store

    return tuple(Resource(entry.id, f"schema {entry.name}", entry.title or entry.name,
                          "application/schema+json", lambda folder, path=entry.path: str(path))
                 for entry in store().files().values())


def resources() -> tuple[Resource, ...]:
    return _handoff() + _schemas()


def read(folder: Folder, uri: str) -> tuple[Resource, str]:
    """The resource at ``uri`` and its text; :class:`ResourceError` or another refusal."""
    found = next((entry for entry in resources() if entry.uri == uri), None)
    if found is None:
        raise ResourceError(f"no resource {uri}", hint="list the resources for their URIs")
    path = found.locate(folder)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ResourceError(f"{path} does not exist yet", hint="write it first: `passdown init` creates "
                       "the checkpoint, `passdown packet render` the packet") from None
    except OSError as error:
        raise ResourceError(f"cannot read {path}: {error.strerror}",
                       hint="check the file's permissions") from None
    if len(raw) > MAX_BYTES:
        raise ResourceError(f"{path} is larger than {MAX_BYTES} bytes", code="mcp.too_large",
                       hint="a Passdown artifact is far smaller; check the file")
    try:
        return found, raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ResourceError(f"{path} is not UTF-8 text", code="load.encoding",
                       hint="run `passdown validate` on it") from None
