"""Game codes and variants, short and long (docs/codes.md)."""

from __future__ import annotations

import pytest

from games.engine import (
    ALL_VARIANTS,
    DAILY_VARIANTS,
    DEAL_NUMBERS,
    LONG_DEAL_NUMBERS,
    Game,
    GameCode,
    InvalidCode,
    parse_variant,
)


def test_constants() -> None:
    assert DEAL_NUMBERS == 26**7
    assert LONG_DEAL_NUMBERS == 26**20
    assert DAILY_VARIANTS == ("SP1-S1C", "SP1-S2C", "SP1-S4C", "SD1-S1", "SD1-S2", "SD1-S4", "RU1-C")
    assert set(ALL_VARIANTS) == {
        "SP1-S1C",
        "SP1-S2C",
        "SP1-S2R",
        "SP1-S4C",
        "SP1-S4R",
        "SD1-S1",
        "SD1-S2",
        "SD1-S4",
        "RU1-C",
        "RU1-R",
    }


@pytest.mark.parametrize(
    ("text", "fields", "canonical"),
    [
        ("SP1-S1C-AAAAAAD", ("SP", 1, "C", 3), "SP1-S1C-AAAAAAD"),
        ("sd1-s1-aaaaabd", ("SD", 1, "C", 29), "SD1-S1-AAAAABD"),
        ("  RU1-c-AAAAABB \n", ("RU", 4, "C", 27), "RU1-C-AAAAABB"),
        ("Sp1-S4r-ZZZZZZZ", ("SP", 4, "R", 26**7 - 1), "SP1-S4R-ZZZZZZZ"),
        ("\tRU1-R-AAAAAAA", ("RU", 4, "R", 0), "RU1-R-AAAAAAA"),
    ],
)
def test_parse_valid(text: str, fields: tuple[str, int, str, int], canonical: str) -> None:
    code = GameCode.parse(text)
    assert (code.game, code.suits, code.rule, code.number) == fields
    assert not code.long
    assert str(code) == canonical
    assert GameCode.parse(str(code)) == code


def test_properties() -> None:
    assert GameCode.parse("SP1-S4C-AAAAAAD").variant == "SP1-S4C"
    assert GameCode.parse("SD1-S2-AAAAAAD").variant == "SD1-S2"
    assert GameCode.parse("RU1-C-AAAAAAD").variant == "RU1-C"
    assert GameCode.parse("SP1-S4C-AAAAAAD").game_name == "Spider"
    assert GameCode.parse("SD1-S2-AAAAAAD").game_name == "Spiderette"
    assert GameCode.parse("RU1-C-AAAAAAD").game_name == "Russian Solitaire"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("SP1-S1R-AAAAAAA", "one suit"),
        ("SP1-S3C-AAAAAAA", "1, 2 or 4 suits"),
        ("SD1-S3-AAAAAAA", "1, 2 or 4 suits"),
        ("SD1-S2C-AAAAAAA", "no rule letter"),
        ("SP1-S2-AAAAAAA", "needs a rule"),
        ("SP1-S2X-AAAAAAA", "Classic"),
        ("RU1-X-AAAAAAA", "Classic"),
        ("RU1-S4C-AAAAAAA", "Classic"),
        ("XX1-C-AAAAAAA", "Unknown game"),
        ("SP2-S4C-AAAAAAA", "version"),
        ("SP-S4C-AAAAAAA", "version"),
        ("SP1-S4C-AAAAAA", "7 or 20 letters A-Z, like AAAAAAD; 'AAAAAA' has 6"),
        ("SP1-S4C-AAAAAAAA", "7 or 20 letters A-Z, like AAAAAAD; 'AAAAAAAA' has 8"),
        ("SP1-S4C-" + "A" * 19, "has 19"),
        ("SP1-S4C-" + "A" * 21, "has 21"),
        ("SP1-S4C-" + "A" * 19 + "1", "letters A-Z"),
        ("SP1-S1R-" + "A" * 20, "one suit"),
        ("SP1-S4C-AAAAA1A", "letters A-Z"),
        ("SP1-S4C-AAAAA A", "letters A-Z"),
        ("SP1-S4C", "three parts"),
        ("SP1-S4C-AAAA-AAA", "three parts"),
        ("", "empty"),
        ("   ", "empty"),
        ("SP1-S4C-AAAAAAÄ", "A-Z"),
        ("SP1-S4C-AAAAAAſ", "A-Z"),  # 'ſ'.upper() == 'S': still refused
        ("SP1-SxC-AAAAAAA", "number of suits"),
    ],
)
def test_parse_invalid_names_the_problem(text: str, words: str) -> None:
    with pytest.raises(InvalidCode) as info:
        GameCode.parse(text)
    assert words in info.value.message
    assert isinstance(info.value, ValueError)
    assert str(info.value) == info.value.message


