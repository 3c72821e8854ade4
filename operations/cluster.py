"""`python -m operations.cluster` (`make cluster`): nginx on 127.0.0.1:8080 in front of N workers on this machine.

Migrates the database (creating it if missing) and collects the static files, starts N workers
(operations.server, default: cores + 1) on 127.0.0.1:8001.. (trusting X-Forwarded-For from
loopback only: TRUSTED_PROXIES=127.0.0.1) and nginx with the same template as docker-compose.yml
(deploy/nginx), and the closer (close_dailies --loop 60, supervised: started again when it dies),
and stays in the foreground. Ctrl-C or SIGTERM stops everything it started: the closer, then the
workers drain (their sockets reconnect elsewhere when there is an elsewhere), then nginx quits.
The tests and the benches start the same `Cluster` on free ports (without the closer unless asked).

Needs DATABASE_URL and REDIS_URL (the Makefile points them at the local servers by default) and
nginx (scripts/nginx.sh installs Debian's).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path

from operations.children import ROOT, Child, Supervised, closer_command, die_with_parent, say, stop_on_signals

TEMPLATE = ROOT / "deploy" / "nginx" / "league.conf.template"
MAIN_CONF = ROOT / "deploy" / "nginx" / "nginx.conf"
LOOPBACK = "127.0.0.1"
# A worker that failed a connection is passed over this long before nginx tries it again.
FAIL_SECONDS = 3

_PLACEHOLDER = re.compile(r"\$\{(LEAGUE_[A-Z_]+)\}")
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never a proxy


def render(values: Mapping[str, str], template: str | None = None) -> str:
    """The template with each ${LEAGUE_...} replaced, as the nginx image's envsubst does; nginx's
    own `$variables` stay. A placeholder without a value is an error, not an empty string."""
    text = TEMPLATE.read_text() if template is None else template
    return _PLACEHOLDER.sub(lambda found: values[found.group(1)], text)


def loopback_values(worker_ports: list[int], *, listen: str, access_log: str) -> dict[str, str]:
    servers = "\n    ".join(
        f"server {LOOPBACK}:{port} max_fails=1 fail_timeout={FAIL_SECONDS}s;" for port in worker_ports
    )
    return {"LEAGUE_LISTEN": listen, "LEAGUE_SERVERS": servers, "LEAGUE_RESOLVER": "", "LEAGUE_ACCESS_LOG": access_log}


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def write_prefix(directory: Path, values: Mapping[str, str]) -> None:
    """nginx's prefix directory: the main file, the rendered league.conf, and room for its temp files."""
    (directory / "temp").mkdir(parents=True, exist_ok=True)
    directory.chmod(0o755)  # nginx's worker processes run as nobody when the master is root
    shutil.copyfile(MAIN_CONF, directory / "nginx.conf")
    (directory / "league.conf").write_text(render(values))


def check_config(directory: Path) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on a prefix directory made by write_prefix."""
    binary = nginx_binary()
    if binary is None:
        raise FileNotFoundError("nginx is not installed (scripts/nginx.sh installs Debian's)")
    command = [binary, "-t", "-q", "-p", f"{directory}/", "-c", "nginx.conf", "-e", "stderr"]
    return subprocess.run(command, capture_output=True, text=True, timeout=30)


def raise_open_file_limit() -> None:
    """Sockets are files: let this process and its children (nginx, the workers) open as many as allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _answers(url: str) -> int | None:
    try:
        with _opener.open(url, timeout=2) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except (OSError, ValueError):
        return None


class Worker(Child):
    """One operations.server process on a loopback port."""

    def __init__(self, port: int, env: Mapping[str, str], log: Path | None) -> None:
        command = [sys.executable, "-m", "operations.server", "-b", LOOPBACK, "-p", str(port)]
        super().__init__(f"worker on {port}", [*command, "config.asgi:application"], env, log)
        self.port = port

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while _answers(f"{self.url}/health/ready") != 200:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"the worker on {self.port} exited with {self.process.returncode}{self.tail()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the worker on {self.port} was not ready in {timeout:.0f} s{self.tail()}")
            time.sleep(0.2)


