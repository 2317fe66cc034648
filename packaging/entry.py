"""PyInstaller entry script: the frozen ``portal-admin``."""

import sys

from portal_admin.ui.main import main

if __name__ == "__main__":
    sys.exit(main())
