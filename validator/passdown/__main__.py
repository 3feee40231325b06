"""``python -m passdown``: the same command as ``passdown``."""

from passdown._entry import run

run()
