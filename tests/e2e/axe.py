"""axe-core in the browser tests: the accessibility rules engine, from the npm registry
(scripts/axe.sh installs it into var/axe), run on a page as a person sees it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[2] / "var" / "axe" / "node_modules" / "axe-core" / "axe.min.js"

_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 6).map((n) => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n")[1]),
    count: v.nodes.length,
  }));
}"""


def require_axe() -> None:
    if AXE.exists():
        return
    if os.environ.get("CI"):
        pytest.fail("axe-core is not installed: scripts/axe.sh should have installed it")
    pytest.skip("axe-core is not installed (scripts/axe.sh)")


def violations(page: Any) -> list[dict[str, Any]]:
    """Every axe violation on the page now (the page's context must bypass CSP to load axe)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return list(page.evaluate(_RUN))
