"""The committed deck is what scripts/draw_cards.py draws: every card of every set, and the backs."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "frontend/static/frontend/cards"


def _drawing():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("draw_cards", ROOT / "scripts/draw_cards.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_files_are_the_scripts_output() -> None:
    drawn = dict(_drawing().files())
    committed = {str(p.relative_to(CARDS)): p.read_text(encoding="utf-8") for p in CARDS.rglob("*.svg")}
    assert sorted(committed) == sorted(drawn), "run: python scripts/draw_cards.py"
    stale = [name for name, text in drawn.items() if committed[name] != text]
    assert not stale, f"run: python scripts/draw_cards.py (stale: {stale[:5]})"


def test_every_set_has_the_52_cards_as_well_formed_svg() -> None:
    cards = {rank + suit for suit in "SHDC" for rank in "A23456789TJQK"}
    for folder in ("full-two", "full-four", "compact-two", "compact-four"):
        names = {p.stem for p in (CARDS / folder).glob("*.svg")}
        assert names == cards, folder
        for path in (CARDS / folder).glob("*.svg"):
            root = ET.parse(path).getroot()
            assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox") == "0 0 250 350"
    assert {p.stem for p in (CARDS / "backs").glob("*.svg")} == {"blue", "red", "green"}


def test_four_colours_change_only_diamonds_and_clubs() -> None:
    for card in ("KD", "7C"):
        assert (CARDS / "full-two" / f"{card}.svg").read_text() != (CARDS / "full-four" / f"{card}.svg").read_text()
    for card in ("KS", "7H"):
        assert (CARDS / "full-two" / f"{card}.svg").read_text() == (CARDS / "full-four" / f"{card}.svg").read_text()
    assert "#1558c0" in (CARDS / "full-four/QD.svg").read_text()
    assert "#117a3a" in (CARDS / "full-four/QC.svg").read_text()
