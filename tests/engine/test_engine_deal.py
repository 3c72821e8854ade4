"""The deal procedure (docs/codes.md) and the layout facts of the seeds."""

from __future__ import annotations

import hashlib
from collections import Counter
from itertools import islice

import pytest

from games.engine import ALL_VARIANTS, Game, GameCode
from games.engine.deal import shuffle, unshuffled_deck
from games.engine.rng import sha256_stream, splitmix64


def test_splitmix64_first_outputs() -> None:
    assert list(islice(splitmix64(0), 2)) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


def test_sha256_stream_first_outputs() -> None:
    assert list(islice(sha256_stream(0), 2)) == [0x374708FFF7719DD5, 0x979EC875D56CD228]


def test_sha256_stream_reads_blocks_in_order() -> None:
    number = 26**20 - 1
    words = list(islice(sha256_stream(number), 12))
    for block in range(3):
        digest = hashlib.sha256(number.to_bytes(12, "big") + block.to_bytes(4, "big")).digest()
        assert words[4 * block : 4 * block + 4] == [int.from_bytes(digest[i : i + 8], "big") for i in (0, 8, 16, 24)]


def test_long_code_shuffle_uses_the_sha256_stream() -> None:
    deck = list(range(104))
    shuffle(deck, 5, long=True)
    expected = list(range(104))
    rng = sha256_stream(5)
    for i in range(103, 0, -1):
        j = next(rng) % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert deck == expected


def test_fisher_yates_uses_next_mod_i_plus_one() -> None:
    deck = list(range(5))
    shuffle(deck, 0)
    expected = list(range(5))
    rng = splitmix64(0)
    for i in range(4, 0, -1):
        j = next(rng) % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert deck == expected


def test_unshuffled_deck_runs() -> None:
    assert unshuffled_deck(26, 2)[:14] == list(range(13)) + [13]  # A..K of S, then AH
    assert unshuffled_deck(104, 1) == [i % 13 for i in range(104)]


# (cards, per-column sizes, face-down, stock) from the seeds and docs/rules.md (The table).
LAYOUT = {
    "SP": (104, [6, 6, 6, 6, 5, 5, 5, 5, 5, 5], 44, 50),
    "SD": (52, [1, 2, 3, 4, 5, 6, 7], 21, 24),
    "RU": (52, [1, 6, 7, 8, 9, 10, 11], 21, 0),
}


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize("number", [0, 1, 29, 26**7 - 1])
def test_layout_counts(variant: str, number: int) -> None:
    code = GameCode.from_variant(variant, number)
    cards, sizes, face_down, stock = LAYOUT[code.game]
    state = Game.from_code(code).state()
    columns = state["columns"]
    assert isinstance(columns, list)
    assert [len(c["down"]) + len(c["up"]) for c in columns] == sizes
    assert sum(len(c["down"]) for c in columns) == face_down
    assert sum(len(c["up"]) for c in columns) == sum(sizes) - face_down
    assert len(state["stock"]) == stock  # type: ignore[arg-type]
    if code.game == "RU":
        assert [len(c["down"]) for c in columns] == [0, 1, 2, 3, 4, 5, 6]
        assert [len(c["up"]) for c in columns] == [1, 5, 5, 5, 5, 5, 5]  # 31 face-up
    else:
        assert all(len(c["up"]) == 1 for c in columns)  # only the top card shows
    assert sum(sizes) + stock == cards


@pytest.mark.parametrize(
    ("variant", "composition"),
    [
        ("SP1-S1C", {"S": 8}),
        ("SP1-S2C", {"S": 4, "H": 4}),
        ("SP1-S4R", {"S": 2, "H": 2, "D": 2, "C": 2}),
        ("SD1-S1", {"S": 4}),
        ("SD1-S2", {"S": 2, "H": 2}),
        ("SD1-S4", {"S": 1, "H": 1, "D": 1, "C": 1}),
        ("RU1-C", {"S": 1, "H": 1, "D": 1, "C": 1}),
    ],
)
def test_deck_composition(variant: str, composition: dict[str, int]) -> None:
    """Each suit count gives runs of 13 per suit (e.g. 2 suits: 4 x 13 spades + 4 x 13 hearts)."""
    state = Game.from_code(GameCode.from_variant(variant, 12345)).state()
    cards = list(state["stock"])  # type: ignore[call-overload]
    for col in state["columns"]:  # type: ignore[attr-defined]
        cards += col["down"] + col["up"]
    expected = Counter({r + s: n for s, n in composition.items() for r in "A23456789TJQK"})
    assert Counter(cards) == expected


def test_stock_order_first_card_goes_to_column_one() -> None:
    game = Game.from_code("SP1-S4C-AAAAAAA")
    stock = game.state()["stock"]
    game.apply("D")
    tops = [c["up"][-1] for c in game.state()["columns"]]  # type: ignore[attr-defined]
    assert tops == stock[:10]  # type: ignore[index]


def test_spiderette_deals_seven_seven_seven_three() -> None:
    game = Game.from_code("SD1-S4-AAAAAAA")
    sizes = []
    for _ in range(4):
        before = game.stock_left
        game.apply("D")
        sizes.append(before - game.stock_left)
    assert sizes == [7, 7, 7, 3]
    columns = game.state()["columns"]
    assert [len(c["up"]) for c in columns] == [5, 5, 5, 4, 4, 4, 4]  # type: ignore[attr-defined]
    assert game.state()["stock"] == []
    assert game.refusal(game.legal_actions()[0]) is None


def test_same_code_same_deal_and_rule_letter_changes_only_rules() -> None:
    classic = Game.from_code("RU1-C-QWERTYU").state()
    relaxed = Game.from_code("RU1-R-QWERTYU").state()
    assert classic["columns"] == relaxed["columns"]
