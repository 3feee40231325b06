"""``python -m baton``: the same command as ``baton``."""

import sys

from baton._entry import main

sys.exit(main())
