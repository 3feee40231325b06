"""``python -m passdown``: the same command as ``passdown``.

Passdown's hook commands run this file by its path, as ``PYTHON -S -P .../passdown/__main__.py
hook HOST EVENT`` (spec/hosts.md, HST-207): Python then skips its site set-up, which the hook
that runs before every tool call does not use, and puts no folder on the import path (never the
repository the hook runs in). So the file puts the folder that holds Passdown on the path
itself, and any command but that per-call hook (``hook HOST PreToolUse``) first runs the site
set-up as a normal start would, for the libraries it loads from site-packages.
"""

import sys

if __spec__ is None:  # run by its path, not by ``-m``
    if not sys.flags.safe_path:  # this file's own folder: its modules are not top-level ones
        del sys.path[0]
    sys.path.append(__file__.replace("\\", "/").rsplit("/", 2)[0])
    if sys.flags.no_site and not (sys.argv[1:2] == ["hook"] and sys.argv[3:4] == ["PreToolUse"]):
        import site

        site.main()

from passdown._entry import run

run()
