"""How well the daily's fair-play screen (games.fair_play) tells cheaters from honest players:
days of dailies played by simulated honest players and simulated cheaters of several kinds, every
attempt through the real services (start, each action with its time, finish) on a database of the
run's own, the signals computed and stored as they are for a real result.

Run: .venv/bin/python bench/fairplay.py [--days N] [--honest N] [--variant V] [--budget S]

Dailies: the real preparer (games.daily_preparation.prepare_daily) with a small solver budget; a
day whose daily is not certified (no par line) is skipped.

Honest players see only what a player sees: each keeps the engine's game and chooses among its
legal actions by what the view shows (face-up cards, counts of face-down cards), never a hidden
card: one move ahead, judged without the card a move would turn. They never undo. Their pace is a
log-normal around a person's (median FAIR_PLAY gap 1.8 s, most gaps 0.6-5 s, never under the
250 ms of a deliberate click; bench/README.md, "Fair play"), with a few quick flurries. Most
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
- own_elsewhere: scouts elsewhere, a line of their own at a person's pace, from an old account.

Prints the share of each kind's results the screen flagged, and why.
"""

from __future__ import annotations

import argparse
import datetime as dt
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

KINDS = ("par_fast", "own_fast", "spread", "par_human", "par_elsewhere", "own_elsewhere")
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
        view = game.view()
        best: tuple[float, str] | None = None
        for action in game.legal_actions():
            token = str(action)
            if token.startswith("U"):
                continue
            trial = game.copy()
            trial.push(action)
            after = trial.view()
            key = repr(after["columns"]) + repr(after["stock"])
            if key in seen:
                continue
            value = _visible_score(after, view) + rng.random() * 2  # a person's hesitation
            if token == "D":
                value -= 8  # deal when nothing better shows
            if best is None or value > best[0]:
                best = (value, token)
        if best is None:
            break
        chosen = next(a for a in game.legal_actions() if str(a) == best[1])
        game.push(chosen)
        tokens.append(best[1])
        after = game.view()
        seen.add(repr(after["columns"]) + repr(after["stock"]))
    return tokens


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

        from games.codes import stored_code_for
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
        from games import fair_play, services
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
        result = Result.objects.select_related("fair_play").filter(session=session).first()
        return result, at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--honest", type=int, default=12, help="honest players a day")
    parser.add_argument("--variant", default="SD1-S1")
    parser.add_argument("--budget", type=float, default=3.0, help="solver seconds per daily candidate")
    parser.add_argument("--new-share", type=float, default=0.15, help="honest accounts under two days old")
    parser.add_argument("--shared-address", type=float, default=0.01, help="honest players on a shared address")
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.perf_counter()
    with Stack(workers=0, time_limit=3600) as stack:
        stack.django()
        from django.conf import settings

        from games.daily_preparation import prepare_daily

        settings.DAILY_SOLVER_BUDGET_SECONDS = args.budget
        settings.DAILY_CANDIDATE_CAP = 20
        settings.RATE_ACTIONS = 10**9
        run = Run(args.variant, rng)
        flagged: dict[str, Counter[str]] = {kind: Counter() for kind in ("honest", *KINDS)}
        played: Counter[str] = Counter()
        honest_won = 0
        shares: list[float] = []
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
            for h in range(args.honest):
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
                result, _ = run.attempt(seat, honest_line(code, rng), at, human_gap)
                _tally(flagged["honest"], played, "honest", result)
                if result is not None and result.fair_play.signals["clairvoyance"]["share"] is not None:
                    shares.append(result.fair_play.signals["clairvoyance"]["share"])
                honest_won += bool(result and result.won)
            for kind in KINDS:
                at = opens + dt.timedelta(minutes=rng.uniform(0, 18 * 60))
                _cheat(run, kind, code, par, at, offset, rng, args.budget, flagged, played)
            print(f"{date}: {code} par {daily.par}, done ({time.perf_counter() - started:.0f} s)", flush=True)
        print(f"\n{days} days of {args.variant} dailies; honest players won {honest_won}/{played['honest']}")
        if shares:
            print(f"honest logs' share of the par line: median {statistics.median(shares):.2f}, max {max(shares):.2f}")
        print(f"{'kind':14} {'results':>7} {'flagged':>8}  reasons")
        for kind in ("honest", *KINDS):
            total = played[kind]
            hit = flagged[kind]["_flagged"]
            share = 100 * hit / total if total else float("nan")
            reasons = ", ".join(f"{r} {c}" for r, c in flagged[kind].most_common() if r != "_flagged")
            print(f"{kind:14} {total:>7} {share:>7.1f}%  {reasons}")


def _tally(counts: Counter[str], played: Counter[str], kind: str, result) -> None:  # type: ignore[no-untyped-def]
    if result is None:
        return
    played[kind] += 1
    review = result.fair_play
    if review.reasons:
        counts["_flagged"] += 1
    for reason in review.reasons:
        counts[reason] += 1


def _cheat(  # type: ignore[no-untyped-def]
    run: Run, kind: str, code: str, par: list[str], at, offset: int, rng, budget, flagged, played
) -> None:
    here = f"192.0.2.{offset % 250 + 1}"
    device = f"dev-c-{kind}-{offset}"
    old = (rng.uniform(30, 700), rng.randint(5, 60))
    new = (rng.uniform(0, 1), 0)
    # The scouts: each plays an opening of its own and gives up (what it uncovered is kept).
    scouts = {
        "par_fast": [(device, here)],
        "own_fast": [(device, here)],
        "spread": [(f"{device}-s{k}", here) for k in range(3)],
        "par_human": [(device, here)],
        "par_elsewhere": [(f"{device}-s{k}", f"203.0.113.{3 * (offset % 40) + k + 1}") for k in range(3)],
        "own_elsewhere": [(f"{device}-s{k}", f"203.0.114.{3 * (offset % 40) + k + 1}") for k in range(3)],
    }[kind]
    for k, (scout_device, scout_address) in enumerate(scouts):
        seat = Seat("s", scout_device, scout_address, 0.01, 0)
        _, at = run.attempt(seat, honest_line(code, rng)[: 10 + 5 * k], at, human_gap)
    fast = kind in ("par_fast", "own_fast", "spread")
    line = par if kind.startswith(("par", "spread")) else own_line(code, rng, budget)
    if line is None:
        return
    elsewhere = kind.endswith("elsewhere")
    age, history = old if elsewhere else new
    seat = Seat(
        "c",
        f"dev-c-main-{kind}-{offset}" if elsewhere or kind == "spread" else device,
        f"198.51.100.{KINDS.index(kind) * 40 + offset % 40 + 1}" if elsewhere else here,
        age,
        history,
    )
    result, _ = run.attempt(seat, line, at + dt.timedelta(minutes=5), machine_gap if fast else human_gap)
    _tally(flagged[kind], played, kind, result)


if __name__ == "__main__":
    os.environ.setdefault("BENCH_REDIS_DB", "9")
    main()
