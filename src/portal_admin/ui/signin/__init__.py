"""Sign-in: the wizard window, its flow controller, password dialogs and the demo mailbox.

Widgets here are thin; the logic lives in ``SignInFlow`` / ``PasswordChangeFlow`` /
``MailboxController``, whose plain async methods tests await directly.
"""
