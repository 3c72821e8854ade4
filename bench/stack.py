"""The real stack on loopback for a bench run, and the figures every bench prints.

`Stack` creates its own PostgreSQL database (`bench_<pid>`), migrates it, and
starts N daphne processes on free loopback ports, with Redis on a dedicated
database index and a key prefix of its own. `stop()` (also on exit, Ctrl-C,
SIGTERM and the run's own time limit) ends exactly the processes it started,
deletes the Redis keys it made and drops the database.

Clients spread over the ports, or with `start_balancer()` go through nginx in
front of them (the same configuration as `make cluster`, deploy/nginx), to
measure what the balancer costs beside direct connections in one sitting.
"""

from __future__ import annotations

import atexit
import contextlib
import math
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PG = "postgres://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379"
# A run may be told its database and Redis index (BENCH_DATABASE, BENCH_REDIS_DB) where several
# share the servers; the database is made afresh and dropped afterwards all the same.
REDIS_DB = int(os.environ.get("BENCH_REDIS_DB", "9"))
PYTHON = sys.executable

# What a load test on loopback lifts (docs/api.md, Rate limits: every limit is an env setting).
LOAD_ENV = {
    "RATE_ACTIONS": "1000000",
    "RATE_SUBMISSIONS": "1000000",
    "RATE_SUBMISSIONS_PER_ADDRESS": "1000000",
    "RATE_SESSION_STARTS": "1000000",
    "RATE_SESSION_STARTS_PER_ADDRESS": "1000000",
    "RATE_GUESTS": "1000000",
    "RATE_ROOMS": "1000000",
    "RATE_ROOMS_PER_ADDRESS": "1000000",
    "RATE_SIGNUPS": "1000000",
    "RATE_WS_MESSAGES": "1000000",
    "RATE_LOGIN_FAILURES": "1000000",
    "RATE_LOGIN_FAILURES_PER_ADDRESS": "1000000",
}


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _psql(sql: str, db: str = "postgres") -> None:
    import psycopg

    with psycopg.connect(f"{PG}/{db}", autocommit=True) as conn:
        conn.execute(sql)


