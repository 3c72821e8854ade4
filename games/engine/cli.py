"""``python -m games.engine``: deal a code, replay a log, or re-verify JSON lines in bulk."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from .errors import InvalidCode
from .game import Game
from .replay import ReplayError, ReplayResult, replay


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="The rules engine of the solitaire league (docs/rules.md, codes.md, notation.md, state.md).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    deal = commands.add_parser("deal", help="print the state document of a game code")
    deal.add_argument("code")
    play = commands.add_parser("replay", help="replay tokens from a code's deal; exit 1 if refused")
    play.add_argument("code")
    play.add_argument("tokens", nargs="*")
    commands.add_parser(
        "batch",
        help='read JSON lines {"code", "moves"} from stdin, write one result line per case',
    )
    args = parser.parse_args(argv)
    out = stdout or sys.stdout
    if args.command == "deal":
        try:
            game = Game.from_code(args.code)
        except InvalidCode as error:
            _write(out, {"error": {"index": 0, "token": None, "message": error.message}})
            return 1
        _write(out, game.state())
        return 0
    if args.command == "replay":
        result = replay(args.code, args.tokens)
        _write(out, result.to_json())
        return 0 if result.ok else 1
    if stdin is None:
        stdin = sys.stdin
        if hasattr(stdin, "reconfigure"):
            stdin.reconfigure(encoding="utf-8", errors="replace")
    return batch(stdin, out)


def batch(lines: TextIO, out: TextIO) -> int:
    """One result line per non-blank input line; a bad line gets an error line, never a crash."""
    for line in lines:
        if not line.strip():
            continue
        _write(out, check_line(line).to_json())
        out.flush()
    return 0


def check_line(line: str) -> ReplayResult:
    """The replay result of one ``{"code", "moves"}`` JSON line, or why the line is unusable."""
    try:
        case = json.loads(line)
    except (ValueError, RecursionError):
        return _refused("The line is not JSON")
    if not isinstance(case, dict):
        return _refused('A line is a JSON object {"code": ..., "moves": [...]}')
    missing = [key for key in ("code", "moves") if key not in case]
    if missing:
        return _refused(f"The line has no {' or '.join(repr(k) for k in missing)}")
    if not isinstance(case["code"], str):
        return _refused('"code" must be a string, like "SP1-S4C-AAAAAAD"')
    if not isinstance(case["moves"], list):
        return _refused('"moves" must be a list of tokens, like ["3:4>7", "D"]')
    return replay(case["code"], case["moves"])


def _refused(message: str) -> ReplayResult:
    return ReplayResult(False, ReplayError(0, None, message), None)


def _write(out: TextIO, document: object) -> None:
    out.write(json.dumps(document, ensure_ascii=False) + "\n")
