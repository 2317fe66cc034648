"""In-memory sliding-window counters (rate limits reset when the process restarts)."""

from __future__ import annotations

import threading
from collections import deque


class RateLimiter:
    """Counts events per key inside a sliding window."""

    def __init__(self) -> None:
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _window(self, key: str, window: float, now: float) -> deque[float]:
        events = self._events.setdefault(key, deque())
        while events and events[0] <= now - window:
            events.popleft()
        return events

    def count(self, key: str, window: float, now: float) -> int:
        """Events recorded for ``key`` in the last ``window`` seconds."""
        with self._lock:
            return len(self._window(key, window, now))

    def hit(self, key: str, now: float) -> None:
        """Record one event."""
        with self._lock:
            self._events.setdefault(key, deque()).append(now)

    def allow(self, key: str, limit: int, window: float, now: float) -> bool:
        """Record an event unless ``limit`` events already happened in the window."""
        with self._lock:
            events = self._window(key, window, now)
            if len(events) >= limit:
                return False
            events.append(now)
            return True

    def clear(self, key: str) -> None:
        """Forget a key."""
        with self._lock:
            self._events.pop(key, None)
