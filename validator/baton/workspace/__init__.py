"""The files and the checkout Baton reads and changes: atomic writes and locks,
documents edited in place, the git readback and the fresh readback an ACK is verified
against.

Private: the public API is :mod:`baton`. Importing this package imports nothing."""
