"""Passdown: hand an agent's work from one session to a fresh one without losing work,
authority or evidence.

The public API is small and loads lazily, so that ``import passdown`` (and the ``passdown``
command's gate path) stays cheap enough for hooks that run on every turn:

- :func:`validate_paths` / :func:`validate_bytes`: schema and semantic checks, as a
  :class:`Report` of findings;
- :class:`Finding`: one finding, frozen data with a stable code;
- :func:`run_gate` / :func:`gate_names`: the decision gates, on a parsed value or on the raw
  input bytes (read exactly as ``passdown gate NAME`` reads them);
- :func:`digest_file` / :func:`digest_bytes`: artifact digests;
- :class:`PassdownError`: the base of every error raised on purpose; its kinds, each with a
  stable code and exit status, are in :mod:`passdown.errors`.
"""

_LAZY = {
    "__version__": ("passdown._version", "__version__"),  # lazy: hooks start without it
    "Finding": ("passdown._findings", "Finding"),
    "validate_paths": ("passdown.engine._validate", "validate_paths"),
    "validate_bytes": ("passdown.engine._validate", "validate_bytes"),
    "Report": ("passdown.engine._validate", "Report"),
    "run_gate": ("passdown.gates", "run_gate"),
    "gate_names": ("passdown.gates", "gate_names"),
    "digest_file": ("passdown.formats._digest", "digest_file"),
    "digest_bytes": ("passdown.formats._digest", "digest_bytes"),
    "PassdownError": ("passdown.errors", "PassdownError"),
}

__all__ = [*_LAZY]


def __getattr__(name):
    # The same reading as passdown._lazy.attributes, written out here because every command
    # imports this package first: importing that module too would cost every hook call.
    try:
        module_name, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    import importlib

    return getattr(importlib.import_module(module_name), attribute)
