"""How well the daily's fair-play screen (games.dailies.fair_play) tells cheaters from honest players:
days of dailies played by simulated honest players and simulated cheaters of several kinds, every
attempt through the real services (start, each action with its time, finish) on a database of the
run's own, the signals computed and stored as they are for a real result.

Run: .venv/bin/python bench/fairplay.py [--days N] [--honest N] [--strong N] [--variant V]
     [--budget S] [--dump FILE]

Dailies: the real preparer (games.dailies.preparation.prepare_daily) with a small solver budget; a
day whose daily is not certified (no par line) is skipped.

Honest players see only what a player sees: never a hidden card, never an undo. Two kinds:
- honest: chooses among the legal actions by what the view shows (face-up cards, counts of
  face-down cards), one move ahead, judged without the card a move would turn;
- strong: guesses the hidden cards (a shuffle of the unseen ones), plays the solver's line for the
  guess up to the next card turned or row dealt, then guesses again: the strongest play that sees
  only the view we can simulate.
Their pace is a log-normal around a person's (median gap 1.8 s, most gaps 0.6-5 s, never under
the 250 ms of a deliberate click; bench/README.md, "Fair play"), with a few quick flurries. Most
accounts are old with a history; some are new; a share of them plays from an address another
honest player of the day used (a household, a campus, carrier NAT).

Cheaters know the deal before their ranked attempt. Since a ranked blind deal refuses an undo
that would take back a deal or a turned card, a scout attempt shows only what its own play
uncovered; a cheater gets the whole deal from several scout accounts, each playing a different
opening, or (after the close) from the published par line. The kinds:

- par_fast: one scout from the same browser, then the par line at a machine's pace;
- own_fast: the deal known, a line of their own (a few visible moves first, then the solver from
  there), at a machine's pace, from the same browser;
- spread: three scouts, each from the same address but a browser of its own; the par line, fast;
- par_human: one scout from the same browser; the par line at a person's pace;
- par_elsewhere: scouts on other devices and addresses; the par line at a person's pace, from an
  old account with history;
- own_elsewhere: scouts elsewhere, a line of their own at a person's pace, from an old account;
- own_padded: as own_elsewhere, the line padded to 1.3-1.6 times par with wasted moves (a card
  or group moved where it fits and straight back).

Prints the share of each kind's results the screen flags now, and the share the screen before the
blind-choice signal flagged (when a win within FAIR_PLAY_NEAR_PAR held a result alone), why, and
each kind's blind choices against chance.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stack import Stack  # noqa: E402

KINDS = ("par_fast", "own_fast", "spread", "par_human", "par_elsewhere", "own_elsewhere", "own_padded")
FIRST_DATE = dt.date(2026, 1, 5)
MACHINE_MS = (15, 40)  # a script's gaps: the server's own answer time and no more
HISTORY_CODE = "SD1-S1-HJSZOZN"  # a free-play deal for the old accounts' past games


@dataclass
class Seat:
    name: str
    device: str
    address: str
    age_days: float
    history: int


def human_gap(rng: random.Random) -> float:
    """A person's gap between two actions, in ms: log-normal around 1.8 s, floored at a
    deliberate click; one in eight is a quick follow-up (a double-click after a deal)."""
    if rng.random() < 0.125:
        return rng.uniform(300, 700)
    return max(250.0, rng.lognormvariate(math.log(1800), 0.6))


def machine_gap(rng: random.Random) -> float:
    return rng.uniform(*MACHINE_MS)


# ------------------------------------------------------------------ the visible-information player


def _visible_score(view: dict, before: dict) -> float:
    """How good a position looks from what the player sees, leaving out any card the move turned."""
    score = 0.0
    for col, old in zip(view["columns"], before["columns"]):
        up = list(col["up"])
        if col["down"] < old["down"] and up:
            up = up[1:]  # the card this move turned: unseen when choosing
        score -= 3 * col["down"]
        if not up and not col["down"]:
            score += 4
        run = 1
        for lower, upper in zip(up[1:], up):  # the tail's in-suit descending run
            if _rank(upper) - _rank(lower) == 1 and upper[-1] == lower[-1]:
                run += 1
            else:
                run = 1
        score += run if up else 0
    score += 20 * len(view.get("removed") or [])
    score += 5 * sum(len(p) for p in (view.get("foundations") or {}).values())
    return score


RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}


def _rank(card: str) -> int:
    head = card[:-1]
    return RANKS.get(head) or int(head)


def honest_line(code: str, rng: random.Random, cap: int = 400) -> list[str]:
    """A visible-information player's game: greedy one move ahead on the view, no undo."""
    from games.engine import Game

    game = Game.from_code(code)
    tokens: list[str] = []
    seen: set[str] = set()
    while not game.won and len(tokens) < cap:
        action = _greedy_step(game, rng, seen)
        if action is None:
            break
        game.push(action)
        tokens.append(str(action))
        after = game.view()
        seen.add(repr(after["columns"]) + repr(after["stock"]))
    return tokens


