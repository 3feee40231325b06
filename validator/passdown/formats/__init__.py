"""How Passdown's artifacts are written down: the one safe way files are opened and read
(``_files``), safe loading of bytes to data, the artifact kinds and how a file is placed in
one (``_detect``), the packet grammar, canonical bytes and digests, timestamps, the session
title's form, secret shapes, the handoff record's shape and the ACK check. Pure functions over
bytes and values, and reading; no file is changed here.

Private: the public API is :mod:`passdown`. Importing this package imports nothing."""
