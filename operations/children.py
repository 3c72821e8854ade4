"""The processes `make run` (operations.run) and `make cluster` (operations.cluster) start and stop
(docs/operations.md, "The closer beside the workers"): each in a process group of its own, so Ctrl-C
reaches only the parent, which stops them in order; each ends when the parent ends (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from signal import SIGTERM  # the class below has a method named signal
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
CLOSER_LOOP_SECONDS = 60
FIRST_BACKOFF = 1.0
LAST_BACKOFF = 60.0
STEADY_SECONDS = 300.0  # a child that ran this long before it died starts its back-off over

_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never a proxy


def closer_command() -> list[str]:
    """The closer, as docker-compose.yml's `closer` service runs it."""
    return [sys.executable, "manage.py", "close_dailies", "--loop", str(CLOSER_LOOP_SECONDS)]


def die_with_parent() -> None:
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG (Linux)
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


def say(line: str) -> None:
    print(line, flush=True)


def answers(url: str) -> int | None:
    """The HTTP status `url` answers with (None: no answer)."""
    try:
        with _opener.open(url, timeout=2) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except (OSError, ValueError):
        return None


def serve(
    start: Callable[[], None], step: Callable[[], int | None], stop: Callable[[], None], tell: Callable[[str], None]
) -> int:
    """`start`, then `step` every half second until it gives an exit status. SIGTERM or SIGINT (once:
    a second one meanwhile does not cut the stop short) stops instead, with status 0; `stop` either way."""
    stopping = False

    def interrupt(signum: int, _frame: object) -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, interrupt)
    try:
        start()
        while (code := step()) is None:
            time.sleep(0.5)
        return code
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        tell("stopping (the workers drain first)")
        return 0
    finally:
        stop()


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
                process_group=0,
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

    def wait_answering(self, url: str, timeout: float) -> None:
        """Until `url` answers 200; RuntimeError if this child ends first, TimeoutError after `timeout`."""
        deadline = time.monotonic() + timeout
        while answers(url) != 200:
            if (code := self.poll()) is not None:
                raise RuntimeError(f"the {self.name} exited with {code}{self.tail()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the {self.name} did not answer {url} in {timeout:.0f} s{self.tail()}")
            time.sleep(0.2)

    def tail(self, lines: int = 30) -> str:
        if self.log is None or not self.log.exists():
            return ""
        return ":\n" + "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


class Supervised(Child):
    """A child started again whenever it dies (`check()`, called every second or so), after a
    back-off of 1, 2, 4 ... up to 60 s, each time said by `tell`."""

    def __init__(
        self,
        name: str,
        command: Sequence[str],
        env: Mapping[str, str],
        log: Path | None,
        *,
        tell: Callable[[str], None],
    ) -> None:
        super().__init__(name, command, env, log)
        self.tell = tell
        self.backoff = FIRST_BACKOFF
        self.started_at = 0.0
        self.restart_at: float | None = None
        self.stopping = False

    def start(self) -> None:
        super().start()
        self.started_at = time.monotonic()
        self.restart_at = None

    def check(self) -> None:
        code = None if self.stopping else self.poll()
        if code is None:
            return
        now = time.monotonic()
        if self.restart_at is None:
            if now - self.started_at >= STEADY_SECONDS:
                self.backoff = FIRST_BACKOFF
            self.restart_at = now + self.backoff
            self.tell(f"the {self.name} {ended(code)}; starting it again in {self.backoff:.0f} s")
            self.backoff = min(self.backoff * 2, LAST_BACKOFF)
        elif now >= self.restart_at:
            self.start()
            self.tell(f"the {self.name} started again (pid {self.pid})")

    def stop(self, timeout: float, signum: int = SIGTERM) -> int | None:
        self.stopping = True
        return super().stop(timeout, signum)