def _greedy_step(game, rng: random.Random, seen: set[str]):  # type: ignore[no-untyped-def]
    """The move that looks best one move ahead on the view (never back to a position seen)."""
    view = game.view()
    best = None
    for action in game.legal_actions():
        token = str(action)
        if token.startswith("U"):
            continue
        trial = game.copy()
        trial.push(action)
        after = trial.view()
        if repr(after["columns"]) + repr(after["stock"]) in seen:
            continue
        value = _visible_score(after, view) + rng.random() * 2  # a person's hesitation
        if token == "D":
            value -= 8  # deal when nothing better shows
        if best is None or value > best[0]:
            best = (value, action)
    return None if best is None else best[1]


def _guessed(game, rng: random.Random):  # type: ignore[no-untyped-def]
    """The position with its hidden cards (face-down and stock) shuffled among themselves: a deal
    the view cannot tell from the real one (what is hidden is the deck less what is seen)."""
    from games.engine import Game

    state = game.state()
    hidden = [card for column in state["columns"] for card in column["down"]] + list(state["stock"])
    rng.shuffle(hidden)
    cards = iter(hidden)
    for column in state["columns"]:
        column["down"] = [next(cards) for _ in column["down"]]
    state["stock"] = [next(cards) for _ in state["stock"]]
    return Game.from_state(state)


def strong_line(code: str, rng: random.Random, budget: float = 0.1, cap: int = 500) -> list[str]:
    """A strong player who sees only the view: guesses the hidden cards (a shuffle of the unseen
    ones), plays the solver's line for that guess up to the next card turned or row dealt, then
    guesses again; the one-move-ahead player until the next card shows when no guess is won in time.
    No undo."""
    from games.engine import DealRow, Game, parse_action
    from games.solver import solve_game

    game = Game.from_code(code)
    tokens: list[str] = []
    plan: list[str] = []
    seen: set[str] = set()
    guess = True
    while not game.won and len(tokens) < cap:
        if not plan and guess:
            guess = False
            for _ in range(2):
                solution = solve_game(_guessed(game, rng), budget)
                if solution.status == "won":
                    plan = list(solution.actions)
                    break
        if plan:
            action = parse_action(plan.pop(0))
        else:
            step = _greedy_step(game, rng, seen)
            if step is None:
                break
            action = step
        game.push(action)
        tokens.append(str(action))
        after = game.view()
        seen.add(repr(after["columns"]) + repr(after["stock"]))
        if game.last_action_revealed or type(action) is DealRow:
            plan, guess = [], True
    return tokens