@pytest.mark.parametrize("value", [None, 3, b"SP1-S4C-AAAAAAA", ["SP1-S4C-AAAAAAA"]])
def test_parse_non_string(value: object) -> None:
    with pytest.raises(InvalidCode, match="text"):
        GameCode.parse(value)


def test_variants_and_numbers() -> None:
    assert parse_variant(" sp1-s4c ") == "SP1-S4C"
    assert parse_variant("sd1-s2") == "SD1-S2"
    assert parse_variant("ru1-r") == "RU1-R"
    for text in ("SP1-S1R", "SP1-S4C-AAAAAAA", "SD1-S2C", "RU1", 7):
        with pytest.raises(InvalidCode):
            parse_variant(text)
    code = GameCode.from_variant("sp1-s2c", 29)
    assert str(code) == "SP1-S2C-AAAAABD"
    for number in (-1, DEAL_NUMBERS, True, 1.0, "3"):
        with pytest.raises(InvalidCode):
            GameCode.from_variant("SP1-S2C", number)  # type: ignore[arg-type]
    with pytest.raises(InvalidCode):
        GameCode("SP", 1, "R", 0)


@pytest.mark.parametrize(
    ("text", "number", "canonical"),
    [
        ("SP1-S1C-AAAAAAAAAAAAAAAAAAAD", 3, "SP1-S1C-AAAAAAAAAAAAAAAAAAAD"),
        (" sp1-s4c-qwertyuiopasdfghjklz ", None, "SP1-S4C-QWERTYUIOPASDFGHJKLZ"),
        ("RU1-C-ZZZZZZZZZZZZZZZZZZZZ", 26**20 - 1, "RU1-C-ZZZZZZZZZZZZZZZZZZZZ"),
    ],
)
def test_parse_long(text: str, number: int | None, canonical: str) -> None:
    code = GameCode.parse(text)
    assert code.long
    assert number is None or code.number == number
    assert str(code) == canonical
    assert GameCode.parse(str(code)) == code
    assert GameCode.from_variant(code.variant, code.number, long=True) == code


def test_the_number_of_letters_picks_the_deal_not_the_number() -> None:
    short, long = GameCode.parse("SP1-S1C-AAAAAAD"), GameCode.parse("SP1-S1C-AAAAAAAAAAAAAAAAAAAD")
    assert short.number == long.number == 3 and short != long
    assert Game.from_code(short).state()["columns"] != Game.from_code(long).state()["columns"]


def test_long_numbers_are_checked() -> None:
    assert str(GameCode.from_variant("RU1-R", 1, long=True)) == "RU1-R-AAAAAAAAAAAAAAAAAAAB"
    for number in (-1, LONG_DEAL_NUMBERS, True):
        with pytest.raises(InvalidCode):
            GameCode.from_variant("SP1-S2C", number, long=True)
    with pytest.raises(InvalidCode, match="0 to 8031810175"):
        GameCode.from_variant("SP1-S2C", DEAL_NUMBERS)  # a short code's number stays below 26^7


def test_game_from_code_accepts_text_or_code() -> None:
    assert Game.from_code("sp1-s1c-aaaaaad").code == GameCode.parse("SP1-S1C-AAAAAAD")
    assert str(Game.from_code(GameCode.parse("RU1-C-AAAAABB")).code) == "RU1-C-AAAAABB"
    with pytest.raises(InvalidCode):
        Game.from_code("SP1-S1R-AAAAAAA")
