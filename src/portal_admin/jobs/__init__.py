"""Bulk changes: plans (the dry run), the durable job file, and the runner. No Qt.

Shared by the desktop program and ``portal-admin-cli``; see docs/bulk.md.
"""

from .actions import (
    Action,
    CancelInvitation,
    ChangeStatus,
    Invite,
    ResetPassword,
    Skip,
    Target,
    UpdateField,
    action_from,
)
from .confirmation import confirmation_needed
from .plan import (
    JobContext,
    create_job,
    plan_lines,
    result_lines,
    write_plan,
    write_result,
)
from .revert import Revert, RevertSkip, plan_job_revert, plan_records_revert, write_revert_plan
from .revert_journal import RevertError
from .runner import DEFAULT_CONCURRENCY, Backoff, PauseReason, Progress, Runner, Settling
from .store import ItemState, JobFile, JobFileError, JobLockedError, JobState, jobs_dir, list_jobs
from .summary import JobSummary, read_summaries
from .targets import ImportCode, ImportFailed, Problem, TargetList, decode, parse_list

__all__ = [
    "DEFAULT_CONCURRENCY",
    "Action",
    "Backoff",
    "CancelInvitation",
    "ChangeStatus",
    "ImportCode",
    "ImportFailed",
    "Invite",
    "ItemState",
    "JobContext",
    "JobFile",
    "JobFileError",
    "JobLockedError",
    "JobState",
    "JobSummary",
    "PauseReason",
    "Problem",
    "Progress",
    "ResetPassword",
    "Revert",
    "RevertError",
    "RevertSkip",
    "Runner",
    "Settling",
    "Skip",
    "Target",
    "TargetList",
    "UpdateField",
    "action_from",
    "confirmation_needed",
    "create_job",
    "decode",
    "jobs_dir",
    "list_jobs",
    "parse_list",
    "plan_job_revert",
    "plan_lines",
    "plan_records_revert",
    "read_summaries",
    "result_lines",
    "write_plan",
    "write_result",
    "write_revert_plan",
]
