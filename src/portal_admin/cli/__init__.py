"""``portal-admin-cli``: the command line, on the engine the desktop program uses. No Qt."""
