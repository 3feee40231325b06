"""The validation engine: the packaged schemas and their compiled validators, locating
findings in the text, and the run that turns paths or bytes into a report by calling the
schemas and the rules.

Private: the public API is :mod:`passdown`. Importing this package imports nothing."""
