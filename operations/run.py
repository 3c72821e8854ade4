"""`python -m operations.run [daphne's arguments] config.asgi:application` (`make run`): one worker and the closer.

The worker is operations.server with the arguments given; beside it runs the closer
(`manage.py close_dailies --loop 60`, as docker-compose.yml's `closer` service), which prepares
today's dailies first and says on the terminal as each one is stored. Both are children of this
process (operations.children): Ctrl-C or SIGTERM stops the closer and drains the worker; a closer
that dies is started again after a back-off, and the terminal is told; when the worker ends, so
does everything, with its exit status.
"""

from __future__ import annotations

import os
import signal
import sys
import time

from operations.children import Child, Supervised, closer_command, ended, say, stop_on_signals

# The worker's own drain is DRAIN_SECONDS; this is how long it is given before it is killed.
STOP_GRACE_SECONDS = 30.0


def tell(line: str) -> None:
    say(f"run: {line}")


def worker_command(arguments: list[str]) -> list[str]:
    """The worker: operations.server (daphne with the graceful stop) with `arguments`."""
    return [sys.executable, "-m", "operations.server", *arguments]


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    worker = Child("worker", worker_command(arguments), env, None)
    closer = Supervised("closer", closer_command(), env, None, tell=tell)
    stop_on_signals()
    try:
        worker.start()
        closer.start()
        tell(f"the worker (pid {worker.pid}) and the closer (pid {closer.pid}) are running. Ctrl-C stops both.")
        while True:
            time.sleep(0.5)
            code = worker.poll()
            if code is not None:
                tell(f"the worker {ended(code)}; stopping the closer")
                return code if code >= 0 else 128 - code  # as a shell reports a signal
            closer.check()
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        tell("stopping the closer and the worker (it drains first)")
        return 0
    finally:
        closer.stop(timeout=15)
        worker.stop(timeout=float(os.environ.get("DRAIN_SECONDS", 10)) + STOP_GRACE_SECONDS)


if __name__ == "__main__":
    sys.exit(main())
