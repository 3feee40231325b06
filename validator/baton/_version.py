"""The package version, read by the build backend and by ``baton --version``."""

__version__ = "0.1.0"
