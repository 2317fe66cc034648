"""Running a job: bounded concurrency, backoff, pause, resume, cancel, and no change twice.

Each target is marked ``sending`` in the job file before its request and gets its outcome
after it, both durably. The mark carries ``sent_until``: the wall-clock time until which the
request may still be applied (the client's deadline for a call plus a margin for a server
still at work when the client gave up). A target left ``sending`` (a crash, a kill, a dropped
connection, a 5xx answer) has an unknown outcome: the runner waits until its ``sent_until``
(in whichever process resumes it), then reads the target back and asks the action whether the
change is in place. A change found in place is done; one not found is sent again only when
the action is idempotent (it sets a value), else it becomes ``unknown`` for a person to
decide, and so does one whose value is no longer the one planned from (someone else changed
it); one that cannot be read back (a password-reset mail) is ``unknown`` and never repeated.
A repeat refused by the server (a status already set) is read back as well.

A dropped connection or a lost sign-in pauses the job with the reason; rate-limit and 5xx
answers make every worker back off (exponentially, capped) before the next request.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from portal_admin.client import PortalClient
from portal_admin.client.changes import describe_change
from portal_admin.client.errors import (
    APIConnectionError,
    APIStatusError,
    AuthenticationError,
    InvalidIdError,
    MalformedResponseError,
    PortalError,
    RateLimitedError,
    ReadOnlyError,
    ServerError,
)
from portal_admin.client.transport import LAST_ANSWER
from portal_admin.protocol.errors import Code

from .actions import Action, Target, action_from
from .store import FINAL, Item, ItemState, JobFile, JobState

log = logging.getLogger("portal_admin.jobs.runner")

DEFAULT_CONCURRENCY = 4
MAX_CONCURRENCY = 32
#: How often one target is sent after answers that did not change it (5xx); a rate-limit
#: answer (429) costs no attempt.
MAX_ATTEMPTS = 5


class PauseReason:
    """Why a job paused (codes; the UI and the command line word them)."""

    BY_USER = "BY_USER"
    CONNECTION = "CONNECTION"  # the server could not be reached; outcomes are kept
    SIGNED_OUT = "SIGNED_OUT"  # the sign-in ended (token refused or refresh failed)
    STOPPED = "STOPPED"  # the program stopped the runner (closing, signing out)


@dataclass(frozen=True, slots=True)
class Backoff:
    """Waiting after rate-limit and 5xx answers: exponential from ``initial`` to ``maximum``."""

    initial: float = 0.5
    maximum: float = 30.0


#: Seconds after the client's deadline during which a server may still apply a request it
#: received (a gateway answered 504, or the client gave up, while the server kept working).
SETTLE_MARGIN = 10.0
#: Extra seconds on the ``sent_until`` of targets marked ``sending`` together, so that the
#: mark still covers a request that leaves a little after it; a later one renews the mark.
CLAIM_LEASE = 5.0
#: The longest single sleep while waiting for ``sent_until`` (pause and cancel are seen then).
SETTLE_STEP = 0.25


@dataclass(frozen=True, slots=True)
class Settling:
    """When an unanswered request can no longer be applied, and the clock to wait on.

    A request may be applied until the client's ``timeout`` after it left plus ``margin``;
    ``lease`` is added to marks made ahead of their request. ``wall`` (epoch seconds) and
    ``sleep`` are the real ones except in tests.
    """

    margin: float = SETTLE_MARGIN
    lease: float = CLAIM_LEASE
    wall: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep


@dataclass(frozen=True, slots=True)
class Progress:
    """A job's counts, rate and time left, as the runner sees them now."""

    total: int
    counts: dict[str, int]
    state: JobState
    pause_reason: str | None = None
    pause_detail: str | None = None
    rate: float = 0.0  # targets finished per second, over the last ``RATE_WINDOW`` seconds
    eta: float | None = None  # seconds left at that rate
    backing_off: float = 0.0  # seconds until requests resume after a 429/5xx
    #: Seconds until unanswered requests can no longer be applied and are read back (the
    #: ``sending`` count says how many); 0 when not waiting for them.
    settling: float = 0.0

    @property
    def finished(self) -> int:
        """Targets with a final outcome."""
        return sum(self.counts.get(str(s), 0) for s in FINAL) + self.counts.get("cancelled", 0)

    @property
    def remaining(self) -> int:
        """Targets still to send (planned or of unknown outcome)."""
        return self.counts.get("planned", 0) + self.counts.get("sending", 0)


