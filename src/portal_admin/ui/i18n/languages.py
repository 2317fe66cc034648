"""The program's UI languages, by the codes the command line and the kiosk policy use.

This tuple is kept apart from :data:`translators.LANGUAGES` (the same codes with their Qt
locales and files) because the start-up options read it before Qt is imported, so this module
must import no Qt; a test checks that the two agree.
"""

LANGUAGES = ("en", "zh", "zh-Hant", "ja", "vi")
