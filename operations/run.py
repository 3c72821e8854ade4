"""`python -m operations.run [daphne's arguments] config.asgi:application` (`make run`): one worker
(operations.server) and the closer beside it, supervised (docs/operations.md, "One machine: make run").
When the worker ends, so does everything, with its exit status.
"""

from __future__ import annotations

import os
import sys

from operations.children import Child, Supervised, closer_command, ended, say, serve

STOP_GRACE_SECONDS = 30.0  # given to the worker beyond its own DRAIN_SECONDS before it is killed


def tell(line: str) -> None:
    say(f"run: {line}")


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    worker = Child("worker", [sys.executable, "-m", "operations.server", *arguments], env, None)
    closer = Supervised("closer", closer_command(), env, None, tell=tell)

    def start() -> None:
        worker.start()
        closer.start()
        tell(f"the worker (pid {worker.pid}) and the closer (pid {closer.pid}) are running. Ctrl-C stops both.")

    def step() -> int | None:
        code = worker.poll()
        if code is None:
            closer.check()
            return None
        tell(f"the worker {ended(code)}; stopping the closer")
        return code if code >= 0 else 128 - code  # as a shell reports a signal

    def stop() -> None:
        closer.stop(timeout=15)
        worker.stop(timeout=float(os.environ.get("DRAIN_SECONDS", 10)) + STOP_GRACE_SECONDS)

    return serve(start, step, stop, tell)


if __name__ == "__main__":
    sys.exit(main())
