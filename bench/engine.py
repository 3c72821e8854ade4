"""Replay throughput of the rules engine, side by side with a naive copy-per-action replay.

Run: .venv/bin/python bench/engine.py [--logs-per-variant N] [--length N] [--naive-prefix N]

Builds a fixed set of long legal logs for every variant by seeded random play
(biased towards progress: flips, same-suit builds, foundation moves; with some
deals, take-backs and undos), then times ``replay`` over them on one core and
prints actions per second per variant and overall, the memory of one live
game, the time to verify a 500-action game, and the throughput of a naive
replay that deep-copies the game before every action.
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import sys
import time
import tracemalloc
from collections import deque
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import (  # noqa: E402
    ALL_VARIANTS,
    Action,
    DealRow,
    FromFoundation,
    Game,
    GameCode,
    ToFoundation,
    Undo,
    parse_action,
    replay,
)


def weight(game: Game, action: Action) -> float:
    """How much random play prefers ``action``: progress over shuffling cards around."""
    if isinstance(action, Undo):
        return 0.08
    if isinstance(action, DealRow):
        return 0.4
    if isinstance(action, ToFoundation):
        return 25.0
    if isinstance(action, FromFoundation):
        return 0.15
    state = game._cols, game._down
    cols, down = state
    col = cols[action.source - 1]
    w = 1.0
    if action.count == len(col) - down[action.source - 1] and down[action.source - 1]:
        w += 6.0  # uncovers a face-down card
    target = cols[action.target - 1]
    if target and target[-1] // 13 == col[-action.count] // 13:
        w += 3.0  # builds in suit
    if not target:
        w *= 0.3
    return w


def random_log(code: GameCode, length: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    game = Game.from_code(code)
    log: list[str] = []
    while len(log) < length and not game.won:
        legal = game.legal_actions()
        if not legal or legal == [Undo()]:
            break  # won, or stuck: nothing but undo is left
        action = rng.choices(legal, [weight(game, a) for a in legal])[0]
        game.push(action)
        log.append(str(action))
    return log


def naive_replay(code: GameCode, tokens: Sequence[str]) -> Game:
    """The straightforward way: copy the whole game before every action, then apply it."""
    game = Game.from_code(code)
    for token in tokens:
        game = copy.deepcopy(game)
        game.push(parse_action(token))
    return game


def copy_replay(code: GameCode, tokens: Sequence[str]) -> Game:
    """A lighter naive way: the engine's own cheap ``Game.copy()`` before every action."""
    game = Game.from_code(code)
    for token in tokens:
        game = game.copy()
        game.push(parse_action(token))
    return game


