"""The paged list every panel shows: its model, the list widget (:class:`PagedList`), the
table's actions, CSV export, and saved views (named list states the person keeps).
"""