def pad_line(code: str, line: list[str], rng: random.Random, moves: int) -> list[str]:
    """`line` with wasted moves put in at random places until it is `moves` long: a card or group
    moved to another column where it fits and straight back, turning nothing."""
    from games.engine import Game, Move, parse_action

    game = Game.from_code(code)
    spots = Counter(rng.randrange(len(line)) for _ in range(max(0, moves - len(line)) // 2))
    padded: list[str] = []
    for i, token in enumerate(line):
        for _ in range(spots[i]):
            columns = game.view()["columns"]
            pairs = []
            for action in game.legal_actions():
                if type(action) is not Move or action.count == len(columns[action.source - 1]["up"]):
                    continue  # a move that would turn a card or empty a column is no waste
                back = Move(action.target, action.count, action.source)
                trial = game.copy()
                trial.push(action)
                if trial.is_legal(back):
                    pairs.append((action, back))
            if pairs:
                there, back = rng.choice(pairs)
                game.push(there)
                game.push(back)
                padded += [str(there), str(back)]
        game.push(parse_action(token))
        padded.append(token)
    return padded


def own_line(code: str, rng: random.Random, budget: float) -> list[str] | None:
    """A cheater's own winning line: a few moves of their own, then the solver from there."""
    from games.engine import Game
    from games.solver import solve_game

    for _ in range(4):
        game = Game.from_code(code)
        opening: list[str] = []
        for _ in range(rng.randint(3, 8)):
            legal = [a for a in game.legal_actions() if str(a) != "D" and not str(a).startswith("U")]
            if not legal:
                break
            action = rng.choice(legal)
            game.push(action)
            opening.append(str(action))
        solution = solve_game(game, budget)
        if solution.status == "won":
            return opening + list(solution.actions)
    return None


# ------------------------------------------------------------------ playing through the services


class Run:
    def __init__(self, variant: str, rng: random.Random) -> None:
        self.variant = variant
        self.rng = rng
        self.n = 0

    def player(self, seat: Seat, day_start: dt.datetime):  # type: ignore[no-untyped-def]
        from games.models import Player

        self.n += 1
        joined = day_start - dt.timedelta(days=seat.age_days)
        player = Player.objects.create(username=f"{seat.name}{self.n}", password="!", date_joined=joined)
        if seat.history:
            self._history(player, seat.history, joined)
        return player

    def _history(self, player, count: int, joined: dt.datetime) -> None:  # type: ignore[no-untyped-def]
        """Finished games before today: given-up free-play results, dated after the sign-up."""
        from django.utils import timezone

        from games.deals.codes import stored_code_for
        from games.engine import Game, GameCode
        from games.models import Result

        game = Game.from_code(HISTORY_CODE)
        stored = stored_code_for(GameCode.parse(HISTORY_CODE))
        Result.objects.bulk_create(
            Result(
                player=player,
                stored_code=stored,
                source=Result.Source.SUBMISSION,
                board=None,
                elapsed_ms=60_000,
                actions=0,
                log="",
                finished_at=joined + dt.timedelta(hours=k + 1),
                verified_at=timezone.now(),
                score=game.score,
                moves=0,
                won=False,
                sequences=game.sequences,
                undos=0,
            )
            for k in range(count)
        )

    def attempt(  # type: ignore[no-untyped-def]
        self, seat: Seat, tokens: list[str], at: dt.datetime, gap, player=None
    ) -> tuple[object, dt.datetime]:
        from games import services
        from games.dailies import fair_play
        from games.models import Result

        player = player or self.player(seat, at)
        origin = fair_play.Origin(
            device=fair_play.keyed_hash("device", seat.device), address=fair_play.keyed_hash("address", seat.address)
        )
        session, _ = services.start_session(player=player, daily=self.variant, now=at, origin=origin)
        for token in tokens:
            at += dt.timedelta(milliseconds=gap(self.rng))
            services.apply_action(player=player, session_id=session.id, token=token, now=at)
        session.refresh_from_db()
        at += dt.timedelta(seconds=2)
        if not session.finished:
            services.finish_session(player=player, session_id=session.id, now=at)
        result = Result.objects.select_related("fair_play", "stored_code").filter(session=session).first()
        return result, at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--honest", type=int, default=12, help="one-move-ahead honest players a day")
    parser.add_argument("--strong", type=int, default=4, help="strong honest players a day (the solver on guesses)")
    parser.add_argument("--variant", default="SD1-S1")
    parser.add_argument("--budget", type=float, default=3.0, help="solver seconds per daily candidate")
    parser.add_argument("--new-share", type=float, default=0.15, help="honest accounts under two days old")
    parser.add_argument("--shared-address", type=float, default=0.01, help="honest players on a shared address")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--dump", type=Path, help="write each result's kind, signals and reasons here (JSON lines)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.perf_counter()
    with Stack(workers=0, time_limit=3600) as stack:
        stack.django()
        from django.conf import settings

        from games.dailies.preparation import prepare_daily

        settings.DAILY_SOLVER_BUDGET_SECONDS = args.budget
        settings.DAILY_CANDIDATE_CAP = 20
        settings.RATE_ACTIONS = 10**9
        run = Run(args.variant, rng)
        rows: list[dict] = []
        days = 0
        for offset in range(args.days):
            date = FIRST_DATE + dt.timedelta(days=offset)
            daily = prepare_daily(date, args.variant)
            if daily is None or not daily.par_line:
                print(f"{date}: no certified daily, skipped", flush=True)
                continue
            days += 1
            code = daily.stored_code.code
            par = daily.par_line.split()
            opens = dt.datetime.combine(date, dt.time(1, 5), tzinfo=dt.UTC)
            # The honest players of the day, spread over its hours.
            addresses: list[str] = []
            for h in range(args.honest + args.strong):
                at = opens + dt.timedelta(minutes=rng.uniform(0, 20 * 60))
                new = rng.random() < args.new_share
                shared = addresses and rng.random() < args.shared_address
                address = rng.choice(addresses) if shared else f"10.{offset}.{h}.{rng.randint(1, 250)}"
                addresses.append(address)
                seat = Seat(
                    "h",
                    f"dev-h-{offset}-{h}",
                    address,
                    rng.uniform(0.1, 1.5) if new else rng.uniform(10, 700),
                    0 if new else rng.randint(3, 60),
                )
                kind = "honest" if h < args.honest else "strong"
                line = honest_line(code, rng) if kind == "honest" else strong_line(code, rng)
                result, _ = run.attempt(seat, line, at, human_gap)
                rows += _row(kind, result, daily.par)
            for kind in KINDS:
                at = opens + dt.timedelta(minutes=rng.uniform(0, 18 * 60))
                rows += _row(kind, _cheat(run, kind, code, par, at, offset, rng, args.budget), daily.par)
            print(f"{date}: {code} par {daily.par}, done ({time.perf_counter() - started:.0f} s)", flush=True)
        near_par = settings.FAIR_PLAY_NEAR_PAR
    if args.dump:
        args.dump.write_text("".join(json.dumps(row) + "\n" for row in rows))
    _report(rows, days=days, variant=args.variant, near_par=near_par)


HONEST = ("honest", "strong")
# The screen before the blind-choice signal, when a win within FAIR_PLAY_NEAR_PAR held a result alone.
HELD_BEFORE = {"linked_device", "linked_address", "pace", "clairvoyance", "new_account_at_par"}


def _row(kind: str, result, par: int | None) -> list[dict]:  # type: ignore[no-untyped-def]
    """What the report needs of a result, and how long reading its blind choices takes again."""
    from games.dailies import blind_choices

    if result is None:
        return []
    review = result.fair_play
    tokens = result.log.split()
    began = time.perf_counter()
    blind_choices.read(result.stored_code.code, tokens)
    return [
        {
            "kind": kind,
            "won": result.won,
            "moves": result.moves,
            "par": par,
            "signals": review.signals,
            "reasons": review.reasons,
            "tokens": len(tokens),
            "read_ms": 1000 * (time.perf_counter() - began),
        }
    ]


def _held_before(row: dict, near_par: float) -> bool:
    ratio = row["signals"]["moves_to_par"]
    return bool(HELD_BEFORE & set(row["reasons"])) or (row["won"] and ratio is not None and ratio <= near_par)


def _report(rows: list[dict], *, days: int, variant: str, near_par: float) -> None:
    print(f"\n{days} days of {variant} dailies")
    reads = sorted(rows, key=lambda row: row["read_ms"])
    if reads:
        longest = reads[-1]
        print(
            f"reading a log's blind choices: median {statistics.median(r['read_ms'] for r in reads):.1f} ms,"
            f" longest {longest['read_ms']:.1f} ms ({longest['tokens']} tokens)"
        )
    for kind in HONEST:
        mine = [row for row in rows if row["kind"] == kind]
        won = sorted(row["signals"]["moves_to_par"] for row in mine if row["won"])
        spread = f"{won[0]:.2f}-{won[-1]:.2f} times par" if won else "-"
        print(f"{kind}: won {len(won)}/{len(mine)} ({spread})")
    shares = [row["signals"]["clairvoyance"]["share"] for row in rows if row["kind"] in HONEST]
    shares = [share for share in shares if share is not None]
    if shares:
        print(f"honest logs' share of the par line: median {statistics.median(shares):.2f}, max {max(shares):.2f}")
    header = "blind choices (median: count, lucky, chance)  reasons"
    print(f"{'kind':14} {'results':>7} {'flagged':>8} {'before':>8}  {header}")
    for kind in (*HONEST, *KINDS):
        mine = [row for row in rows if row["kind"] == kind]
        if not mine:
            continue
        hit = sum(bool(row["reasons"]) for row in mine)
        before = sum(_held_before(row, near_par) for row in mine)
        blind = [row["signals"]["blind_choices"] for row in mine]
        counts = Counter(reason for row in mine for reason in row["reasons"])
        print(
            f"{kind:14} {len(mine):>7} {100 * hit / len(mine):>7.1f}% {100 * before / len(mine):>7.1f}%"
            f"  {statistics.median(b['count'] for b in blind):>4} {statistics.median(b['lucky'] for b in blind):>4}"
            f" {statistics.median(b['expected'] for b in blind):>5.1f}"
            f"  {', '.join(f'{r} {c}' for r, c in counts.most_common())}"
        )


def _cheat(  # type: ignore[no-untyped-def]
    run: Run, kind: str, code: str, par: list[str], at, offset: int, rng, budget
):
    """One cheater of `kind` on the day's daily: the scouts, then the ranked attempt; its result."""
    here = f"192.0.2.{offset % 250 + 1}"
    device = f"dev-c-{kind}-{offset}"
    old = (rng.uniform(30, 700), rng.randint(5, 60))
    new = (rng.uniform(0, 1), 0)
    elsewhere = kind.endswith(("elsewhere", "padded"))
    # The scouts: each plays an opening of its own and gives up (what it uncovered is kept).
    scouts = {
        "par_fast": [(device, here)],
        "own_fast": [(device, here)],
        "spread": [(f"{device}-s{k}", here) for k in range(3)],
        "par_human": [(device, here)],
    }.get(kind)
    if scouts is None:  # other devices and addresses
        scouts = [(f"{device}-s{k}", f"203.0.{113 + KINDS.index(kind)}.{3 * (offset % 40) + k + 1}") for k in range(3)]
    for k, (scout_device, scout_address) in enumerate(scouts):
        seat = Seat("s", scout_device, scout_address, 0.01, 0)
        _, at = run.attempt(seat, honest_line(code, rng)[: 10 + 5 * k], at, human_gap)
    fast = kind in ("par_fast", "own_fast", "spread")
    line = par if kind.startswith(("par", "spread")) else own_line(code, rng, budget)
    if line is None:
        return None
    if kind == "own_padded":
        line = pad_line(code, line, rng, round(len(par) * rng.uniform(1.3, 1.6)))
    age, history = old if elsewhere else new
    seat = Seat(
        "c",
        f"dev-c-main-{kind}-{offset}" if elsewhere or kind == "spread" else device,
        f"198.51.100.{KINDS.index(kind) * 30 + offset % 30 + 1}" if elsewhere else here,
        age,
        history,
    )
    result, _ = run.attempt(seat, line, at + dt.timedelta(minutes=5), machine_gap if fast else human_gap)
    return result


if __name__ == "__main__":
    os.environ.setdefault("BENCH_REDIS_DB", "9")
    main()
