"""The sign-in page's script never leaves the site, whatever its `next` says: it reads the target
with the browser's own parser (the server's check is in tests/security/test_open_redirect.py)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import new_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HOSTILE = ["/\\evil.example", "/\t/evil.example", "//evil.example", "/.//evil.example", "https://evil.example/x"]


def test_the_script_reads_a_target_on_another_site_as_the_home_page(browser, server) -> None:
    page = new_page(browser, server)
    page.goto("/account/signup/")
    page.get_by_label("Name").fill("lander")
    page.get_by_label("Password").fill("a long pass phrase 8")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(server + "/")

    page.goto("/account/signin/?next=/leaderboards/")
    read = page.evaluate(
        """async (targets) => {
            const { sameSitePath } = await import("/static/frontend/js/pages/account.js");
            return targets.map(sameSitePath);
        }""",
        [*HOSTILE, "/leaderboards/?page=2"],
    )
    assert read == ["/"] * len(HOSTILE) + ["/leaderboards/?page=2"]

    # Even were the server's check to let one through, signing in lands on this site.
    page.locator("[data-auth]").evaluate("(form) => { form.dataset.next = '/\\\\evil.example'; }")
    page.get_by_label("Name").fill("lander")
    page.get_by_label("Password").fill("a long pass phrase 8")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(server + "/")
    assert not page.js_errors
    page.context.close()
