"""Bulk changes in the desktop program: the plan-and-run window and the words it uses."""
