"""How fast play through the real page can go: the gaps between a game's actions as the server
stamps them (GameAction.at), for games played in headless Chromium by double-click and the stock,
the way a person plays them (docs/dailies.md, "Fair play": the pace screen's lines sit well outside
this).

Run: .venv/bin/python bench/pace.py [--games N] [--actions N] [--settle MS,...]

For each settle time it plays `--games` free-play games on the stack of bench/stack.py (one worker),
acting through the page's own controls the moment the page shows the previous answer, after the
given settle (0: the page's floor, a machine driving the page; 250: the e2e helpers' wait), and
prints the gaps' median, 5th percentile and shortest, and the longest run under the run line.
Animations run (no reduced motion), as a player sees them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import os  # noqa: E402

from bench.stack import Stack, percentile  # noqa: E402

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API keeps a loop in this thread

CHROMIUM = "/usr/bin/chromium"
VARIANTS = ("SD1-S1", "SP1-S1C", "RU1-C")


def _csrf(page) -> str:  # type: ignore[no-untyped-def]
    return next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")


def play_one(page, variant: str, actions: int, settle_ms: int) -> str:  # type: ignore[no-untyped-def]
    """One game through the page: a double-click on a group the server names as having a best
    place, else the stock; each the moment the page shows the last answer (plus the settle)."""
    page.goto("/rules/spider/")
    answer = page.request.post(
        "/api/sessions", data={"variant": variant}, headers={"X-CSRFToken": _csrf(page), "Referer": page.url}
    )
    assert answer.ok, answer.text()
    doc = answer.json()
    page.goto(f"/play/{doc['id']}/")
    page.locator(".connection[data-state=open]").wait_for()
    tried: set[str] = set()
    for n in range(actions):
        doc = page.request.get(f"/api/sessions/{doc['id']}").json()
        if doc.get("finished"):
            break
        if settle_ms:
            page.wait_for_timeout(settle_ms)
        groups = [key for key in doc.get("best") or {} if key not in tried]
        if groups:
            key = groups[n % len(groups)]
            tried.add(key)  # a group shuttled back and forth would loop: each once per game
            col, count = key.split(":")
            page.locator(f'.column[data-col="{col}"] [data-n="{count}"]').dblclick(position={"x": 20, "y": 8})
        elif "D" in doc.get("legal", []):
            page.locator("[data-stock]").click()
        else:
            break
        page.locator("[data-moves]").filter(has_text=str(doc["view"]["moves"] + 1)).wait_for(timeout=8000)
    return str(doc["id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--settle", default="0,250")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with Stack(workers=1, env={"DEBUG": "true"}, time_limit=900) as stack:
        stack.django()
        from django.conf import settings

        from games.models import GameAction

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for settle in (int(s) for s in args.settle.split(",")):
                gaps: list[float] = []
                runs: list[int] = []
                for g in range(args.games):
                    context = browser.new_context(base_url=stack.http(0), viewport={"width": 1440, "height": 900})
                    page = context.new_page()
                    session = play_one(page, VARIANTS[g % len(VARIANTS)], args.actions, settle)
                    context.close()
                    stamps = list(
                        GameAction.objects.filter(session_id=session).order_by("seq").values_list("at", flat=True)
                    )
                    mine = [(b - a).total_seconds() * 1000 for a, b in zip(stamps, stamps[1:]) if a and b]
                    gaps += mine
                    run = longest = 0
                    for gap in mine:
                        run = run + 1 if gap < settings.FAIR_PLAY_PACE_RUN_MS else 0
                        longest = max(longest, run)
                    runs.append(longest + 1 if longest else 0)
                ordered = sorted(gaps)
                print(
                    f"settle {settle} ms: {len(gaps)} gaps over {args.games} games: median "
                    f"{statistics.median(ordered):.0f} ms, p5 {percentile(ordered, 5):.0f}, "
                    f"shortest {ordered[0]:.0f}; longest run under {settings.FAIR_PLAY_PACE_RUN_MS} ms: "
                    f"{max(runs)} actions",
                    flush=True,
                )
            browser.close()


if __name__ == "__main__":
    main()
