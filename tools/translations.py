"""Qt Linguist translations: update the .ts files, compile them, and report their state.

    python tools/translations.py update    # pyside6-lupdate over src/portal_admin/ui
    python tools/translations.py compile   # pyside6-lrelease into src/portal_admin/ui/i18n
    python tools/translations.py report    # finished / unfinished / missing; exit 1 unless all done
    python tools/translations.py fill F... # update, then fill translations from JSON files

A fill file (``translations/pending/*.json``) is a list of ``{"context": ..., "source": ...,
"zh_CN": ..., "zh_TW": ..., "ja": ..., "vi": ...}`` (a list of forms for a plural). Work on a
branch of its own writes its new strings there, so that merging branches never depends on
merging the .ts files' line numbers: after a merge, ``update`` and ``fill`` rebuild them.

The build (setup.py) calls :func:`compile_all`, so a fresh clone and an installed package both
carry compiled ``.qm`` files. Uses only the standard library and the lupdate/lrelease binaries
that PySide6-Essentials ships.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TS_DIR = ROOT / "translations"
UI_DIR = ROOT / "src" / "portal_admin" / "ui"
QM_DIR = UI_DIR / "i18n"
#: The program's languages besides English (its source language), by file suffix.
LANGUAGES = ("zh_CN", "zh_TW", "ja", "vi")
#: What Qt does not ship for the standard dialogs and the program supplies itself.
QT_SUPPLEMENTS = ("qtbase_vi",)


def _tool(name: str) -> list[str]:
    """The command running PySide6's lupdate or lrelease."""
    try:
        import PySide6
    except ImportError as exc:  # pragma: no cover - the build requires PySide6
        raise SystemExit(f"PySide6 is needed to run {name}") from exc
    base = Path(PySide6.__file__).parent
    for candidate in (base / name, base / f"{name}.exe", base / "Qt" / "libexec" / name):
        if candidate.exists():
            return [str(candidate)]
    found = shutil.which(f"pyside6-{name}")
    if found:
        return [found]
    raise SystemExit(f"cannot find Qt's {name} next to PySide6")


def ts_path(suffix: str) -> Path:
    """The .ts file of a language suffix (zh_CN, ...) or of a Qt supplement."""
    return TS_DIR / (f"{suffix}.ts" if suffix.startswith("qt") else f"portal_admin_{suffix}.ts")


def sources() -> list[Path]:
    """Every Python file of the UI, where user-visible strings live."""
    return sorted(p for p in UI_DIR.rglob("*.py") if "__pycache__" not in p.parts)


def lupdate(targets: list[Path], *, keep_obsolete: bool = False) -> None:
    """Extract the UI's strings into ``targets`` (creating or merging them)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lst", delete=False) as lst:
        lst.write("\n".join(str(p) for p in sources()))
    cmd = [*_tool("lupdate"), f"@{lst.name}", "-locations", "relative"]
    if not keep_obsolete:
        cmd.append("-no-obsolete")
    subprocess.run([*cmd, "-ts", *map(str, targets)], check=True, capture_output=True)  # noqa: S603
    Path(lst.name).unlink()


def compile_all(out_dir: Path = QM_DIR) -> list[Path]:
    """Compile every .ts there is into ``out_dir``; returns the .qm files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for suffix in (*LANGUAGES, *QT_SUPPLEMENTS):
        ts = ts_path(suffix)
        if not ts.exists():
            continue
        qm = out_dir / ts.with_suffix(".qm").name
        # Written beside, then renamed: Qt maps .qm files into memory, and rewriting one in
        # place ends a program that has it loaded (SIGBUS).
        partial = qm.with_suffix(".qm.partial")
        subprocess.run(  # noqa: S603
            [*_tool("lrelease"), "-silent", str(ts), "-qm", str(partial)], check=True
        )
        partial.replace(qm)
        written.append(qm)
    return written


@dataclass
class Counts:
    """The state of one language's translations."""

    finished: int = 0
    unfinished: int = 0
    missing: int = 0

    @property
    def complete(self) -> bool:
        return self.unfinished == 0 and self.missing == 0


def _messages(ts: Path) -> dict[tuple[str, str], ET.Element]:
    """(context, source) → message element, ignoring vanished and obsolete entries."""
    out = {}
    for context in ET.parse(ts).getroot().iter("context"):  # noqa: S314
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            tr = message.find("translation")
            if tr is not None and tr.get("type") in ("vanished", "obsolete"):
                continue
            out[(name, message.findtext("source") or "")] = message
    return out


def _is_finished(message: ET.Element) -> bool:
    tr = message.find("translation")
    if tr is None or tr.get("type") == "unfinished":
        return False
    forms = tr.findall("numerusform")
    return all((f.text or "").strip() for f in forms) if forms else bool((tr.text or "").strip())


def report() -> dict[str, Counts]:
    """Per language: finished, unfinished, and missing (in the code but not in the .ts)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "fresh.ts"
        lupdate([fresh])
        wanted = set(_messages(fresh))
    result = {}
    for suffix in LANGUAGES:
        ts = ts_path(suffix)
        have = _messages(ts) if ts.exists() else {}
        counts = Counts(missing=len(wanted - set(have)))
        for key in wanted & set(have):
            if _is_finished(have[key]):
                counts.finished += 1
            else:
                counts.unfinished += 1
        result[suffix] = counts
    return result


def fill(files: list[Path]) -> int:
    """Update the .ts files, then set each translation the fill files give; returns how many."""
    import json

    lupdate([ts_path(s) for s in LANGUAGES])
    entries = [e for f in files for e in json.loads(f.read_text(encoding="utf-8"))]
    filled = 0
    for suffix in LANGUAGES:
        ts = ts_path(suffix)
        tree = ET.parse(ts)  # noqa: S314 - our own .ts files
        found: dict[tuple[str, str], ET.Element] = {}
        for context in tree.getroot().iter("context"):
            name = context.findtext("name") or ""
            for message in context.iter("message"):
                found[(name, message.findtext("source") or "")] = message
        for entry in entries:
            message = found.get((entry["context"], entry["source"]))
            text = entry.get(suffix)
            if message is None or text is None:
                continue
            tr = message.find("translation")
            if tr is None:
                tr = ET.SubElement(message, "translation")
            tr.attrib.pop("type", None)
            if isinstance(text, list):
                for child in list(tr):
                    tr.remove(child)
                tr.text = None
                for form in text:
                    ET.SubElement(tr, "numerusform").text = form
            else:
                tr.text = text
            filled += 1
        ET.indent(tree, space="    ")
        body = ET.tostring(tree.getroot(), encoding="unicode")
        ts.write_text(
            '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n",
            encoding="utf-8",
        )
    lupdate([ts_path(s) for s in LANGUAGES])  # back to lupdate's own layout
    return filled


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("update", "compile", "report", "fill"))
    parser.add_argument("files", nargs="*", type=Path, help="fill: the JSON files")
    args = parser.parse_args(argv)
    if args.command == "fill":
        print(f"{fill(args.files)} translations set")
        return 0
    if args.command == "update":
        lupdate([ts_path(s) for s in LANGUAGES])
        return 0
    if args.command == "compile":
        for qm in compile_all():
            print(qm.relative_to(ROOT))
        return 0
    counts = report()
    print(f"{'language':<10} {'finished':>9} {'unfinished':>11} {'missing':>8}")
    for suffix, c in counts.items():
        print(f"{suffix:<10} {c.finished:>9} {c.unfinished:>11} {c.missing:>8}")
    return 0 if all(c.complete for c in counts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
