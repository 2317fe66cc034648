"""Third-party notices, generated from the installed distributions' metadata at build time.

    python packaging/notices.py OUT.txt [--bundle] [--dep5 COPYRIGHT]

Walks ``portal-admin``'s runtime requirements in the running environment (``importlib.metadata``,
no hand-kept list) and writes, for each distribution, its name, version, licence (the SPDX
``License-Expression``, else the ``License`` field, else the classifiers) and the full text of
the licence files it ships. Qt for Python's wheels (PySide6-Essentials, shiboken6) ship no
licence file, so the LGPL-3.0 and GPL-3.0 texts kept in ``packaging/licenses/`` (copied from
Debian's ``/usr/share/common-licenses``) are added for them, with the relinking note. With
``--bundle`` the Python runtime that the frozen program carries is listed too. ``--dep5`` also
writes a machine-readable Debian ``copyright`` file (DEP-5) of the same facts.
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import re
import sys
import sysconfig
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from packaging.requirements import Requirement

HERE = Path(__file__).resolve().parent
ROOT_DIST = "portal-admin"
OWN_LICENCE = "Apache-2.0"
#: Distributions whose wheels carry no licence file: the texts their licence refers to.
MISSING_TEXTS = {
    "pyside6-essentials": ("LGPL-3.0-only.txt", "GPL-3.0-only.txt"),
    "shiboken6": ("LGPL-3.0-only.txt", "GPL-3.0-only.txt"),
}
#: Trove licence classifiers as SPDX identifiers, for distributions that declare nothing else.
CLASSIFIERS = {
    "MIT License": "MIT",
    "Apache Software License": "Apache-2.0",
    "Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
    "Python Software Foundation License": "PSF-2.0",
    "ISC License (ISCL)": "ISC",
}
LICENCE_FILE = re.compile(r"^(LICEN[CS]E|COPYING|NOTICE)", re.IGNORECASE)
RELINKING_NOTE = """\
Qt, Qt for Python (PySide6) and Shiboken are used under the GNU Lesser General Public License
version 3 (LGPL-3.0-only), chosen among their licences (LGPL-3.0-only OR GPL-2.0-only OR
GPL-3.0-only); its text and that of the GNU GPL version 3, which it incorporates, follow.
portal-admin uses them as unmodified shared libraries: in the bundle, the .tar.gz and the .deb
they are separate files (_internal/PySide6/Qt/lib/libQt6*.so.6, _internal/PySide6/*.so and
_internal/shiboken6/*.so), loaded at run time, which you may replace with your own modified
builds of the same Qt and PySide6 versions (LGPL-3.0, section 4(d)(1)). The source code of Qt
and Qt for Python is published at https://download.qt.io/official_releases/ ; portal-admin's
own source is its wheel (pure Python). The program's Python code is in _internal/base_library.zip
and the PYZ archive inside the portal-admin executable; relinking does not need it rebuilt.
"""


@dataclass
class Notice:
    """One distribution: what it is, its licence, and the texts that must travel with it."""

    name: str
    version: str
    licence: str
    homepage: str = ""
    texts: list[tuple[str, str]] = field(default_factory=list)


def _key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def closure(root: str = ROOT_DIST) -> list[md.Distribution]:
    """``root``'s runtime requirements, transitively, as installed here (sorted by name)."""
    env = {"extra": ""}
    seen: dict[str, md.Distribution] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        if _key(name) in seen:
            continue
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            continue  # a requirement for another platform or Python
        seen[_key(name)] = dist
        for spec in dist.requires or []:
            req = Requirement(spec)
            if req.marker is None or req.marker.evaluate(env):
                todo.append(req.name)
    seen.pop(_key(root), None)
    return sorted(seen.values(), key=lambda d: _key(d.metadata["Name"]))


def licence_of(dist: md.Distribution) -> str:
    """The SPDX expression when declared, else the short ``License`` field or classifiers."""
    meta = dist.metadata
    if meta.get("License-Expression"):
        return str(meta["License-Expression"])
    short = (meta.get("License") or "").strip()
    if short and "\n" not in short and len(short) < 80:
        return short
    classifiers = [
        CLASSIFIERS.get(c.split(" :: ")[-1], c.split(" :: ")[-1])
        for c in meta.get_all("Classifier") or []
        if c.startswith("License")
    ]
    return " OR ".join(classifiers) or "LicenseRef-see-notices"


def licence_texts(dist: md.Distribution) -> list[tuple[str, str]]:
    """The licence files the distribution installed (``License-File`` or by their name)."""
    declared = set(dist.metadata.get_all("License-File") or [])
    found = []
    for file in dist.files or []:
        in_licences = "licenses" in file.parts[:-1] or "licences" in file.parts[:-1]
        if not (file.name in declared or in_licences or LICENCE_FILE.match(file.name)):
            continue
        if ".dist-info" not in str(file) or file.suffix in (".py", ".pyc"):
            continue
        text = Path(str(file.locate())).read_text(encoding="utf-8", errors="replace")
        found.append((file.name, text.strip()))
    for name in MISSING_TEXTS.get(_key(dist.metadata["Name"]), ()):
        found.append((name, (HERE / "licenses" / name).read_text(encoding="utf-8").strip()))
    return sorted(set(found))


def python_runtime() -> Notice:
    """The Python interpreter and standard library that the frozen bundle carries."""
    texts = []
    stdlib = Path(sysconfig.get_path("stdlib"))
    for candidate in (
        stdlib / "LICENSE.txt",
        Path(sys.base_prefix) / "LICENSE.txt",
    ):  # POSIX, Windows
        if candidate.is_file():
            texts = [("LICENSE", candidate.read_text(encoding="utf-8", errors="replace").strip())]
            break
    version = ".".join(map(str, sys.version_info[:3]))
    return Notice("Python", version, "PSF-2.0", "https://www.python.org/", texts)


def providers(modules: Iterable[str]) -> list[md.Distribution]:
    """The installed distributions that provide these top-level modules: what PyInstaller
    really bundled, which optional imports can make larger than the requirements (uvicorn
    takes PyYAML when it is installed)."""
    owners = md.packages_distributions()
    names = {name for module in modules for name in owners.get(module, [])}
    return [md.distribution(name) for name in sorted(names)]


def collect(*, bundle: bool = False, modules: Iterable[str] = ()) -> list[Notice]:
    """A notice per distribution (plus the Python runtime with ``bundle``): the runtime
    requirements and whatever provides ``modules`` (the bundle's top-level modules)."""
    notices = []
    dists = {_key(d.metadata["Name"]): d for d in [*closure(), *providers(modules)]}
    dists.pop(_key(ROOT_DIST), None)
    for _, dist in sorted(dists.items()):
        meta = dist.metadata
        urls = [u.split(",", 1)[-1].strip() for u in meta.get_all("Project-URL") or []]
        home = meta.get("Home-page") or (urls[0] if urls else "")
        notices.append(
            Notice(meta["Name"], dist.version, licence_of(dist), home, licence_texts(dist))
        )
    if bundle:
        notices.append(python_runtime())
    return notices


def render(notices: list[Notice]) -> str:
    """THIRD-PARTY-NOTICES.txt: a summary table, the relinking note, then every text."""
    rule = "=" * 78
    lines = [
        "portal-admin: third-party notices",
        "",
        f"portal-admin is licensed under {OWN_LICENCE} (LICENSE). It uses the software below,",
        "listed from the installed distributions' metadata when this copy was built.",
        "",
    ]
    width = max(len(n.name) for n in notices)
    lines += [f"  {n.name:<{width}}  {n.version:<12}  {n.licence}" for n in notices]
    lines += ["", rule, "", RELINKING_NOTE.rstrip()]
    for n in notices:
        lines += ["", rule, f"{n.name} {n.version}", f"Licence: {n.licence}"]
        if n.homepage:
            lines.append(f"Home: {n.homepage}")
        for name, text in n.texts:
            lines += ["", f"--- {name} ---", "", text]
    return "\n".join(lines) + "\n"


def _dep5_text(text: str) -> str:
    """A licence text as a DEP-5 continuation: each line indented, blank lines as '.'."""
    return "\n".join(f" {line.rstrip()}" if line.strip() else " ." for line in text.splitlines())


#: Licences whose text Debian keeps in /usr/share/common-licenses (lintian wants a reference).
COMMON_LICENCES = {
    "Apache-2.0": "Apache-2.0",
    "GPL-3.0-only": "GPL-3",
    "LGPL-3.0-only": "LGPL-3",
    "MPL-2.0": "MPL-2.0",
}


def _ids(expression: str) -> list[str]:
    """The licence identifiers of an SPDX expression (operators and brackets dropped)."""
    words = re.split(r"[\s()]+", expression)
    return [w for w in words if w and w.upper() not in ("OR", "AND", "WITH")]


def _dep5_expression(expression: str) -> str:
    """An SPDX expression in DEP-5 syntax (lower-case operators), bracketed when compound."""
    words = re.sub(r"\b(OR|AND)\b", lambda m: m.group(1).lower(), expression)
    return f"({words})" if " " in words else words


def render_dep5(notices: list[Notice], own_licence_text: str) -> str:
    """A machine-readable Debian copyright file (DEP-5): the program under its licence, the
    bundled runtime under the conjunction of its parts' licences (listed in a comment), Qt for
    Python under LGPL-3.0, and one stand-alone paragraph per licence."""
    del own_licence_text  # Apache-2.0 is referenced in /usr/share/common-licenses
    runtime = [n for n in notices if _key(n.name) not in MISSING_TEXTS]  # Qt: its own paragraph
    expressions = sorted({_dep5_expression(n.licence) for n in runtime})
    bundled = sorted({i for n in runtime for i in _ids(n.licence)})
    listing = [f" {n.name} {n.version}: {n.licence}" for n in notices]
    out = [
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
        "Upstream-Name: portal-admin",
        "Comment: A self-contained bundle: the program, the Python runtime and the libraries it",
        " was built and tested with. Every licence text, with the copyright lines of each",
        " project, is in /opt/portal-admin/THIRD-PARTY-NOTICES.txt.",
        "",
        "Files: *",
        "Copyright: portal-admin developers",
        f"License: {OWN_LICENCE}",
        "",
        "Files: opt/portal-admin/_internal/*",
        "Copyright: the authors of the projects listed below (see each licence text)",
        "License: " + " and ".join(expressions),
        "Comment: The Python runtime and distributions bundled by PyInstaller:",
        *listing,
        "",
        "Files: opt/portal-admin/_internal/PySide6/* opt/portal-admin/_internal/shiboken6/*",
        "Copyright: The Qt Company Ltd. and other contributors",
        "License: LGPL-3.0-only",
        "Comment:",
        _dep5_text(RELINKING_NOTE),
        "",
    ]
    for ident in sorted({OWN_LICENCE, "LGPL-3.0-only", *bundled}):
        out.append(f"License: {ident}")
        if ident in COMMON_LICENCES:
            out += [
                f" On Debian systems, the complete text of the {ident} licence is in",
                f" /usr/share/common-licenses/{COMMON_LICENCES[ident]}.",
            ]
        else:
            text = next(
                (t for n in notices if _ids(n.licence) == [ident] for _, t in n.texts[:1]), ""
            )
            out.append(_dep5_text(text or "See /opt/portal-admin/THIRD-PARTY-NOTICES.txt."))
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--bundle", action="store_true", help="list the Python runtime too")
    parser.add_argument("--dep5", type=Path, help="also write a Debian copyright file")
    parser.add_argument("--modules", type=Path, help="a file of bundled top-level modules")
    args = parser.parse_args(argv)
    modules = args.modules.read_text(encoding="utf-8").split() if args.modules else []
    notices = collect(bundle=args.bundle, modules=modules)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(notices), encoding="utf-8")
    if args.dep5:
        own = (HERE.parent / "LICENSE").read_text(encoding="utf-8")
        args.dep5.write_text(render_dep5(notices, own), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
