"""Sampling profiles of the daphne workers with py-spy, summed into "where the time goes".

py-spy attaches from outside (no change to the server), samples every
thread that is running Python code (idle threads are left out), and writes
raw folded stacks; `summarize` adds them up by function, inclusive (the
function or anything it called) and self, and by the project's own stage
of a request.
"""

from __future__ import annotations

import collections
import shutil
import subprocess
import sys
from pathlib import Path

PY_SPY = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))

# Stages of a request, by a function on the stack (first match from the leaf wins).
STAGES = (
    ("engine: apply / legal / view", ("games/engine/",)),
    ("session document (json view)", ("session_document", "play_hints")),
    ("database (psycopg + ORM)", ("psycopg", "django/db/")),
    ("redis (rate limit, layer, index)", ("redis/", "channels_redis", "ratelimit.py")),
    ("json encode/decode", ("json/",)),
    ("twisted / autobahn websocket I/O", ("twisted/", "autobahn/", "daphne/")),
    ("asgiref thread hand-off", ("asgiref/",)),
    ("channels consumer plumbing", ("channels/",)),
    ("django other (auth, rest, settings)", ("django/", "rest_framework/")),
)


def start(pids: list[int], seconds: float, out_dir: Path) -> list[tuple[subprocess.Popen[bytes], Path]]:
    out_dir.mkdir(parents=True, exist_ok=True)
    runs = []
    for pid in pids:
        out = out_dir / f"pyspy_{pid}.txt"
        proc = subprocess.Popen(
            [
                PY_SPY,
                "record",
                "--pid",
                str(pid),
                "--duration",
                str(max(1, int(seconds))),
                "--rate",
                "200",
                "--format",
                "raw",
                "--output",
                str(out),
                "--nonblocking",
                "--gil",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        runs.append((proc, out))
    return runs


def finish(runs: list[tuple[subprocess.Popen[bytes], Path]]) -> list[Path]:
    done = []
    for proc, out in runs:
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if out.exists():
            done.append(out)
    return done


def _frames(stack: str) -> list[str]:
    return [frame for frame in stack.split(";") if frame]


def summarize(files: list[Path], top: int = 18) -> str:
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    stages: collections.Counter[str] = collections.Counter()
    total = 0
    for path in files:
        for line in path.read_text(errors="replace").splitlines():
            stack, _, count_text = line.rpartition(" ")
            if not count_text.isdigit():
                continue
            count = int(count_text)
            frames = _frames(stack)
            if not frames:
                continue
            total += count
            own[frames[-1]] += count
            for frame in set(frames):
                inclusive[frame] += count
            stages[_stage(frames)] += count
    if not total:
        return "profile: no samples"
    lines = [f"profile: {total:,} samples of the workers holding the GIL (their Python CPU time)"]
    lines.append("  by stage (innermost match):")
    for name, count in stages.most_common():
        lines.append(f"    {count / total * 100:5.1f}%  {name}")
    lines.append("  inclusive (the function and what it calls):")
    for frame, count in inclusive.most_common(top):
        lines.append(f"    {count / total * 100:5.1f}%  {_short(frame)}")
    lines.append("  self:")
    for frame, count in own.most_common(top):
        lines.append(f"    {count / total * 100:5.1f}%  {_short(frame)}")
    return "\n".join(lines)


def _stage(frames: list[str]) -> str:
    for frame in reversed(frames):
        for name, needles in STAGES:
            if any(needle in frame for needle in needles):
                return name
    return "other"


def _short(frame: str) -> str:
    for marker in ("site-packages/", "/work/main/", "python3.11/"):
        if marker in frame:
            head, _, rest = frame.partition("(")
            return f"{head.strip()} ({rest.split(marker, 1)[-1]}"
    return frame