def deep_size(game: Game) -> int:
    """Bytes of the objects a game owns (its code and layout constants are shared)."""
    seen: set[int] = set()

    def size(obj: object) -> int:
        if id(obj) in seen or (isinstance(obj, int) and -5 <= obj <= 256):
            return 0
        seen.add(id(obj))
        total = sys.getsizeof(obj)
        if isinstance(obj, (list, tuple, deque)):
            total += sum(size(item) for item in obj)
        return total

    owned = [
        getattr(game, name)
        for cls in type(game).__mro__
        for name in getattr(cls, "__slots__", ())
        if name not in ("code", "layout")
    ]
    return sys.getsizeof(game) + sum(size(value) for value in owned)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions-per-variant", type=int, default=20_000)
    parser.add_argument("--length", type=int, default=10_000, help="longest log")
    parser.add_argument("--naive-prefix", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--verify-runs", type=int, default=50, help="times each 500-action game is verified")
    args = parser.parse_args()
    if not 1 <= args.verify_runs <= 10_000:
        parser.error("--verify-runs is 1 to 10,000")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

    print(
        f"python {sys.version.split()[0]}, one core; building logs: at least "
        f"{args.actions_per_variant:,} actions per variant, logs of up to {args.length:,} "
        f"(a log ends when its game is won or stuck)..."
    )
    started = time.perf_counter()
    logs: dict[str, list[tuple[GameCode, list[str]]]] = {}
    for v, variant in enumerate(ALL_VARIANTS):
        logs[variant] = []
        k = 0
        while sum(len(t) for _, t in logs[variant]) < args.actions_per_variant:
            k += 1
            code = GameCode.from_variant(variant, (7919 * (v * 131 + k)) % 26**7)
            length = min(args.length, args.actions_per_variant - sum(len(t) for _, t in logs[variant]))
            logs[variant].append((code, random_log(code, length, seed=v * 1000 + k)))
    print(f"built in {time.perf_counter() - started:.1f} s\n")

    header = (
        f"{'variant':<9} {'logs':>4} {'actions':>8} {'U':>5} {'D':>4} {'F':>5} {'won':>3}"
        f" {'seconds':>8} {'actions/s':>10}"
    )
    print("replay (games.engine.replay), best of", args.repeat)
    print(header)
    total_actions = 0
    total_seconds = 0.0
    for variant, cases in logs.items():
        actions = sum(len(tokens) for _, tokens in cases)
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            for code, tokens in cases:
                result = replay(code, tokens)
                assert result.ok, result.error
            best = min(best, time.perf_counter() - t0)
        flat = [t for _, tokens in cases for t in tokens]
        wins = sum(1 for code, tokens in cases if replay(code, tokens).game.won)  # type: ignore[union-attr]
        print(
            f"{variant:<9} {len(cases):>4} {actions:>8,} {flat.count('U'):>5} {flat.count('D'):>4}"
            f" {sum(t.endswith('>F') or t.startswith('F') for t in flat):>5} {wins:>3}"
            f" {best:>8.3f} {actions / best:>10,.0f}"
        )
        total_actions += actions
        total_seconds += best
    print(
        f"{'overall':<9} {'':>4} {total_actions:>8,} {'':>5} {'':>4} {'':>5} {'':>3}"
        f" {total_seconds:>8.3f} {total_actions / total_seconds:>10,.0f}\n"
    )

    naive_actions = 0
    naive_seconds = 0.0
    fast_seconds = 0.0
    snap_seconds = 0.0
    for cases in logs.values():
        for code, tokens in cases:
            prefix = tokens[: args.naive_prefix]
            t0 = time.perf_counter()
            naive = naive_replay(code, prefix)
            naive_seconds += time.perf_counter() - t0
            t0 = time.perf_counter()
            copy_replay(code, prefix)
            snap_seconds += time.perf_counter() - t0
            t0 = time.perf_counter()
            fast = replay(code, prefix).game
            fast_seconds += time.perf_counter() - t0
            assert fast is not None and naive.state() == fast.state()
            naive_actions += len(prefix)
    print(
        f"naive copy-per-action replay (deepcopy before each action), first {args.naive_prefix:,} actions of each log:"
    )
    print(
        f"  naive: {naive_actions:,} actions in {naive_seconds:.3f} s = {naive_actions / naive_seconds:,.0f} actions/s"
    )
    print(
        f"  lighter naive (Game.copy() of the lists before each action): {naive_actions / snap_seconds:,.0f} actions/s"
    )
    print(
        f"  engine on the same prefixes: {naive_actions / fast_seconds:,.0f} actions/s "
        f"({naive_seconds / fast_seconds:.1f}x faster)\n"
    )

    code, tokens = logs["SP1-S4C"][0]
    tracemalloc.start()
    game = Game.from_code(code)
    fresh = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    game.run(tokens)
    print(
        f"memory of one live game ({code}): {fresh:,} bytes at the deal (tracemalloc); "
        f"{deep_size(game):,} bytes after {len(tokens):,} actions with a full 100-entry "
        f"undo history (sys.getsizeof over everything it owns)"
    )

    for variant in ("SP1-S4C", "SD1-S2", "RU1-C"):
        code, tokens = max(logs[variant], key=lambda case: len(case[1]))
        prefix = tokens[:500]
        runs = []
        for _ in range(args.verify_runs):
            t0 = time.perf_counter()
            replay(code, prefix)
            runs.append(time.perf_counter() - t0)
        runs.sort()
        print(
            f"verify a {len(prefix)}-action {variant} game: median "
            f"{runs[len(runs) // 2] * 1000:.2f} ms, best {runs[0] * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
