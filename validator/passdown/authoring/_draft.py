"""A draft continue checkpoint written once, valid by construction (spec/hosts.md HST-123):
the file ``passdown checkpoint from-transcript`` makes from a dead session's tail. It is a
plain xBRIEF 0.8 continue checkpoint, refused when it holds something that looks like a
secret, when it would not validate, or when a file already exists at its path."""

from __future__ import annotations

import json

from passdown.authoring import _store
from passdown.errors import RefusedError
from passdown.formats._secrets import describe, find_secrets_in_each


def _texts(value, found):
    if isinstance(value, str):
        found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _texts(item, found)
    elif isinstance(value, list):
        for item in value:
            _texts(item, found)
    return found


def write_draft(path, document: dict) -> None:
    """Write ``document`` as a new checkpoint at ``path``, or refuse, writing nothing."""
    hits = find_secrets_in_each(_texts(document, []))
    if hits:
        raise RefusedError(f"the reconstructed checkpoint would hold {describe(hits[0][1])}",
                           code="authoring.secret",
                           hint="the session's text holds a credential: Passdown never copies "
                                "one; write the checkpoint by hand, recording where access "
                                "comes from, not its value")
    data = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    _store.check_valid(_store.CHECKPOINT, data, str(path))
    _store.create(path, data)