RATE_WINDOW = 20.0
#: Seconds between two progress reports while counts change.
PUBLISH_INTERVAL = 0.05
#: Targets marked ``sending`` in one commit (see ``Runner._next``); one at a time for an action
#: that is not idempotent, so that a crash leaves as few unsent targets of unknown outcome.
CLAIM = 16

#: Notes kept with a target in the job file and the result file.
NOTE_VERIFIED = "verified by reading back"
NOTE_SENT_AGAIN = "not applied: sent again"
NOTE_REPEAT_REFUSED = "verified by reading back (the repeat was refused: already done)"
NOTE_NOT_REPEATED = "outcome unknown: not repeated"
NOTE_NOT_SEEN = "not seen by reading back; not repeated (it may have been sent): check it"
NOTE_CANCELLED = "cancelled before its outcome was read back"
NOTE_UNREADABLE = "could not be read back; not repeated: check it"
NOTE_CHANGED = "changed meanwhile by someone else (neither before nor new); not repeated: check it"


@dataclass
class _Tally:
    counts: dict[str, int]
    finished_at: collections.deque[float] = field(default_factory=collections.deque)


class Runner:
    """Runs one job file against a signed-in client.

    ``run()`` returns when the job is finished or cancelled, or, with ``stop_on_pause``, as
    soon as it pauses (the command line); otherwise a paused job waits for :meth:`resume`.
    """

    def __init__(
        self,
        client: PortalClient,
        job: JobFile,
        *,
        concurrency: int | None = None,
        on_progress: Callable[[Progress], object] | None = None,
        backoff: Backoff | None = None,
        stop_on_pause: bool = False,
        publish_every: float = PUBLISH_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        settling: Settling | None = None,
    ) -> None:
        meta = job.meta()
        self.client = client
        self.job = job
        self.action: Action = action_from(meta["kind"], meta["params"])
        wanted = concurrency or int(meta.get("concurrency") or DEFAULT_CONCURRENCY)
        self.concurrency = max(1, min(MAX_CONCURRENCY, wanted))
        self.on_progress = on_progress
        self.backoff = backoff or Backoff()
        self.stop_on_pause = stop_on_pause
        self.publish_every = publish_every
        self.clock = clock
        self.settling = settling or Settling()
        #: Seconds after a request leaves until it can no longer be applied.
        self.window = client.options.timeout + self.settling.margin
        self._claim_size = CLAIM if self.action.idempotent else 1
        self._settling_until: float | None = None
        self._tally = _Tally(job.counts())
        self._total = sum(self._tally.counts.values())
        self._state = JobState(meta["state"])
        self._pause_reason: str | None = None
        self._pause_detail: str | None = None
        self._resumed = asyncio.Event()
        self._cancelled = False
        self._delay = 0.0
        self._not_before = 0.0
        #: Lines to send, by seq (small: the lines are read sixteen at a time when claimed).
        self._queue: collections.deque[int] = collections.deque()
        #: Lines sent back to the queue (429, 5xx): their copy in memory is the current one.
        self._held: dict[int, Item] = {}
        self._published = float("-inf")
        self._claimed: collections.deque[Item] = collections.deque()
        self._claiming = asyncio.Lock()
        self._unsettled: set[asyncio.Future[None]] = set()
        self._write_error: BaseException | None = None
        self._unread = 0  # items a reconciliation could not read back (the server failed)
        self._read_failures: dict[int, int] = {}

    # Controls -------------------------------------------------------------------------------

    def pause(self, reason: str = PauseReason.BY_USER, detail: str | None = None) -> None:
        """Send nothing more until :meth:`resume` (requests under way finish)."""
        if self._pause_reason is None:
            self._pause_reason, self._pause_detail = reason, detail
            self._resumed.clear()
            self._publish(now=True)

    def resume(self) -> None:
        """Continue a paused job."""
        self._pause_reason = self._pause_detail = None
        self._resumed.set()
        self._publish(now=True)

    def cancel(self) -> None:
        """Stop: requests under way finish, the rest is marked cancelled."""
        self._cancelled = True
        self._resumed.set()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancelled

    @property
    def paused(self) -> bool:
        """True while paused."""
        return self._pause_reason is not None

    def progress(self) -> Progress:
        """The counts, rate and time left now."""
        now = self.clock()
        done = self._tally.finished_at
        while done and done[0] < now - RATE_WINDOW:
            done.popleft()
        rate = 0.0
        if len(done) >= 2:
            rate = (len(done) - 1) / max(done[-1] - done[0], 1e-6)
        counts = dict(self._tally.counts)
        left = counts.get("planned", 0) + counts.get("sending", 0)
        return Progress(
            total=self._total,
            counts=counts,
            state=JobState.PAUSED if self.paused else self._state,
            pause_reason=self._pause_reason,
            pause_detail=self._pause_detail,
            rate=rate,
            eta=left / rate if rate > 0 else None,
            backing_off=max(0.0, self._not_before - now),
            settling=(
                max(0.0, self._settling_until - self.settling.wall())
                if self._settling_until is not None
                else 0.0
            ),
        )

    # Running --------------------------------------------------------------------------------

    async def run(self) -> Progress:
        """Run the job to its end (or, with ``stop_on_pause``, to its first pause)."""
        self.job.lock()
        try:
            self.action.before_run(self.job)
            self._state = JobState.RUNNING
            await self.job.set_meta(state=JobState.RUNNING, pause_reason=None)
            self._resumed.set()
            while not self._cancelled:
                await self._flush()  # what follows reads the file
                await self._reconcile()
                await self._flush()
                if not self.paused:
                    self._queue = collections.deque(self.job.seqs([ItemState.PLANNED]))
                    self._held.clear()
                    if self._queue:
                        await self._work()
                    elif not self._unread:  # nothing left to send or to read back
                        break
                if self.cancelled:
                    break
                if self.paused:
                    await self._flush()
                    await self.job.set_meta(state=JobState.PAUSED, pause_reason=self._pause_reason)
                    self._publish(now=True)
                    if self.stop_on_pause:
                        return self.progress()
                    await self._resumed.wait()
                    await self.job.set_meta(state=JobState.RUNNING, pause_reason=None)
            await self._finish()
            return self.progress()
        except asyncio.CancelledError:
            # The program is stopping the runner: the job stays resumable.
            self._pause_reason = PauseReason.STOPPED
            await asyncio.shield(self._stopped())
            raise
        finally:
            self.job.unlock()

    async def _stopped(self) -> None:
        await self._flush()
        await self.job.set_meta(state=JobState.PAUSED, pause_reason=PauseReason.STOPPED)

    async def _finish(self) -> None:
        await self._flush()  # what follows reads the file
        if self._cancelled:
            for item in list(self.job.items([ItemState.PLANNED])):
                await self._set(item, ItemState.CANCELLED)
            for item in list(self.job.items([ItemState.SENDING])):
                await self._set(item, ItemState.UNKNOWN, note=NOTE_CANCELLED)
            self._state = JobState.CANCELLED
        else:
            self._state = JobState.FINISHED
        await self._flush()
        await self.job.set_meta(state=self._state, pause_reason=None)
        self._publish(now=True)

    async def _work(self) -> None:
        workers = [asyncio.create_task(self._worker()) for _ in range(self.concurrency)]
        try:
            await asyncio.gather(*workers)
        except BaseException:
            for task in workers:
                task.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            raise
        finally:
            await asyncio.shield(self._unclaim())

    async def _worker(self) -> None:
        while not self._cancelled and not self.paused:
            wait = self._not_before - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            item = await self._next()
            if item is None:
                return
            if self.cancelled or self.paused:
                self._claimed.appendleft(item)
                return
            await self._cover(item)
            await self._send(item)

    async def _next(self) -> Item | None:
        """The next claimed item; claims the next ``CLAIM`` at once when none is left.

        Claiming marks items ``sending``, with their ``sent_until``, in one durable commit
        before any of their requests leaves (one fsync for many targets). A crash may leave
        claimed items that were never sent: they are read back like any other, and none is
        sent twice.
        """
        if self._claimed:
            return self._claimed.popleft()
        async with self._claiming:
            if not self._claimed and self._queue:
                size = min(self._claim_size, len(self._queue))
                seqs = [self._queue.popleft() for _ in range(size)]
                fresh = {
                    i.seq: i for i in self.job.items_at([s for s in seqs if s not in self._held])
                }
                batch = [self._held.pop(s) if s in self._held else fresh[s] for s in seqs]
                until = self._until()
                written = self.job.set_items(
                    [i.seq for i in batch],
                    ItemState.SENDING,
                    sent_until=until,
                    error_code=None,  # the code of an earlier answer is not this request's
                    request_id=None,
                )
                for item in batch:
                    item.sent_until, item.error_code, item.request_id = until, None, None
                    self._count(item, ItemState.SENDING)
                await written
                self._claimed.extend(batch)
        return self._claimed.popleft() if self._claimed else None

    def _until(self) -> float:
        """The ``sent_until`` recorded for requests about to leave."""
        return self.settling.wall() + self.window + self.settling.lease

    def _covers(self, item: Item) -> bool:
        """True when ``item``'s recorded ``sent_until`` covers a request leaving now."""
        return item.sent_until is not None and (
            item.sent_until >= self.settling.wall() + self.window
        )

    async def _cover(self, item: Item) -> None:
        """Before ``item``'s request leaves: if it waited past its mark's lease, record a later
        ``sent_until`` for it and the rest of its claim (durably, first)."""
        if self._covers(item):
            return
        async with self._claiming:
            if self._covers(item):  # another worker renewed it meanwhile
                return
            batch = [item, *self._claimed]
            until = self._until()
            await self.job.update_items([i.seq for i in batch], sent_until=until)
            for each in batch:
                each.sent_until = until

    async def _unclaim(self) -> None:
        """Claimed items whose requests never left go back to ``planned``."""
        if self._claimed:
            batch, self._claimed = list(self._claimed), collections.deque()
            written = self.job.set_items(
                [i.seq for i in batch], ItemState.PLANNED, undo_attempt=True
            )
            for item in batch:
                item.attempts -= 1
                self._count(item, ItemState.PLANNED)
            await written

    async def _send(self, item: Item) -> None:
        target = Target(item.target_id, item.label, item.record)
        before, after_values = self.action.journal_values(item, self.job.id)
        try:
            with describe_change(before=before, after=after_values):
                after = await self.action.apply(self.client, target)
        except RateLimitedError as exc:  # refused, so not applied: wait, then send again
            self._back_off()
            await self._set(item, ItemState.PLANNED, error_code=exc.code, request_id=exc.request_id)
            self._requeue(item)  # however often: the server asks to wait, not to give up
        except (ServerError, MalformedResponseError) as exc:  # it may or may not have happened
            # Kept ``sending``: read back once its request can no longer be applied (a gateway's
            # 504 does not stop the server behind it), after the rest of the pass.
            self._back_off()
            log.info("%s: %s on %s, to be read back", self.job.id, exc.code, item.seq)
            item.error_code, item.request_id = exc.code, exc.request_id
            self._track(
                self.job.update_items(
                    [item.seq], urgent=False, error_code=exc.code, request_id=exc.request_id
                )
            )
        except APIConnectionError as exc:  # no answer: outcome unknown, kept as ``sending``
            self.pause(PauseReason.CONNECTION, exc.code)
        except AuthenticationError as exc:  # refused before it was applied
            await self._set(item, ItemState.PLANNED, error_code=exc.code)
            self.pause(PauseReason.SIGNED_OUT, exc.code)
        except (APIStatusError, ReadOnlyError) as exc:  # refused: a definite outcome
            if item.unknown_sends and self.action.checkable:
                await self._refused_repeat(item, exc)
            else:
                await self._set(
                    item, ItemState.FAILED, error_code=exc.code, request_id=exc.request_id
                )
        else:
            self._delay = 0.0
            answer = LAST_ANSWER.get()
            request_id = answer[0] if answer else None
            await self._set(
                item, ItemState.DONE, after=after, request_id=request_id, error_code=None
            )

    async def _refused_repeat(self, item: Item, exc: PortalError) -> None:
        """A repeat of a send of unknown outcome was refused: the first may have been applied
        after all (a status already set is refused). Read back: done if the change is there."""
        target = Target(item.target_id, item.label, item.record)
        try:
            now = await self.action.read(self.client, target)
        except PortalError as read_exc:
            log.info("%s: reading back %s failed (%s)", self.job.id, item.seq, read_exc.code)
            now = None
        if now is not None and self.action.check(now):
            await self._set(
                item,
                ItemState.DONE,
                after=item.new,
                error_code=None,
                request_id=exc.request_id,
                note=NOTE_REPEAT_REFUSED,
            )
        else:
            await self._set(item, ItemState.FAILED, error_code=exc.code, request_id=exc.request_id)

    async def _again(self, item: Item) -> None:
        """Send ``item`` again (its last send had an unknown outcome and was found not
        applied), unless it has used its attempts."""
        if item.attempts >= MAX_ATTEMPTS and item.error_code:
            await self._set(item, ItemState.FAILED, note=None)
            return
        await self._set(item, ItemState.PLANNED, unknown_send=True, note=NOTE_SENT_AGAIN)
        item.unknown_sends += 1
        self._requeue(item)

    async def _resolve(self, item: Item) -> None:
        """Decide a ``sending`` item's outcome by reading its target back (its request can no
        longer be applied: see :meth:`_reconcile`)."""
        target = Target(item.target_id, item.label, item.record)
        if not self.action.checkable:
            await self._set(item, ItemState.UNKNOWN, note=NOTE_NOT_REPEATED)
            return
        try:
            now = await self.action.read(self.client, target)
        except APIConnectionError as read_exc:
            self.pause(PauseReason.CONNECTION, read_exc.code)
            return
        except AuthenticationError as read_exc:
            self.pause(PauseReason.SIGNED_OUT, read_exc.code)
            return
        except InvalidIdError as read_exc:  # a target id that cannot be read (an edited file)
            await self._set(item, ItemState.FAILED, error_code=read_exc.code)
            return
        except (APIStatusError, MalformedResponseError) as read_exc:
            self._back_off()
            log.info("%s: reading back %s failed (%s)", self.job.id, item.seq, read_exc.code)
            failures = self._read_failures[item.seq] = self._read_failures.get(item.seq, 0) + 1
            if failures >= MAX_ATTEMPTS:  # it cannot be told: left to a person
                await self._set(
                    item,
                    ItemState.UNKNOWN,
                    error_code=read_exc.code,
                    request_id=read_exc.request_id,
                    note=NOTE_UNREADABLE,
                )
            else:  # still ``sending``: read back on the next pass
                self._unread += 1
            return
        if self.action.check(now):
            await self._set(
                item, ItemState.DONE, after=item.new, error_code=None, note=NOTE_VERIFIED
            )
        elif now is None:
            await self._set(item, ItemState.FAILED, error_code=Code.NOT_FOUND)
        elif not self.action.idempotent:
            await self._set(item, ItemState.UNKNOWN, note=NOTE_NOT_SEEN)
        elif not self.action.unchanged(now, item.current):
            await self._set(item, ItemState.UNKNOWN, note=NOTE_CHANGED)
        else:
            await self._again(item)

    async def _reconcile(self) -> None:
        """Resolve every item left ``sending`` (a crash, a dropped connection, a 5xx answer),
        each once its request can no longer be applied: at its ``sent_until``, or, when that
        is not recorded (a version-1 file), one whole window from now.

        Never later than a window and a lease from now: this runner holds the job's lock, so
        whoever sent those requests sent them before now (a ``sent_until`` further away was
        written by a clock set wrong, or by hand)."""
        self._unread = 0
        now = self.settling.wall()
        unknown, latest = now + self.window, now + self.window + self.settling.lease

        def until(item: Item) -> float:
            return min(item.sent_until if item.sent_until is not None else unknown, latest)

        waiting = sorted(self.job.items([ItemState.SENDING]), key=until)
        for item in waiting:
            if self._cancelled or self.paused:
                return
            if self.action.checkable and not await self._settle(until(item), len(waiting)):
                return
            await self._resolve(item)
        if self._unread:
            # Some could not be read (the server failed): wait as after a refusal, then the
            # next pass reads them again.
            await self._flush()
            wait = self._not_before - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)

    async def _settle(self, until: float, count: int) -> bool:
        """Wait until ``until`` (wall clock), showing it in the progress; False when paused
        or cancelled meanwhile."""
        if self.settling.wall() < until:
            log.info(
                "%s: waiting %.1f s before reading back %d unanswered request(s)",
                self.job.id,
                until - self.settling.wall(),
                count,
            )
        try:
            while not (self._cancelled or self.paused):
                left = until - self.settling.wall()
                if left <= 0:
                    return True
                if self._settling_until != until:
                    self._settling_until = until
                    self._publish(now=True)
                await self.settling.sleep(min(left, SETTLE_STEP))
            return False
        finally:
            if self._settling_until is not None:
                self._settling_until = None
                self._publish(now=True)

    # Bookkeeping ----------------------------------------------------------------------------

    def _back_off(self) -> None:
        """Wait longer after each refusal; refusals of one burst (answers to requests sent
        before the wait began) count once."""
        now = self.clock()
        if now < self._not_before:
            return
        self._delay = min(self.backoff.maximum, max(self.backoff.initial, self._delay * 2))
        self._not_before = now + self._delay

    async def _set(
        self, item: Item, state: ItemState, *, unknown_send: bool = False, **fields: Any
    ) -> None:
        """Record an item's outcome or return to ``planned``. Not waited for: it is committed
        in order with later writes, and a crash before then leaves the item ``sending``, which
        is read back."""
        self._track(
            self.job.set_items([item.seq], state, urgent=False, unknown_send=unknown_send, **fields)
        )
        self._count(item, state)

    def _track(self, written: asyncio.Future[None]) -> None:
        """Keep a write that is not waited for, so that ``_flush`` waits for it."""
        self._unsettled.add(written)
        written.add_done_callback(self._settled)

    def _requeue(self, item: Item) -> None:
        self._held[item.seq] = item
        self._queue.append(item.seq)

    def _count(self, item: Item, state: ItemState) -> None:
        """Move ``item`` to ``state`` in the tally (its copy follows the file)."""
        counts = self._tally.counts
        counts[str(item.state)] -= 1
        counts[str(state)] = counts.get(str(state), 0) + 1
        item.state = state
        if state is ItemState.SENDING:
            item.attempts += 1
        if state in FINAL:
            self._tally.finished_at.append(self.clock())
        self._publish()

    def _settled(self, written: asyncio.Future[None]) -> None:
        self._unsettled.discard(written)
        if not written.cancelled() and written.exception() is not None:
            self._write_error = written.exception()

    async def _flush(self) -> None:
        """Wait until every recorded state is on disk; raise a failed write's error."""
        self.job.commit()
        if self._unsettled:
            await asyncio.gather(*list(self._unsettled), return_exceptions=True)
        if self._write_error is not None:
            raise self._write_error

    def _publish(self, *, now: bool = False) -> None:
        """Tell ``on_progress``: at once for a change of state, else at most every
        ``publish_every`` seconds (the last counts always arrive with the final state)."""
        if self.on_progress is None:
            return
        clock = self.clock()
        if now or clock - self._published >= self.publish_every:
            self._published = clock
            self.on_progress(self.progress())
