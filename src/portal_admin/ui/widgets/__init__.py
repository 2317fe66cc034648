"""Small widgets and dialogs the rooms share: the environment banner, the confirmation boxes,
the error dialog and the modal-dialog helper.

They know nothing of the application beyond a profile's environment and an error's
description (``profiles.store``, ``error_info``).
"""
