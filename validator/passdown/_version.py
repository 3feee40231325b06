"""The package version, read by the build backend and by ``passdown --version``."""

__version__ = "0.1.0"
