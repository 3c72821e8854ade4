"""Property tests over random legal play on every variant (hypothesis)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    ALL_VARIANTS,
    DEAL_NUMBERS,
    Action,
    DealRow,
    FromFoundation,
    Game,
    GameCode,
    IllegalAction,
    Move,
    ToFoundation,
    Undo,
    replay,
)
from tests.engine.engine_helpers import all_cards

numbers = st.integers(0, DEAL_NUMBERS - 1)
choices = st.lists(st.integers(0, 10_000), min_size=1, max_size=120)
PROPERTY = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
every_variant = pytest.mark.parametrize("variant", ALL_VARIANTS)


def pick(game: Game, choice: int) -> Action:
    """A legal action, biased away from undo so games move on."""
    legal = game.legal_actions()
    plain = [a for a in legal if not isinstance(a, Undo)]
    if plain and (choice % 10 or len(plain) == len(legal)):
        return plain[choice % len(plain)]
    return legal[choice % len(legal)]


def play(code: GameCode, picks: list[int]) -> tuple[Game, list[Action]]:
    game = Game.from_code(code)
    done = []
    for choice in picks:
        if not game.legal_actions():
            break
        action = pick(game, choice)
        game.push(action)
        done.append(action)
    return game, done


@every_variant
@PROPERTY
@given(number=numbers, picks=choices)
def test_cards_are_never_created_or_lost(variant: str, number: int, picks: list[int]) -> None:
    code = GameCode.from_variant(variant, number)
    game = Game.from_code(code)
    start = Counter(all_cards(game))
    assert sum(start.values()) == game.layout.cards
    for choice in picks:
        if not game.legal_actions():
            break
        game.push(pick(game, choice))
        assert Counter(all_cards(game)) == start
        for col in game.state()["columns"]:  # type: ignore[attr-defined]
            assert col["up"] or not col["down"]  # a column's top card is face-up


@every_variant
@PROPERTY
@given(number=numbers, picks=choices)
def test_undo_restores_the_exact_previous_state(variant: str, number: int, picks: list[int]) -> None:
    code = GameCode.from_variant(variant, number)
    game = Game.from_code(code)
    for choice in picks:
        legal = game.legal_actions()
        if not legal:
            break
        action = pick(game, choice)
        if isinstance(action, Undo):
            game.push(action)
            continue
        before = game.state()
        game.push(action)
        if game.won:
            break
        game.push(Undo())
        expected = dict(before)
        if code.game == "RU":
            expected["moves"] = before["moves"] + 1  # type: ignore[operator]
        if before["undo_available"] == 100:
            expected["undo_available"] = 99  # the oldest entry was dropped
        assert game.state() == expected
        game.push(action)


@every_variant
@PROPERTY
@given(number=numbers, picks=choices)
def test_replay_of_the_log_gives_the_live_state(variant: str, number: int, picks: list[int]) -> None:
    code = GameCode.from_variant(variant, number)
    game, done = play(code, picks)
    tokens = [str(a) for a in done]
    result = replay(str(code), tokens)
    assert result.ok, result.error
    assert result.game is not None and result.game.state() == game.state()
    # any letter case and surrounding spaces give the same game
    messy = [f" {t.lower()}\t" for t in tokens]
    again = replay(str(code).lower(), messy)
    assert again.game is not None and again.game.state() == game.state()


def candidate_actions(game: Game) -> list[Action]:
    width = game.layout.columns
    actions: list[Action] = [DealRow(), Undo()]
    for s in range(1, width + 2):
        actions.append(ToFoundation(s))
        for suit in "SHDC":
            actions.append(FromFoundation(suit, s))
        for t in range(1, width + 2):
            if s != t:
                for n in (1, 2, 3, 5, 8, 13, 20, 21):
                    actions.append(Move(s, n, t))
    return actions


@every_variant
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=numbers, picks=st.lists(st.integers(0, 10_000), max_size=60))
def test_legal_actions_are_exactly_what_push_accepts(variant: str, number: int, picks: list[int]) -> None:
    code = GameCode.from_variant(variant, number)
    game, _ = play(code, picks)
    legal = game.legal_actions()
    assert len(set(legal)) == len(legal)
    moves = [(a.source, a.count, a.target) for a in legal if isinstance(a, Move)]
    assert moves == sorted(moves)  # docs/state.md: by column, then group size, then target
    assert legal[: len(moves)] == [a for a in legal if isinstance(a, Move)]  # the moves first
    listed = set(legal)
    candidates = candidate_actions(game) + legal
    before = game.state()
    for action in candidates:
        trial = game.copy()
        try:
            trial.push(action)
            accepted = True
        except IllegalAction:
            accepted = False
            assert trial.state() == before  # a refusal changes nothing
        assert accepted == game.is_legal(action), action
        assert accepted == (action in listed), action
    for action in legal:
        if isinstance(action, Move):
            assert action.target in game.targets(action.source, action.count)
    for column in range(1, game.layout.columns + 1):  # a tap sends a card home exactly when that is legal
        home = ToFoundation(column)
        assert game.tap_action(column) == (home if game.has_foundations and home in listed else None)


@every_variant
@PROPERTY
@given(number=numbers, picks=choices)
def test_best_targets_gives_every_groups_best_target(variant: str, number: int, picks: list[int]) -> None:
    game, _ = play(GameCode.from_variant(variant, number), picks)
    groups = {(a.source, a.count) for a in game.legal_actions() if isinstance(a, Move)}
    expected = {group: game.best_target(*group) for group in groups}
    assert game.best_targets() == expected
    assert game.best_targets(game.legal_actions()) == expected


@every_variant
@PROPERTY
@given(number=numbers, picks=choices)
def test_view_matches_state_with_hidden_cards_as_counts(variant: str, number: int, picks: list[int]) -> None:
    code = GameCode.from_variant(variant, number)
    game, _ = play(code, picks)
    state, view = game.state(), game.view()
    assert view["stock"] == len(state["stock"])  # type: ignore[arg-type]
    for shown, full in zip(view["columns"], state["columns"]):  # type: ignore[call-overload]
        assert shown == {"down": len(full["down"]), "up": full["up"]}
    if code.game == "SP":
        assert game.score >= 0
    assert game.undo_available <= 100


@every_variant
def test_long_random_games_replay_to_the_live_state(variant: str) -> None:
    """A few long seeded games per variant: past the 100-action undo limit and the stock."""
    import random

    from tests.engine.engine_helpers import random_play

    for seed in range(2):
        rng = random.Random(f"{variant}-{seed}")
        code = GameCode.from_variant(variant, rng.randrange(DEAL_NUMBERS))
        game = Game.from_code(code)
        start = Counter(all_cards(game))
        done = random_play(game, 600, rng, undo_weight=0.3)
        assert Counter(all_cards(game)) == start
        result = replay(code, [str(a) for a in done])
        assert result.ok and result.game is not None
        assert result.game.state() == game.state()
        assert game.undo_available <= 100
