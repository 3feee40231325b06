"""``python -m passdown``: the same command as ``passdown``."""

import sys

from passdown._entry import main

sys.exit(main())
