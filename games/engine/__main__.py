"""``python -m games.engine deal|replay|batch``: see games/engine/cli.py."""

import sys

from .cli import main

if __name__ == "__main__":
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    sys.exit(main())
