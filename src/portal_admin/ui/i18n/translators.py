"""Languages: the UI language maps to a QLocale, the program's .qm, Qt's own translations and
the server's Accept-Language; switching at run time makes every window retranslate itself
(each handles ``QEvent.LanguageChange`` by calling its ``retranslateUi``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QObject, QTranslator, Signal

log = logging.getLogger(__name__)

#: The compiled translations (.qm) lie beside this module.
I18N_DIR = Path(__file__).parent
DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class Language:
    """One UI language: its code (as on the command line), Qt locale name and header value."""

    code: str
    locale_name: str
    accept_language: str
    native_name: str
    #: How the translation files are named: translations/portal_admin_<suffix>.ts
    file_suffix: str

    @property
    def locale(self) -> QLocale:
        """The QLocale for dates, times and numbers."""
        return QLocale(self.locale_name)

    @property
    def qm_name(self) -> str:
        """The program's translation file name (without the folder)."""
        return f"portal_admin_{self.file_suffix}.qm"


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language("en", "en_US", "en", "English", "en"),
        Language("zh", "zh_CN", "zh", "简体中文", "zh_CN"),
        Language("zh-Hant", "zh_TW", "zh-Hant", "繁體中文", "zh_TW"),
        Language("ja", "ja_JP", "ja", "日本語", "ja"),
        Language("vi", "vi_VN", "vi", "Tiếng Việt", "vi"),
    )
}


def language_for_locale(locale: QLocale) -> Language:
    """The supported language nearest to ``locale`` (English when none is)."""
    lang = locale.language()
    if lang == QLocale.Language.Chinese:
        traditional = locale.script() == QLocale.Script.TraditionalChineseScript or (
            locale.script() == QLocale.Script.AnyScript
            and locale.territory()
            in {QLocale.Country.Taiwan, QLocale.Country.HongKong, QLocale.Country.Macao}
        )
        return LANGUAGES["zh-Hant" if traditional else "zh"]
    by_language = {
        QLocale.Language.Japanese: "ja",
        QLocale.Language.Vietnamese: "vi",
    }
    return LANGUAGES[by_language.get(lang, DEFAULT_LANGUAGE)]


def resolve_language(code: str | None) -> Language:
    """The language for ``code`` (a UI code or a locale name like zh_TW); None: the system's."""
    if code is None:
        return language_for_locale(QLocale.system())
    if code in LANGUAGES:
        return LANGUAGES[code]
    return language_for_locale(QLocale(code.replace("-", "_")))


def accept_language(code: str | None) -> str:
    """The Accept-Language value for a UI language (zh_CN -> zh, zh_TW -> zh-Hant)."""
    return resolve_language(code).accept_language


def qt_translations_dir() -> Path:
    """Where Qt's own translations (qtbase_*.qm) are."""
    return Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))


def load_qtbase(
    language: Language, i18n_dir: Path = I18N_DIR, parent: QObject | None = None
) -> QTranslator | None:
    """Qt's own strings for ``language``: Qt's qtbase file, else the program's (qtbase_vi)."""
    for folder in (qt_translations_dir(), i18n_dir):
        translator = QTranslator(parent)
        if translator.load(language.locale, "qtbase", "_", str(folder)):
            return translator
    return None


class LanguageManager(QObject):
    """Installs the translators for one language at a time and announces switches."""

    languageChanged = Signal(str)

    def __init__(self, i18n_dir: Path = I18N_DIR, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._dir = i18n_dir
        self._translators: list[QTranslator] = []
        self._language = LANGUAGES[DEFAULT_LANGUAGE]

    @property
    def language(self) -> Language:
        """The current language."""
        return self._language

    @property
    def accept_language(self) -> str:
        """Accept-Language for API calls in the current language."""
        return self._language.accept_language

    def qm_path(self, language: Language) -> Path:
        """Where the program's translation for ``language`` is expected."""
        return self._dir / language.qm_name

    def set_language(self, code: str | None) -> Language:
        """Switch to ``code`` (None: follow the system); Qt sends LanguageChange to widgets."""
        language = resolve_language(code)
        app = QCoreApplication.instance()
        for translator in self._translators:
            QCoreApplication.removeTranslator(translator)
        self._translators = []
        QLocale.setDefault(language.locale)
        if language.code != DEFAULT_LANGUAGE and app is not None:
            self._install(self.qm_path(language))
            qtbase = load_qtbase(language, self._dir, parent=self)
            if qtbase is not None:
                self._add(qtbase)
            else:
                log.info("no Qt translations for %s", language.locale_name)
        changed = language != self._language
        self._language = language
        if changed:
            self.languageChanged.emit(language.code)
        return language

    def _install(self, path: Path) -> None:
        translator = QTranslator(self)
        if path.is_file() and translator.load(str(path)):
            self._add(translator)
        else:
            log.info("no program translation at %s", path)

    def _add(self, translator: QTranslator) -> None:
        QCoreApplication.installTranslator(translator)
        self._translators.append(translator)
