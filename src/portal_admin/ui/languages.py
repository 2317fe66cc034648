"""The program's UI languages, by the codes the command line and the kiosk policy use."""

LANGUAGES = ("en", "zh", "zh-Hant", "ja", "vi")
