"""How Baton's artifacts are written down: safe loading of bytes to data, the packet
grammar, canonical bytes and digests, timestamps, secret shapes, the handoff record's
shape and the ACK check. Pure functions over bytes and values; no file is changed here.

Private: the public API is :mod:`baton`. Importing this package imports nothing."""
