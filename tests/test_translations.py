"""The five languages: every string finished, every .qm loads and translates known strings."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import translations  # noqa: E402

#: (context, source) pairs every language must translate: the window, sign-in, errors, panels.
SAMPLES = (
    ("MainWindow", "Last request id:"),
    ("ErrorInfo", "The server could not be reached."),
    ("Panels", "Accounts"),
    ("Panels", "Login history"),
    ("AccountsPanel", "Choose an account to see its details."),
    ("SessionsPanel", "This device"),
    ("Invitations", "Cannot be accepted: %1"),
    ("NotificationPanels", "Changes are not available: %1"),
)


def test_every_string_is_finished_in_every_language() -> None:
    counts = translations.report()
    assert set(counts) == set(translations.LANGUAGES)
    for language, c in counts.items():
        assert c.finished > 500, (language, c)
        assert c.unfinished == 0 and c.missing == 0, (language, c)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("qm")
    written = translations.compile_all(out)
    assert {p.name for p in written} >= {f"portal_admin_{s}.qm" for s in translations.LANGUAGES} | {
        "qtbase_vi.qm"
    }
    return out


@pytest.mark.parametrize("suffix", translations.LANGUAGES)
def test_qm_loads_and_translates(compiled: Path, suffix: str, qapp: object) -> None:
    translator = QTranslator()
    assert translator.load(str(compiled / f"portal_admin_{suffix}.qm"))
    QCoreApplication.installTranslator(translator)
    try:
        for context, source in SAMPLES:
            text = QCoreApplication.translate(context, source)
            assert text and text != source, (suffix, context, source)
        # placeholders survive translation
        assert "%1" in QCoreApplication.translate("Invitations", "Cannot be accepted: %1")
        assert "%n" not in QCoreApplication.translate("RolesPanel", "%n role(s)", None, 3)
    finally:
        QCoreApplication.removeTranslator(translator)


def test_vietnamese_standard_dialogs_are_supplied(compiled: Path, qapp: object) -> None:
    translator = QTranslator()
    assert translator.load(str(compiled / "qtbase_vi.qm"))
    QCoreApplication.installTranslator(translator)
    try:
        for source in ("OK", "Cancel", "Save", "Close"):
            text = QCoreApplication.translate("QPlatformTheme", source)
            assert text and text != source, source
    finally:
        QCoreApplication.removeTranslator(translator)


def test_glossaries_exist() -> None:
    for name in ("zh", "ja", "vi"):
        text = (ROOT / "translations" / "glossary" / f"{name}.md").read_text(encoding="utf-8")
        assert text.count("|") > 40  # a table of terms