class Stack:
    """PostgreSQL database + Redis prefix + `workers` daphne processes, all owned by this run."""

    def __init__(
        self,
        *,
        workers: int = 2,
        conn_max_age: int = 600,
        env: dict[str, str] | None = None,
        time_limit: float = 600.0,
        quiet: bool = False,
        app: str = "config.asgi:application",
    ) -> None:
        self.tag = f"bench_{os.getpid()}"
        self.app = app
        self.db = os.environ.get("BENCH_DATABASE") or self.tag
        self.workers = workers
        self.time_limit = time_limit
        self.quiet = quiet
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "APP_ENV": "development",
            "DEBUG": "false",  # DEBUG keeps every query in memory: never under load
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": f"{PG}/{self.db}",
            "DB_CONN_MAX_AGE": str(conn_max_age),
            "REDIS_URL": f"{REDIS}/{REDIS_DB}",
            "CHANNEL_PREFIX": self.tag,
            "CACHE_PREFIX": self.tag,
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
            **LOAD_ENV,
            **(env or {}),
        }
        self.procs: list[subprocess.Popen[bytes]] = []
        self.ports: list[int] = []
        self.db_created = False
        self.logs: list[Path] = []
        self._stopped = False
        self.nginx: subprocess.Popen[bytes] | None = None
        self.nginx_dir: Path | None = None
        self.balancer_port = 0
        self.through_balancer = False  # http()/ws() give nginx's address instead of a worker's

    # ------------------------------------------------------------ lifecycle

    def __enter__(self) -> Stack:
        self.start()
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is not None and kind is not SystemExit:
            print(f"--- daphne logs ---\n{self.tail()}", file=sys.stderr)
        self.stop()

    def start(self) -> None:
        raise_fd_limit()
        atexit.register(self.stop)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM):
            signal.signal(sig, _exit_on_signal)
        signal.alarm(int(self.time_limit))  # the run stops by itself, whatever happens
        t0 = time.perf_counter()
        _psql(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)')
        _psql(f'CREATE DATABASE "{self.db}"')
        self.db_created = True
        subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=self.env, check=True)
        for n in range(self.workers):
            self.start_worker(n)
        self.wait_ready()
        self.say(
            f"stack: database {self.db}, redis db {REDIS_DB} prefix {self.tag}, "
            f"{self.workers} daphne on ports {self.ports} ({time.perf_counter() - t0:.1f} s to start)"
        )
        self.say(host_speed())

    def start_worker(self, n: int) -> None:
        port = free_port()
        log = Path(f"/tmp/{self.tag}_daphne{n}.log")
        self.logs.append(log)
        with log.open("wb") as out:
            proc = subprocess.Popen(
                # As production runs each worker (operations.server: daphne with the graceful stop).
                [
                    PYTHON,
                    "-m",
                    "operations.server",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "--access-log",
                    "/dev/null",
                    self.app,
                ],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=raise_fd_limit,
            )
        self.procs.append(proc)
        self.ports.append(port)

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        for proc, port in zip(self.procs, self.ports):
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"daphne on {port} exited: {self.tail()}")
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"daphne on {port} did not start: {self.tail()}")
                time.sleep(0.1)

    def start_balancer(self) -> None:
        """nginx on a free port in front of the workers (operations.cluster's rendering of deploy/nginx)."""
        from operations import cluster

        binary = cluster.nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (scripts/nginx.sh installs Debian's)")
        self.balancer_port = free_port()
        self.nginx_dir = Path(tempfile.mkdtemp(prefix=f"{self.tag}_nginx_"))
        values = cluster.loopback_values(self.ports, listen=f"127.0.0.1:{self.balancer_port}", access_log="/dev/null")
        cluster.write_prefix(self.nginx_dir, values)
        checked = cluster.check_config(self.nginx_dir)
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t: {checked.stderr}")
        self.nginx = subprocess.Popen(
            [binary, "-p", f"{self.nginx_dir}/", "-c", "nginx.conf", "-e", "stderr", "-g", "daemon off;"],
            preexec_fn=raise_fd_limit,
        )
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.balancer_port), timeout=0.5):
                break
            if self.nginx.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("nginx did not start")
            time.sleep(0.05)
        self.say(f"stack: nginx on port {self.balancer_port} in front of {self.ports}")

    def nginx_pids(self) -> list[int]:
        """nginx's master and its worker processes."""
        if self.nginx is None or self.nginx.poll() is not None:
            return []
        children = Path(f"/proc/{self.nginx.pid}/task/{self.nginx.pid}/children")
        with contextlib.suppress(OSError):
            return [self.nginx.pid, *(int(pid) for pid in children.read_text().split())]
        return [self.nginx.pid]

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        signal.alarm(0)
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait()
        if self.nginx_dir is not None:
            shutil.rmtree(self.nginx_dir, ignore_errors=True)
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        boards: list[str] = []
        if self.db_created:
            with contextlib.suppress(Exception):
                boards = self._boards()
        self._clean_redis(boards)
        if self.db_created:
            _psql(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)')
            self.db_created = False
        for log in self.logs if not os.environ.get("BENCH_KEEP_LOGS") else []:
            with contextlib.suppress(OSError):
                log.unlink()
        self.say(f"stack: stopped {len(self.procs)} daphne, dropped {self.db}, cleaned redis db {REDIS_DB}")

    def _boards(self) -> list[str]:
        import psycopg

        with psycopg.connect(self.env["DATABASE_URL"]) as conn:
            return [row[0] for row in conn.execute("SELECT DISTINCT board FROM leaderboard_boardentry")]

    def _clean_redis(self, boards: Sequence[str]) -> None:
        import redis

        from leaderboard.ranking import rank_index

        client = redis.Redis.from_url(f"{REDIS}/{REDIS_DB}")
        keys = list(client.scan_iter(match=f"{self.tag}*", count=1000))
        for board in boards:  # the rank index keys carry no prefix: only this run's boards
            keys += rank_index.keys(board)
        for i in range(0, len(keys), 1000):
            client.delete(*keys[i : i + 1000])
        client.close()

    # ------------------------------------------------------------- helpers

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, flush=True)

    def tail(self, lines: int = 80) -> str:
        return "\n".join(
            "\n".join(log.read_text(errors="replace").splitlines()[-lines:]) for log in self.logs if log.exists()
        )

    def port(self, i: int) -> int:
        """Where client `i` connects: a worker's port, or nginx's when going through the balancer."""
        return self.balancer_port if self.through_balancer else self.ports[i % len(self.ports)]

    def http(self, i: int) -> str:
        return f"http://127.0.0.1:{self.port(i)}"

    def ws(self, i: int) -> str:
        return f"ws://127.0.0.1:{self.port(i)}"

    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs]

    def django(self) -> None:
        """Use Django in this (driver) process against the stack's database: for bulk set-up only."""
        for key in (
            "DJANGO_SETTINGS_MODULE",
            "DATABASE_URL",
            "REDIS_URL",
            "CHANNEL_PREFIX",
            "CACHE_PREFIX",
            "DEBUG",
            "ALLOWED_HOSTS",
            "LOG_LEVEL",
            *LOAD_ENV,
        ):
            os.environ[key] = self.env[key]
        os.environ["DB_CONN_MAX_AGE"] = "600"
        import django

        django.setup()


