"""Response headers: a Content Security Policy with no inline script on every answer, no inline
script or style attribute in any page, and in production HSTS and the redirect to https, so that
`manage.py check --deploy` finds nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.frontend.test_frontend_pages import PAGES

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "APP_ENV": "production",
    "SECRET_KEY": "q8#Vn2!xLp0@Rz7$Tw4%Yk1^Bm6&Hc3*Jd9(Fs5)Ga8_Pe2+Ui",
    "DAILY_SECRET": "d" * 32,
    "ALLOWED_HOSTS": "league.example",
}


def policy(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.parametrize("path", [*PAGES, "/api/variants", "/api/docs/", "/players/nobody/"])
def test_every_answer_has_a_policy_that_allows_no_inline_script(path: str) -> None:
    directives = policy(Client().get(path))
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"]
    assert directives["base-uri"] == ["'none'"]


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"<[^>]+\sstyle\s*=", re.IGNORECASE)


@pytest.mark.parametrize("path", [*PAGES, "/players/nobody/", "/api/docs/"])
def test_no_page_has_an_inline_script_handler_or_style_attribute(path: str) -> None:
    html = Client().get(path).content.decode()
    assert not INLINE_SCRIPT.search(html)
    assert not HANDLER.search(html)
    assert not STYLE_ATTRIBUTE.search(html) and "<style" not in html


def test_no_template_of_the_site_has_one_either() -> None:
    for template in (ROOT / "frontend" / "templates").rglob("*.html"):
        text = template.read_text()
        assert not INLINE_SCRIPT.search(text), template
        assert not HANDLER.search(text), template
        assert not STYLE_ATTRIBUTE.search(text), template


def test_the_api_docs_script_is_a_file_of_the_site() -> None:
    client = Client()
    page = client.get("/api/docs/").content.decode()
    script = re.search(r'<script src="(/api/docs/\?[^"]*script[^"]*)"', page)
    assert script is not None
    answer = client.get(script.group(1).replace("&amp;", "&"))
    assert answer.status_code == 200 and answer["Content-Type"].startswith("application/javascript")


def _django(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_", "DEBUG", "SECRET_KEY"))}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(args, cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_in_production() -> None:
    done = _django(PRODUCTION, sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


SHOW = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD, "
    "s.SECURE_PROXY_SSL_HEADER)"
)


def test_https_settings_come_from_the_environment() -> None:
    production = _django(PRODUCTION, sys.executable, "-c", SHOW)
    assert production.stdout.split() == ["True", "31536000", "True", "True", "('HTTP_X_FORWARDED_PROTO',", "'https')"]
    development = _django({}, sys.executable, "-c", SHOW)
    assert development.stdout.split() == ["False", "0", "False", "False", "None"]
    plain = {"SECURE_SSL_REDIRECT": "false", "SECURE_HSTS_SECONDS": "0", "TRUST_X_FORWARDED_PROTO": "false"}
    behind_plain_http = _django({**PRODUCTION, **plain}, sys.executable, "-c", SHOW)
    assert behind_plain_http.stdout.split()[:2] == ["False", "0"]
    assert behind_plain_http.stdout.split()[-1] == "None"


def test_production_redirects_to_https_and_sends_hsts(settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    plain = Client().get("/api/variants")
    assert plain.status_code == 301 and plain["Location"] == "https://testserver/api/variants"
    secure = Client().get("/api/variants", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
