"""Undo: 100 most recent actions, exact restore, no redo, Russian's counter never goes down."""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import games.engine
from games.engine import DealRow, Game, IllegalAction, Undo, parse_action
from games.engine.game import UNDO_LIMIT
from tests.engine.engine_helpers import position

RUN = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
ENGINE_FILES = str(Path(games.engine.__file__).parent / "*")


def test_only_the_100_most_recent_actions_can_be_undone() -> None:
    game = position("SP1-S1C-AAAAAAA", ["9S", ""])
    states = [game.state()]
    for i in range(150):
        game.apply("1:1>2" if i % 2 == 0 else "2:1>1")
        states.append(game.state())
    assert game.undo_available == 100
    for back in range(1, 101):
        game.apply("U")
        expected = dict(states[150 - back])
        expected["undo_available"] = 100 - back
        assert game.state() == expected
    assert game.undo_available == 0 and not game.is_legal(Undo())
    try:
        game.apply("U")
    except IllegalAction as error:
        assert error.message == "Nothing to undo"
    else:
        raise AssertionError("a 101st undo was accepted")


def test_undo_brings_back_a_removed_sequence_and_the_card_beneath_turns_down() -> None:
    game = position("SP1-S2C-AAAAAAA", [f"5H | {RUN}", "AS"])
    before = game.state()
    game.apply("2:1>1")
    assert game.state()["removed"] == ["S"]
    game.apply("U")
    assert game.state() == before
    assert game.score == 500 and game.moves == 0


def test_undo_of_a_deal_restores_the_stock() -> None:
    game = Game.from_code("SD1-S4-AAAAAAA")
    before = game.state()
    game.apply("D")
    game.apply("U")
    assert game.state() == before


def test_undo_of_a_deal_that_sends_two_sequences_home_puts_both_back_and_turns_the_card_down() -> None:
    runs = [f"5H | {RUN}", "3H", "4H", f"8D {RUN}", "9C", "TC", "JC", "QC", "KC", "2C"]
    game = position("SP1-S1C-AAAAAAA", runs, stock="AS 2D 3D AS 4D 5D 6D 7D 8D 9D")
    before = game.state()
    game.apply("D")
    dealt = game.state()
    assert dealt["removed"] == ["S", "S"] and dealt["score"] == 500 - 1 + 200
    assert dealt["columns"][0] == {"down": [], "up": ["5H"]}  # type: ignore[index]
    assert dealt["columns"][3] == {"down": [], "up": ["8D"]}  # type: ignore[index]
    assert game.peek() == DealRow()
    game.apply("U")
    assert game.state() == before


def test_undo_gives_back_a_score_below_zero() -> None:
    game = position("SD1-S1-AAAAAAA", ["9S", "", "TS"], stock="2D 3D 4D 5D 6D 7D 8D", score=-3)
    game.apply("1:1>2")
    game.apply("2:1>3")
    assert game.score == -5
    game.apply("U")
    assert game.score == -4 and game.peek() == parse_action("1:1>2")
    game.apply("U")
    assert game.score == -3


def held_by_engine(make: Callable[[], Game]) -> tuple[Game, int]:
    """A game made under tracing, and the bytes still held that the engine's code allocated
    (other threads of a test run allocate too, never in the engine)."""
    tracemalloc.start()
    try:
        game = make()
        snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(True, ENGINE_FILES)])
    finally:
        tracemalloc.stop()
    return game, sum(stat.size for stat in snapshot.statistics("filename"))


def test_a_copy_keeps_its_full_undo_history_in_a_few_bytes_an_action() -> None:
    # A worker's live cache keeps a copy of every game being played: the history was once most of it.
    def play(game: Game) -> Game:
        for i in range(UNDO_LIMIT):
            game.apply("1:1>2" if i % 2 == 0 else "2:1>1")
        return game

    play(position("SP1-S1C-AAAAAAA", ["9S", ""], score=700))  # the parsed moves are cached: not counted
    # The played game is let go once copied: what its copy still holds of its history is counted.
    kept, with_history = held_by_engine(lambda: play(position("SP1-S1C-AAAAAAA", ["9S", ""], score=700)).copy())
    fresh, without = held_by_engine(lambda: position("SP1-S1C-AAAAAAA", ["9S", ""], score=700).copy())
    assert kept.undo_available == UNDO_LIMIT and fresh.undo_available == 0
    assert with_history - without <= 12 * UNDO_LIMIT
    assert [kept.pop() for _ in range(2)] == [parse_action("2:1>1"), parse_action("1:1>2")]


