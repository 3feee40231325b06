"""The files and the checkout Passdown reads and changes: atomic writes and locks,
documents edited in place, the git readback and the fresh readback an ACK is verified
against.

Private: the public API is :mod:`passdown`. Importing this package imports nothing."""
