"""PyInstaller entry script: the frozen ``portal-admin``, and ``portal-admin-cli`` when started
by that name (the .deb links /usr/bin/portal-admin-cli to the same program)."""

import sys
from pathlib import Path

if __name__ == "__main__":
    if Path(sys.argv[0]).name.lower().startswith("portal-admin-cli"):
        from portal_admin.cli.main import main
    else:
        from portal_admin.ui.main import main
    sys.exit(main())
