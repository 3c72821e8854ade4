"""`python -m operations.cluster` (`make cluster`): nginx on 127.0.0.1:8080 in front of N workers on this
machine, and the closer (docs/operations.md, "One machine: make cluster"). The tests and the benches
start the same `Cluster` on free ports (without the closer unless asked).

Needs DATABASE_URL and REDIS_URL (the Makefile points them at the local servers) and nginx
(scripts/nginx.sh installs Debian's).
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
from collections.abc import Callable, Mapping
from pathlib import Path

from operations.children import ROOT, Child, Supervised, closer_command, say, serve

TEMPLATE = ROOT / "deploy" / "nginx" / "league.conf.template"
MAIN_CONF = ROOT / "deploy" / "nginx" / "nginx.conf"
LOOPBACK = "127.0.0.1"
FAIL_SECONDS = 3  # a worker that failed a connection is passed over this long

_PLACEHOLDER = re.compile(r"\$\{(LEAGUE_[A-Z_]+)\}")


def render(values: Mapping[str, str]) -> str:
    """The template with each ${LEAGUE_...} replaced, as the nginx image's envsubst does (nginx's own
    `$variables` stay); a placeholder without a value is an error, not an empty string."""
    return _PLACEHOLDER.sub(lambda found: values[found.group(1)], TEMPLATE.read_text())


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


def nginx_command(directory: Path, *arguments: str) -> list[str]:
    binary = nginx_binary()
    if binary is None:
        raise FileNotFoundError("nginx is not installed (scripts/nginx.sh installs Debian's)")
    return [binary, *arguments, "-p", f"{directory}/", "-c", "nginx.conf", "-e", "stderr"]


def check_config(directory: Path) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on a prefix directory made by write_prefix."""
    return subprocess.run(nginx_command(directory, "-t", "-q"), capture_output=True, text=True, timeout=30)


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
        self.wait_answering(f"{self.url}/health/ready", timeout)


class Cluster:
    """nginx on `listen_port` in front of one worker per port in `worker_ports`, all on loopback.

    `log_dir` keeps each process's output in files (else this process's own). With `closer`, the
    closer runs beside them once the workers are ready; `check()` starts it again when it died.
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
        # nginx connects from loopback: its X-Forwarded-For is believed, no one else's.
        self.env = {**env, "TRUSTED_PROXIES": LOOPBACK}
        self.listen_port = listen_port
        self.workers = [Worker(port, self.env, _log(log_dir, f"worker-{port}")) for port in worker_ports]
        self.closer = (
            Supervised(
                "closer", closer_command(), self.env, _log(log_dir, "closer"), tell=lambda x: tell(f"cluster: {x}")
            )
            if closer
            else None
        )
        self.prefix = Path(tempfile.mkdtemp(prefix="league-nginx-"))
        self.access_log = "/dev/stdout" if log_dir is None else str(log_dir / "nginx-access.log")
        command = nginx_command(self.prefix, "-g", "daemon off;") if nginx_binary() else []
        self.nginx = Child("nginx", command, self.env, _log(log_dir, "nginx-error"))

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.listen_port}"

    @property
    def ws(self) -> str:
        return f"ws://{LOOPBACK}:{self.listen_port}"

    @property
    def closer_pid(self) -> int | None:
        return None if self.closer is None else self.closer.pid

    def start(self) -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # sockets are files: as many as allowed
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        listen = f"{LOOPBACK}:{self.listen_port}"
        write_prefix(
            self.prefix, loopback_values([w.port for w in self.workers], listen=listen, access_log=self.access_log)
        )
        checked = check_config(self.prefix)
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t refused the configuration:\n{checked.stderr}")
        for worker in self.workers:
            worker.start()
        for worker in self.workers:
            worker.wait_ready()
        self.nginx.start()
        self.nginx.wait_answering(f"{self.url}/health/alive", 20)
        if self.closer is not None:
            self.closer.start()

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
        self.nginx.stop(timeout=15, signum=signal.SIGQUIT)
        shutil.rmtree(self.prefix, ignore_errors=True)


def _log(log_dir: Path | None, name: str) -> Path | None:
    return None if log_dir is None else log_dir / f"{name}.log"


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
                say(f"cluster: created database {name}")
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
    if nginx_binary() is None:
        parser.error("nginx is not installed (scripts/nginx.sh installs Debian's)")
    env = {"LOG_FORMAT": "json", "DEBUG": "false", **os.environ, "PYTHONUNBUFFERED": "1"}  # DEBUG keeps every query
    _prepare(env)
    ports = list(range(args.first_worker_port, args.first_worker_port + args.workers))
    cluster = Cluster(worker_ports=ports, listen_port=args.port, env=env, closer=True)
    running = set(ports)

    def start() -> None:
        cluster.start()
        say(
            f"cluster: nginx on {cluster.url} in front of {args.workers} workers on 127.0.0.1:{ports[0]}-{ports[-1]} "
            f"(health: /health/ready; metrics: each worker's /metrics), and the closer (pid {cluster.closer_pid}). "
            "Ctrl-C stops everything."
        )

    def step() -> int | None:
        cluster.check()
        for worker in cluster.workers:
            code = worker.poll()
            if worker.port in running and code is not None:
                running.discard(worker.port)
                say(f"cluster: the worker on {worker.port} exited ({code}); the others go on")
        return None if running else 1

    return serve(start, step, cluster.stop, lambda line: say(f"cluster: {line}"))


if __name__ == "__main__":
    sys.exit(main())