class Cluster:
    """nginx on `listen_port` in front of one worker per port in `worker_ports`, all on loopback.

    `log_dir` keeps each worker's output and nginx's access log in files; without it everything
    goes to this process's stdout and stderr (the foreground run). With `closer`, the closer runs
    beside them (started once the workers are ready), supervised: `check()` starts it again when
    it died.
    """

    def __init__(
        self,
        *,
        worker_ports: list[int],
        listen_port: int,
        env: Mapping[str, str],
        log_dir: Path | None = None,
        closer: bool = False,
        tell: Callable[[str], None] = say,
    ) -> None:
        # nginx connects to the workers from loopback: its X-Forwarded-For is believed, no one else's
        # (the workers listen on loopback only, so no one off this machine reaches them directly).
        self.env = {**env, "TRUSTED_PROXIES": LOOPBACK}
        self.listen_port = listen_port
        self.log_dir = log_dir
        self.workers = [
            Worker(port, self.env, None if log_dir is None else log_dir / f"worker-{port}.log") for port in worker_ports
        ]
        self.closer = None
        if closer:
            log = None if log_dir is None else log_dir / "closer.log"
            self.closer = Supervised(
                "closer", closer_command(), self.env, log, tell=lambda line: tell(f"cluster: {line}")
            )
        self.prefix = Path(tempfile.mkdtemp(prefix="league-nginx-"))
        self.access_log = "/dev/stdout" if log_dir is None else str(log_dir / "nginx-access.log")
        self.nginx: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.listen_port}"

    @property
    def ws(self) -> str:
        return f"ws://{LOOPBACK}:{self.listen_port}"

    def start(self) -> None:
        raise_open_file_limit()
        values = loopback_values(
            [w.port for w in self.workers], listen=f"{LOOPBACK}:{self.listen_port}", access_log=self.access_log
        )
        write_prefix(self.prefix, values)
        checked = check_config(self.prefix)
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t refused the configuration:\n{checked.stderr}")
        for worker in self.workers:
            worker.start()
        for worker in self.workers:
            worker.wait_ready()
        binary = nginx_binary()
        assert binary is not None  # check_config found it
        errors = None if self.log_dir is None else (self.log_dir / "nginx-error.log").open("ab")
        try:
            self.nginx = subprocess.Popen(
                [binary, "-p", f"{self.prefix}/", "-c", "nginx.conf", "-e", "stderr", "-g", "daemon off;"],
                stderr=errors,
                process_group=0,
                preexec_fn=die_with_parent,
            )
        finally:
            if errors is not None:
                errors.close()
        deadline = time.monotonic() + 20
        while _answers(f"{self.url}/health/alive") != 200:
            if self.nginx.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start on {self.listen_port}")
            time.sleep(0.1)
        if self.closer is not None:
            self.closer.start()

    @property
    def closer_pid(self) -> int | None:
        return None if self.closer is None else self.closer.pid

    def check(self) -> None:
        """Start the closer again if it died (after its back-off)."""
        if self.closer is not None:
            self.closer.check()

    def stop(self, *, drain_seconds: float = 30) -> None:
        """The closer stops, the workers drain (SIGTERM), then nginx finishes what it is passing on and quits."""
        if self.closer is not None:
            self.closer.stop(timeout=15)
        for worker in self.workers:
            worker.signal(signal.SIGTERM)
        for worker in self.workers:
            worker.wait(timeout=drain_seconds)
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait(timeout=10)
        shutil.rmtree(self.prefix, ignore_errors=True)


def _prepare(env: Mapping[str, str]) -> None:
    """The database exists and is migrated; the static files are collected (DEBUG is off)."""
    url = env.get("DATABASE_URL") or ""
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg
        from psycopg import sql

        base, _, name = url.rpartition("/")
        name = name.split("?", 1)[0]
        with psycopg.connect(f"{base}/postgres", autocommit=True, connect_timeout=10) as connection:
            if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
                connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
                print(f"cluster: created database {name}", flush=True)
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=dict(env), check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=(os.cpu_count() or 1) + 1, help="daphne workers (cores + 1)")
    parser.add_argument("--port", type=int, default=8080, help="where nginx listens on 127.0.0.1")
    parser.add_argument("--first-worker-port", type=int, default=8001, help="workers listen from here up")
    args = parser.parse_args()
    if not 1 <= args.workers <= 64:
        parser.error("--workers is 1 to 64")
    missing = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name)]
    if missing:
        parser.error(f"set {' and '.join(missing)} (make cluster points them at the local servers)")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.setdefault("LOG_FORMAT", "json")
    env.setdefault("DEBUG", "false")  # DEBUG keeps every query in memory: never in front of a balancer
    if nginx_binary() is None:
        parser.error("nginx is not installed (scripts/nginx.sh installs Debian's)")
    _prepare(env)
    ports = list(range(args.first_worker_port, args.first_worker_port + args.workers))
    cluster = Cluster(worker_ports=ports, listen_port=args.port, env=env, closer=True)
    stop_on_signals()
    try:
        cluster.start()
        print(
            f"cluster: nginx on {cluster.url} in front of {args.workers} workers on 127.0.0.1:{ports[0]}-{ports[-1]} "
            f"(health: /health/ready; metrics: each worker's /metrics), and the closer (pid {cluster.closer_pid}). "
            "Ctrl-C stops everything.",
            flush=True,
        )
        running = {w.port for w in cluster.workers}
        while running:
            time.sleep(1)
            cluster.check()
            for worker in cluster.workers:
                code = worker.process.poll() if worker.process is not None else None
                if worker.port in running and code is not None:
                    running.discard(worker.port)
                    print(f"cluster: the worker on {worker.port} exited ({code}); the others go on", flush=True)
        return 1
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("cluster: stopping (the workers drain first)", flush=True)
        return 0
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
