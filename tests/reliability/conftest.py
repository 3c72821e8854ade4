"""Fixtures of the fault tests: a private PostgreSQL cluster (migrated once, one database per test),
a private Redis per test, and daphne processes started on demand. All are stopped in `finally`.
The tests are marked `postgres` and `redis`: they take the production services away."""

from __future__ import annotations

import itertools
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field

import pytest

from tests.loopback import service_env
from tests.reliability.procs import Daphne, PrivatePostgres, PrivateRedis, manage

TEMPLATE = "league_template"
_databases = itertools.count(1)


@pytest.fixture(scope="session")
def private_postgres() -> Iterator[PrivatePostgres]:
    cluster = PrivatePostgres()
    try:
        cluster.start()
        cluster.create_database(TEMPLATE)
        env = service_env(database_url=cluster.url(TEMPLATE), redis_url="")
        migrated = manage(env, "migrate", "--noinput")
        assert migrated.returncode == 0, migrated.stderr[-3000:]
        yield cluster
    finally:
        cluster.close()


@dataclass
class Stack:
    """One test's services: its own database in the private cluster, its own Redis, its daphnes."""

    postgres: PrivatePostgres
    redis: PrivateRedis
    database: str
    log_dir: str
    daphnes: list[Daphne] = field(default_factory=list)

    @property
    def database_url(self) -> str:
        return self.postgres.url(self.database)

    def env(self, **extra: str) -> dict[str, str]:
        return service_env(database_url=self.database_url, redis_url=self.redis.url, **extra)

    def daphne(self, **extra: str) -> Daphne:
        server = Daphne(self.env(**extra), self.log_dir)
        self.daphnes.append(server)
        server.start()
        return server

    def logs(self) -> str:
        return "\n".join(f"--- daphne {d.port}\n{d.log_tail()}" for d in self.daphnes)


@pytest.fixture
def stack(private_postgres: PrivatePostgres, request: pytest.FixtureRequest) -> Iterator[Stack]:
    import psycopg

    if not private_postgres.port_is_serving():
        private_postgres.start()  # a test before this one may have failed with it stopped
    name = f"league_{next(_databases)}"
    with psycopg.connect(private_postgres.url("postgres"), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    redis = PrivateRedis()
    log_dir = tempfile.mkdtemp(prefix="rel-logs-")
    built = Stack(postgres=private_postgres, redis=redis, database=name, log_dir=log_dir)
    try:
        redis.start()
        yield built
    finally:
        for server in built.daphnes:
            server.close()
        redis.close()
        if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
            print(built.logs())  # shown under "Captured stdout teardown"
        shutil.rmtree(log_dir, ignore_errors=True)


@pytest.fixture
def sockets() -> Iterator[ExitStack]:
    """Sockets a test opens with `sockets.enter_context(...)`; closed after it, whatever happened."""
    with ExitStack() as stack:
        yield stack


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keep each phase's report on the item, so a failed test can print its daphnes' logs."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
