"""The balancer's configuration (deploy/nginx) as `make cluster` and docker-compose.yml fill it in,
checked by nginx itself (`nginx -t`), and docker-compose.yml checked by a compose client."""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from operations import cluster

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"


def _need(found: object, what: str) -> None:
    if found:
        return
    message = f"{what} is not installed (make test installs it: scripts/nginx.sh, scripts/compose.sh)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def _nginx_version() -> tuple[int, ...]:
    binary = cluster.nginx_binary()
    assert binary is not None
    said = subprocess.run([binary, "-v"], capture_output=True, text=True).stderr
    found = re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", said)
    assert found, said
    return tuple(int(part) for part in found.groups())


def _check(tmp_path: Path, values: dict[str, str]) -> subprocess.CompletedProcess[str]:
    cluster.write_prefix(tmp_path, values)
    return cluster.check_config(tmp_path)


def test_every_placeholder_of_the_template_is_filled_in_by_both_deployments() -> None:
    placeholders = set(re.findall(r"\$\{(LEAGUE_[A-Z_]+)\}", cluster.TEMPLATE.read_text()))
    assert placeholders == {"LEAGUE_LISTEN", "LEAGUE_SERVERS", "LEAGUE_RESOLVER", "LEAGUE_ACCESS_LOG"}
    loopback = cluster.loopback_values([8001], listen="127.0.0.1:8080", access_log="/dev/stdout")
    assert set(loopback) == placeholders
    compose_env = _compose()["services"]["nginx"]["environment"]
    assert placeholders <= set(compose_env)
    assert re.fullmatch(r"\^LEAGUE_", compose_env["NGINX_ENVSUBST_FILTER"])  # only ours: nginx's $vars stay


def test_the_loopback_cluster_configuration_passes_nginx_t(tmp_path: Path) -> None:
    _need(cluster.nginx_binary(), "nginx")
    values = cluster.loopback_values([8001, 8002, 8003], listen="127.0.0.1:8080", access_log=str(tmp_path / "a.log"))
    checked = _check(tmp_path, values)
    assert checked.returncode == 0, checked.stderr
    rendered = (tmp_path / "league.conf").read_text()
    assert "${" not in rendered
    assert len(re.findall(r"^\s+server 127\.0\.0\.1:800[123] max_fails=1 ", rendered, re.M)) == 3
    assert not re.search(
        r"^\s*keepalive\s", rendered, re.M
    )  # a draining worker must never close a kept connection under a POST


def test_the_compose_configuration_passes_nginx_t(tmp_path: Path) -> None:
    """The same template with docker-compose.yml's values. Its `server web:8000 resolve` line needs
    nginx 1.27.3 or later (the official image has it): an older nginx checks everything else,
    with that one line pointed at loopback."""
    _need(cluster.nginx_binary(), "nginx")
    values = {k: v for k, v in _compose()["services"]["nginx"]["environment"].items() if k.startswith("LEAGUE_")}
    assert re.fullmatch(r"server web:8000 resolve max_fails=\d+ fail_timeout=\d+s;", values["LEAGUE_SERVERS"])
    assert values["LEAGUE_RESOLVER"].startswith("resolver 127.0.0.11 ")  # Docker's own DNS on every network
    if _nginx_version() < (1, 27, 3):
        values["LEAGUE_SERVERS"] = "server 127.0.0.1:8000 max_fails=1 fail_timeout=3s;"
    checked = _check(tmp_path, values)
    assert checked.returncode == 0, checked.stderr


def test_the_compose_file_is_valid_and_scales(tmp_path: Path) -> None:
    plugin = (
        shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0
    )
    legacy = shutil.which("docker-compose")
    _need(plugin or legacy, "a compose client")
    command = ["docker", "compose"] if plugin else [str(legacy)]
    env = {**os.environ, "SECRET_KEY": "s" * 40, "DAILY_SECRET": "d" * 20}
    checked = subprocess.run([*command, "-f", str(COMPOSE), "config", "-q"], capture_output=True, text=True, env=env)
    assert checked.returncode == 0, checked.stderr
    services = _compose()["services"]
    web, nginx = services["web"], services["nginx"]
    assert "ports" not in web and "container_name" not in web, "replicas of web cannot share a published port or name"
    assert nginx["ports"] == ["8000:80"] and nginx["depends_on"]["web"]["condition"] == "service_healthy"
    assert web["depends_on"]["migrate"]["condition"] == "service_completed_successfully"  # migrated once, first
    assert "/health/ready" in " ".join(web["healthcheck"]["test"])
    (mount,) = nginx["volumes"]
    source, target, _ = mount.split(":")
    assert (ROOT / source).resolve() == cluster.TEMPLATE and target == "/etc/nginx/templates/default.conf.template"
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r'^CMD \["python", "-m", "operations.server", ', dockerfile, re.M), (
        "the worker must be PID 1 (exec form) to get SIGTERM"
    )


def test_the_workers_believe_x_forwarded_for_from_nginx_alone() -> None:
    """daphne's --proxy-headers believes anyone: the image never passes it, and compose's workers
    trust nginx's own fixed address on the project's network (operations/forwarded.py)."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--proxy-headers" not in dockerfile
    compose = _compose()
    services = compose["services"]
    nginx_address = ipaddress.ip_address(services["nginx"]["networks"]["default"]["ipv4_address"])
    (subnet,) = (ipaddress.ip_network(entry["subnet"]) for entry in compose["networks"]["default"]["ipam"]["config"])
    assert nginx_address in subnet
    trusted = [ipaddress.ip_network(entry) for entry in services["web"]["environment"]["TRUSTED_PROXIES"].split(",")]
    assert trusted == [ipaddress.ip_network(nginx_address)]
    assert "ports" not in services["web"]  # the workers listen on the project's network only
