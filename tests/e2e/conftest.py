"""Browser tests: daphne serves the whole app (HTTP and WebSockets) on a free loopback port
against pytest-django's test database (PostgreSQL's, or SQLite's file); Playwright drives Debian's Chromium.

pytest-django's live_server cannot speak WebSocket, so the server is a real daphne process.
The test process reaches the database only through `django_db_blocker` when a test needs it.
"""

from __future__ import annotations

import os
import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.loopback import free_port, serving, worker_env

# Playwright's sync API runs an event loop in this thread; the ORM calls made here are plain sync code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SHOTS = Path(__file__).resolve().parent / "screenshots"
SCREENS = Path(__file__).resolve().parent / "screens"  # the reviewed screenshots, committed
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}


# Package scope: Playwright's sync API keeps an event loop running in this thread while it is open,
# which the async tests elsewhere in the suite cannot share; it closes when tests/e2e is done.
@pytest.fixture(scope="package")
def server(django_db_setup: None, django_db_blocker) -> Iterator[str]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):  # CI installs it: a missing browser there is a failure, not a skip
            pytest.fail("Debian's chromium is not installed: scripts/chromium.sh should have installed it")
        pytest.skip("Debian's chromium is not installed (scripts/chromium.sh)")
    port = free_port()
    # The tests script their daily attempts' actions as fast as a machine sends them, which the
    # fair-play pace screen rightly holds (docs/dailies.md): its lines are lifted here and tested
    # in tests/games/test_fair_play_signals.py.
    fair = {"FAIR_PLAY_PACE_ACTIONS": "100000", "FAIR_PLAY_PACE_RUN": "100000"}
    # DEBUG on: static files are served straight from the apps, as in `make run`.
    env = worker_env(DEBUG="true", **fair)
    SHOTS.mkdir(exist_ok=True)
    url = f"http://127.0.0.1:{port}"

    def answers() -> None:
        try:
            urllib.request.urlopen(f"{url}/jsi18n/", timeout=2).close()
        except urllib.error.HTTPError:
            pass  # it answers: a broken page fails its own test

    # What `make run` and production run: daphne with the graceful stop.
    with serving("config.asgi:application", port=port, env=env, log=SHOTS / "daphne.log", ready=answers, within=30):
        yield url


@pytest.fixture(autouse=True)
def _todays_dailies_prepared(request: pytest.FixtureRequest, django_db_blocker) -> None:
    """Today's dailies stored as the closer stores them, as a running service has them; a test
    marked `unprepared` stores them itself (or sees them being prepared)."""
    if request.node.get_closest_marker("unprepared") is not None or "server" not in request.fixturenames:
        return
    from django.utils import timezone

    from games.dailies.schedule import utc_today
    from tests.daily_helpers import store_unsettled_dailies

    with django_db_blocker.unblock():
        store_unsettled_dailies(utc_today(timezone.now()))


@pytest.fixture(scope="package")
def browser(server: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


def _blocked(text: str, errors: list[str]) -> None:
    if "Content Security Policy" in text:
        errors.append(text)


def new_page(browser, server: str, *, viewport=DESKTOP, locale: str = "en-US", has_touch: bool = False):
    context = browser.new_context(
        base_url=server, viewport=viewport, locale=locale, has_touch=has_touch, reduced_motion="reduce"
    )
    page = context.new_page()
    page.set_default_timeout(8000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Anything the Content Security Policy blocked (an inline script or style, another origin) is an error too.
    page.on("console", lambda message: _blocked(message.text, errors))
    page.js_errors = errors  # type: ignore[attr-defined]
    return page


@pytest.fixture
def page(browser, server: str):
    page = new_page(browser, server)
    yield page
    errors = page.js_errors
    page.context.close()
    assert not errors, f"JavaScript errors: {errors}"


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def keep(page, name: str) -> None:
    """A screenshot for the reviewed set beside the tests: SCREENS=update copies it into screens/."""
    shot(page, name)
    if os.environ.get("SCREENS") == "update":
        SCREENS.mkdir(exist_ok=True)
        shutil.copy(SHOTS / f"{name}.png", SCREENS / f"{name}.png")