def test_no_redo_each_undo_takes_back_the_one_before() -> None:
    game = position("SP1-S1C-AAAAAAA", ["9S", "", "TS"])
    start = game.state()
    game.apply("1:1>2")
    middle = game.state()
    game.apply("2:1>3")
    game.apply("U")
    assert game.state() == middle
    game.apply("U")
    assert game.state() == start
    assert not game.is_legal(Undo())


def test_russian_undo_restores_cards_faces_and_score_but_not_the_counter() -> None:
    game = position("RU1-C-AAAAAAA", ["4D | AS", "9C | 2S", "3S"])
    before = game.state()
    game.apply("1>F")
    game.apply("2:1>3")
    assert game.moves == 2 and game.score == 20
    game.apply("U")
    game.apply("U")
    after = game.state()
    assert after["moves"] == 2  # undo is not a move, and the counter does not go down
    assert {**after, "moves": 0} == before


def test_pop_and_peek_return_the_action_taken_back() -> None:
    from games.engine import DealRow, FromFoundation, Move, ToFoundation

    game = Game.from_code("SD1-S4-AAAAAAA")
    assert game.peek() is None
    game.apply("D")
    move = next(a for a in game.legal_actions() if isinstance(a, Move))
    game.push(move)
    assert game.peek() == move
    assert game.pop() == move
    assert game.pop() == DealRow()
    assert game.state() == Game.from_code("SD1-S4-AAAAAAA").state()
    russian = position("RU1-C-AAAAAAA", ["AS", "", "2S"], foundations={"H": "AH"})
    russian.apply("1>F")
    assert russian.pop() == ToFoundation(1)
    kings = position("RU1-C-AAAAAAA", ["", "2H"], foundations={"S": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"})
    kings.apply("FS>1")
    assert kings.pop() == FromFoundation("S", 1)
    assert kings.state()["foundations"]["S"][-1] == "KS"  # type: ignore[index]


def test_copy_is_independent_and_keeps_the_history() -> None:
    game = Game.from_code("SP1-S2C-AAAAAAA")
    game.apply("D")
    twin = game.copy()
    assert twin.state() == game.state() and type(twin) is type(game)
    twin.apply("U")
    assert twin.state() != game.state()
    assert game.undo_available == 1 and twin.undo_available == 0
    assert game.state()["moves"] == 1


def test_a_kept_game_holds_the_same_position_in_less_memory_and_plays_on_once_copied_or_thawed() -> None:
    """What a cache keeps (Game.kept): every card as a byte, the position, score and history unchanged;
    its copy and the kept game thawed play as the game it was kept from."""
    for code in ("SP1-S4C-AAAAAAA", "SD1-S2-AAAAAAA", "RU1-C-AAAAAAA"):
        game = Game.from_code(code)
        for _ in range(20):
            legal = game.legal_actions()
            if not legal:
                break
            game.push(legal[len(legal) // 2])
        game.copy(), game.kept()  # what a first call allocates once (not counted)
        copy, copied = held_by_engine(game.copy)
        kept, held = held_by_engine(game.kept)
        columns = sum(sys.getsizeof(column) for column in copy._cols)  # lists
        assert copied - held > columns // 3, (code, held, copied, columns)  # in bytes, most of that is saved
        assert kept.state() == game.state() and kept.undo_available == game.undo_available
        played, thawed = kept.copy(), kept
        thawed.thaw()
        for other in (played, thawed, game):
            other.push(other.legal_actions()[0])
            other.pop()
            other.pop()  # undoing the kept position's own last action
        assert played.state() == thawed.state() == game.state()


def _hidden(game: Game) -> int:
    """Cards the player cannot see: face-down in the columns, and left in the stock."""
    down = sum(column["down"] for column in game.view()["columns"])  # type: ignore[attr-defined]
    return down + game.stock_left


def test_the_last_action_revealed_exactly_when_its_undo_would_hide_cards_again() -> None:
    """In random play of every variant, `last_action_revealed` says whether undoing the last action
    turns cards face down or puts a row back in the stock: the undo a ranked blind deal refuses."""
    import random

    from games.engine import ALL_VARIANTS, GameCode

    rng = random.Random(41)
    seen = {True: 0, False: 0}
    for variant in ALL_VARIANTS:
        for number in range(4):
            game = Game.from_code(GameCode.from_variant(variant, number))
            assert not game.last_action_revealed  # nothing to undo yet
            for _ in range(150):
                plain = [a for a in game.legal_actions() if not isinstance(a, Undo)]
                if not plain or game.won:
                    break
                game.push(rng.choice(plain))
                if game.won:
                    break
                revealed = game.last_action_revealed
                probe = game.copy()
                before = _hidden(probe)
                probe.push(Undo())
                assert revealed == (_hidden(probe) > before), (variant, number, probe.peek())
                seen[revealed] += 1
    assert seen[True] > 50 and seen[False] > 50  # both kinds were met many times
