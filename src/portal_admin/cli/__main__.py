"""``python -m portal_admin.cli``."""

import sys

from .main import main

sys.exit(main())
