"""Private Redis, PostgreSQL and daphne processes on free loopback ports, for fault tests.

Each can be stopped and started again on the same port, so a test can take a
backing service away and bring it back. Nothing here touches the machine's
shared PostgreSQL (5432) or Redis (6379).
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.loopback import free_port

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"


def port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((LOOPBACK, port)) == 0


def wait_until(condition: Callable[[], bool], *, timeout: float, what: str, every: float = 0.1) -> None:
    """Poll `condition` until it holds; fail with `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(every)
    raise TimeoutError(f"timed out after {timeout:.0f}s waiting for {what}")


def _need(binary: str | None, name: str) -> str:
    if binary:
        return binary
    message = f"{name} is not installed (scripts/services.sh installs it)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _stop(process: subprocess.Popen[bytes] | None, *, sig: int = signal.SIGTERM, timeout: float = 15) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(sig)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout)


class PrivateRedis:
    """redis-server without persistence unless asked: `stop(keep_data=True)` saves a dump it reloads."""

    def __init__(self) -> None:
        self.binary = _need(shutil.which("redis-server"), "redis-server")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="rel-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{LOOPBACK}:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", LOOPBACK, "--save", "", "--appendonly", "no"]
            + ["--dir", self.dir, "--logfile", os.path.join(self.dir, "redis.log")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(self._answers, timeout=20, what=f"redis on {self.port}")

    def _answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(host=LOOPBACK, port=self.port, socket_timeout=1).ping())
        except redis.RedisError:
            return False

    def stop(self, *, keep_data: bool = False) -> None:
        if keep_data and self.process is not None and self.process.poll() is None:
            import redis

            redis.Redis(host=LOOPBACK, port=self.port, socket_timeout=5).save()  # reloaded by the next start
        _stop(self.process)
        wait_until(lambda: not port_open(self.port), timeout=15, what=f"redis on {self.port} to stop")

    def close(self) -> None:
        _stop(self.process, sig=signal.SIGKILL)
        shutil.rmtree(self.dir, ignore_errors=True)


def _postgres_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    return found[-1] if found else shutil.which(name)


class PrivatePostgres:
    """A throwaway cluster in a temp dir (as the postgres OS user when run as root), trust auth on loopback."""

    def __init__(self) -> None:
        self.initdb = _need(_postgres_bin("initdb"), "initdb")
        self.pg_ctl = _need(_postgres_bin("pg_ctl"), "pg_ctl")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="rel-pg-")
        self.data = os.path.join(self.dir, "data")
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.dir, user="postgres")
        self._run([self.initdb, "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])

    def url(self, database: str = "league") -> str:
        return f"postgres://postgres@{LOOPBACK}:{self.port}/{database}"

    def _run(self, command: list[str]) -> None:
        subprocess.run(self.as_user + command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses={LOOPBACK} -c unix_socket_directories={self.dir} -c fsync=off"
        self._run([self.pg_ctl, "-D", self.data, "-l", os.path.join(self.dir, "pg.log"), "-o", options, "-w", "start"])
        wait_until(lambda: port_open(self.port), timeout=30, what=f"postgres on {self.port}")

    def stop(self) -> None:
        """A fast shutdown: open transactions roll back, clients are cut off."""
        self._run([self.pg_ctl, "-D", self.data, "-m", "fast", "-w", "stop"])
        wait_until(lambda: not port_open(self.port), timeout=30, what=f"postgres on {self.port} to stop")

    def port_is_serving(self) -> bool:
        return port_open(self.port)

    def create_database(self, name: str = "league") -> None:
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')

    def close(self) -> None:
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            subprocess.run(
                self.as_user + [self.pg_ctl, "-D", self.data, "-m", "immediate", "-w", "stop"],
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(self.dir, ignore_errors=True)


def manage(env: dict[str, str], *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


class Daphne:
    """One daphne process serving config.asgi on a free loopback port."""

    def __init__(self, env: dict[str, str], log_dir: str) -> None:
        self.env = env
        self.port = free_port()
        self.log_path = os.path.join(log_dir, f"daphne-{self.port}.log")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://{LOOPBACK}:{self.port}"

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                # As production runs it: daphne with the graceful stop (operations.server).
                [
                    sys.executable,
                    "-m",
                    "operations.server",
                    "-b",
                    LOOPBACK,
                    "-p",
                    str(self.port),
                    "config.asgi:application",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_until(self._serving, timeout=60, what=f"daphne on {self.port}", every=0.2)

    def _serving(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"daphne exited with {self.process.returncode}:\n{self.log_tail()}")
        return port_open(self.port)

    def kill(self) -> None:
        """SIGKILL: the process dies at once, whatever it was doing."""
        _stop(self.process, sig=signal.SIGKILL)

    def close(self) -> None:
        _stop(self.process)

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(Path(self.log_path).read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""