def _exit_on_signal(signum: int, _frame: Any) -> None:
    raise SystemExit(f"stopped by signal {signal.Signals(signum).name}")


# ---------------------------------------------------------------- set-up data


def make_players(count: int, prefix: str = "b") -> list[tuple[int, str]]:
    """`count` players with API tokens, straight into the database: [(player id, token key)]."""
    from rest_framework.authtoken.models import Token

    from games.models import Player

    players = Player.objects.bulk_create(
        [Player(username=f"{prefix}{i}", password="!") for i in range(count)], batch_size=2000
    )
    tokens = Token.objects.bulk_create([Token(user=p, key=Token.generate_key()) for p in players], batch_size=2000)
    return [(t.user_id, t.key) for t in tokens]


def headers(token: str, port: int | None = None) -> dict[str, str]:
    h = {"Authorization": f"Token {token}"}
    if port is not None:
        h["Origin"] = f"http://127.0.0.1:{port}"
    return h


# --------------------------------------------------------------------- figures


def percentile(sorted_values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, math.ceil(p / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


def summary(name: str, latencies_s: Iterable[float], seconds: float | None = None, unit: str = "ms") -> str:
    """`name: count N, X/s, p50 / p95 / p99 / max` with latencies given in seconds."""
    values = sorted(latencies_s)
    scale = 1000.0 if unit == "ms" else 1.0
    rate = f", {len(values) / seconds:,.0f}/s" if seconds else ""
    if not values:
        return f"{name}: count 0{rate}"
    return (
        f"{name}: count {len(values):,}{rate}, p50 {percentile(values, 50) * scale:.2f} {unit}, "
        f"p95 {percentile(values, 95) * scale:.2f} {unit}, p99 {percentile(values, 99) * scale:.2f} {unit}, "
        f"max {values[-1] * scale:.2f} {unit}"
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process so far (from /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pids_named(name: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
    return found


# PostgreSQL's own processes that work for every database (the WAL and the buffers).
_POSTGRES_SHARED = ("walwriter", "checkpointer", "background writer")


def postgres_pids(db: str) -> list[int]:
    """The backends serving `db` and the shared writers: not the backends of other databases, so
    the figure holds while other work uses the same server."""
    found = []
    for pid in pids_named("postgres"):
        with contextlib.suppress(OSError):
            title = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").rstrip("\x00 ")
            # "postgres: 15/main: postgres <db> 127.0.0.1(port) idle", "...: autovacuum worker <db>"
            if f" {db} " in f"{title} " or title.endswith(_POSTGRES_SHARED):
                found.append(pid)
    return found


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class CpuMeter:
    """CPU seconds spent by the daphne workers, PostgreSQL, Redis and this driver over a span."""

    def __init__(self, stack: Stack, driver: Sequence[int] = ()) -> None:
        """`driver`: the driver's other processes, counted with this one."""
        self.groups = {
            "daphne": lambda: stack.pids(),
            "postgres": lambda: postgres_pids(stack.db),
            "redis": lambda: pids_named("redis-server"),
            "driver": lambda: [os.getpid(), *driver],
        }
        if stack.nginx is not None:
            self.groups["nginx"] = stack.nginx_pids
        self.start = self._read()
        self.t0 = time.perf_counter()

    def _read(self) -> dict[str, dict[int, float]]:
        return {name: {pid: cpu_seconds(pid) for pid in pids()} for name, pids in self.groups.items()}

    def report(self, work: int, what: str = "action") -> str:
        wall = time.perf_counter() - self.t0
        end = self._read()
        parts = []
        self.per_work: dict[str, float] = {}  # microseconds of each group per unit of work
        for name in self.groups:
            used = sum(end[name][pid] - self.start[name].get(pid, 0.0) for pid in end[name])
            if work:
                self.per_work[name] = used / work * 1e6
            per = f", {used / work * 1e6:,.0f} us/{what}" if work else ""
            parts.append(f"{name} {used / wall * 100:.0f}% of a core{per}")
        return f"cpu over {wall:.1f} s: " + "; ".join(parts)


_PROBE_LOOPS = 2_000_000


def host_speed() -> str:
    """How fast this host runs plain Python just now: the best of three runs of one fixed loop.
    The shared hosts these benches run on change speed from hour to hour (by 3x on 5 Dec 2026), so
    figures from two sittings compare only beside this line; within a sitting, pairs do."""
    best = math.inf
    for _ in range(3):
        t0 = time.perf_counter()
        total = 0
        for i in range(_PROBE_LOOPS):
            total += i
        best = min(best, time.perf_counter() - t0)
    return f"host: {_PROBE_LOOPS / best / 1e6:.1f} M loop steps/s of plain Python (best of 3; higher is faster)"
