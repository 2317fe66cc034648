"""The program tour (``--tour DIR``): the runner, the dialogs it opens, and the screenshots
it takes (also used by panels to declare their tour steps).
"""
