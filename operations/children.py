"""The processes `make run` (operations.run) and `make cluster` (operations.cluster) start and stop.

Each child runs in a process group of its own, so the terminal's Ctrl-C reaches only the parent,
which stops its children in order (the workers drain); and each ends when the parent ends
(PR_SET_PDEATHSIG), so nothing is left behind even if the parent is killed outright.

The closer (`manage.py close_dailies --loop 60`, docs/dailies.md) is a `Supervised` child: when it
dies it is started again after a back-off that doubles up to a minute, and the terminal is told.
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from signal import SIGTERM  # the class below has a method named signal
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
CLOSER_LOOP_SECONDS = 60
FIRST_BACKOFF = 1.0
LAST_BACKOFF = 60.0
# A child that ran this long before it died starts its back-off over.
STEADY_SECONDS = 300.0


def closer_command() -> list[str]:
    """The closer, as docker-compose.yml's `closer` service runs it."""
    return [sys.executable, "manage.py", "close_dailies", "--loop", str(CLOSER_LOOP_SECONDS)]


def die_with_parent() -> None:
    """In the child: end when the process that started it ends (Linux), so nothing is left behind."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def ended(code: int) -> str:
    """How a child ended, from its exit status (negative: the signal that ended it)."""
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited (status {code})"


def stop_on_signals() -> None:
    """SIGTERM or SIGINT (Ctrl-C) raise KeyboardInterrupt in the foreground process, once: it then
    stops what it started in order, and a second signal meanwhile does not cut that short."""
    stopping = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


def say(line: str) -> None:
    print(line, flush=True)


class Child:
    """One process: its output goes to `log` (appended) or, without one, to this process's own."""

    def __init__(self, name: str, command: Sequence[str], env: Mapping[str, str], log: Path | None) -> None:
        self.name = name
        self.command = list(command)
        self.env = dict(env)
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def start(self) -> None:
        out: IO[bytes] | None = self.log.open("ab") if self.log is not None else None
        try:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT if out is not None else None,
                process_group=0,  # Ctrl-C reaches the parent, which stops its children in order
                preexec_fn=die_with_parent,
            )
        finally:
            if out is not None:
                out.close()

    def poll(self) -> int | None:
        """The exit status once it has ended, else None (also before it started)."""
        return None if self.process is None else self.process.poll()

    def signal(self, signum: int) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signum)

    def wait(self, timeout: float) -> int | None:
        """Its exit status; killed if it has not ended within `timeout` (then None)."""
        if self.process is None:
            return None
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
            return None

    def stop(self, timeout: float, signum: int = SIGTERM) -> int | None:
        self.signal(signum)
        return self.wait(timeout)

    def tail(self, lines: int = 30) -> str:
        if self.log is None or not self.log.exists():
            return ""
        return ":\n" + "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


class Supervised(Child):
    """A child started again whenever it dies (`check()`, called every second or so), after a
    back-off of 1, 2, 4 ... up to 60 s, each time said on the terminal by `tell`."""

    def __init__(
        self,
        name: str,
        command: Sequence[str],
        env: Mapping[str, str],
        log: Path | None,
        *,
        tell: Callable[[str], None] = say,
        first_backoff: float = FIRST_BACKOFF,
    ) -> None:
        super().__init__(name, command, env, log)
        self.tell = tell
        self.first_backoff = first_backoff
        self.backoff = first_backoff
        self.started_at = 0.0
        self.restart_at: float | None = None
        self.stopping = False
        self.restarts = 0

    def start(self) -> None:
        super().start()
        self.started_at = time.monotonic()
        self.restart_at = None

    def check(self) -> None:
        if self.stopping:
            return
        code = self.poll()
        if code is None:
            return
        now = time.monotonic()
        if self.restart_at is None:
            if now - self.started_at >= STEADY_SECONDS:
                self.backoff = self.first_backoff
            self.restart_at = now + self.backoff
            self.tell(f"the {self.name} {ended(code)}; starting it again in {self.backoff:.0f} s")
            self.backoff = min(self.backoff * 2, LAST_BACKOFF)
        elif now >= self.restart_at:
            self.start()
            self.restarts += 1
            self.tell(f"the {self.name} started again (pid {self.pid})")

    def stop(self, timeout: float, signum: int = SIGTERM) -> int | None:
        self.stopping = True
        return super().stop(timeout, signum)
