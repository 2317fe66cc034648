"""What a job is at a glance, read from its file: the one summary the desktop's Jobs panel, the
resume offer after sign-in and ``portal-admin-cli jobs list`` show (no Qt)."""

from __future__ import annotations

import logging
from collections.abc import Container
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .store import JobFile, JobFileError, JobState, list_jobs

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class JobSummary:
    """One job: its id, action (``kind``), state, counts, when and where it was made.
    ``state`` is ``interrupted`` for a job left running by a program that died."""

    path: Path
    id: str
    kind: str
    state: str
    counts: dict[str, int]
    created: str
    account: str
    server: str
    pause_reason: str | None

    @property
    def resumable(self) -> bool:
        """Paused, or interrupted (its program died while it ran)."""
        return self.state in (JobState.PAUSED, "interrupted")

    @property
    def left(self) -> int:
        """Targets not settled yet."""
        return self.counts.get("planned", 0) + self.counts.get("sending", 0)

    def as_record(self) -> dict[str, Any]:
        """The summary as the command line's JSON lines give it."""
        return {
            "id": self.id,
            "action": self.kind,
            "state": self.state,
            **{k: self.counts.get(k, 0) for k in ("done", "failed", "skipped", "unknown")},
            "left": self.left,
            "created": self.created,
            "server": self.server,
            "account": self.account,
        }


def summarize(job: JobFile, running_here: Container[str] = ()) -> JobSummary:
    """The summary of an open job file (``running_here``: ids this process is running)."""
    meta = job.meta()
    state = str(meta["state"])
    if state == JobState.RUNNING and job.id not in running_here and not job.is_locked_elsewhere():
        state = "interrupted"
    return JobSummary(
        job.path,
        job.id,
        str(meta["kind"]),
        state,
        job.counts(),
        str(meta.get("created_at", "")),
        str(meta.get("account", "")),
        str(meta.get("server", "")),
        meta.get("pause_reason"),
    )


def read_summaries(
    folder: Path | None = None, running_here: Container[str] = ()
) -> list[JobSummary]:
    """Every readable job file's summary, newest first (a file that is not a job file of this
    version is left out, and logged)."""
    found = []
    for path in list_jobs(folder):
        try:
            job = JobFile.open(path)
        except JobFileError as exc:
            log.info("not a job file: %s", exc)
            continue
        try:
            found.append(summarize(job, running_here))
        finally:
            job.close()
    return found


def waiting(server: str, folder: Path | None = None) -> list[JobSummary]:
    """Jobs on ``server`` that wait to be resumed."""
    return [job for job in read_summaries(folder) if job.resumable and job.server == server]
