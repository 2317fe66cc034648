"""``files.atomic.open_own``: our own files are opened without following a planted link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from portal_admin.files import atomic
from support import links

needs_symlinks = pytest.mark.skipif(not links.can_make_symlinks(), reason=links.NO_LINKS)

FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT


def _planted(tmp_path: Path) -> tuple[Path, Path]:
    victim = tmp_path / "victim"
    victim.write_bytes(b"x")
    link = tmp_path / "ours"
    link.symlink_to(victim)
    return link, victim


@needs_symlinks
def test_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    link, _victim = _planted(tmp_path)
    with pytest.raises(atomic.LinkRefused):
        atomic.open_own(link, FLAGS)


@needs_symlinks
def test_without_o_nofollow_the_link_is_refused_before_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on Windows, where ``os`` has no ``O_NOFOLLOW``."""
    link, victim = _planted(tmp_path)
    monkeypatch.delattr(os, "O_NOFOLLOW", raising=False)
    with pytest.raises(atomic.LinkRefused):
        atomic.open_own(link, FLAGS)
    assert victim.read_bytes() == b"x"


def test_a_second_name_of_another_file_is_refused(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"x")
    os.link(victim, tmp_path / "ours")
    with pytest.raises(atomic.LinkRefused):
        atomic.open_own(tmp_path / "ours", FLAGS)


def test_a_file_of_its_own_is_opened_owner_only(tmp_path: Path) -> None:
    fd = atomic.open_own(tmp_path / "ours", FLAGS)
    try:
        os.write(fd, b"a\n")
    finally:
        os.close(fd)
    assert (tmp_path / "ours").read_bytes() == b"a\n"
    if os.name == "posix":
        assert (tmp_path / "ours").stat().st_mode & 0o777 == 0o600
