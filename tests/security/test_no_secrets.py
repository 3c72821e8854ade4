"""No secret in the repository: no key, token or password in any tracked file, no .env or key file
tracked. (That production refuses to start without real secrets is tests/foundation/test_settings.py.)"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECRET_FILES = re.compile(r"(^|/)(\.env(\..+)?|.*\.pem|.*\.key|id_rsa|id_ed25519|.*\.p12|db\.sqlite3)$")
ANYWHERE = {
    "private key": re.compile(r"-----BEGIN (RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----"),
    "AWS key": re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    "GitHub token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36}\b"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    "password in a URL": re.compile(r"\b[a-z][a-z0-9+]*://[^:/\s@'\"]+:(?!\$\{)(?!pass@|password@)[^@/\s'\"]+@"),
}
# Outside the tests: a long literal given to a setting named like a secret.
IN_CODE = re.compile(
    r"""(?i)\b[A-Z_]*(SECRET|PASSWORD|API_KEY|TOKEN)[A-Z_]*\s*[=:]\s*["'](?!dev-insecure)[^"'\s]{16,}["']"""
)


def tracked_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: nothing is tracked")
    return [ROOT / name for name in listed.stdout.decode().split("\0") if name]


def test_no_key_or_env_file_is_tracked() -> None:
    names = [str(path.relative_to(ROOT)) for path in tracked_files()]
    assert len(names) > 50
    assert not [name for name in names if SECRET_FILES.search(name)]


def test_no_tracked_file_holds_a_secret() -> None:
    found = []
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):  # binary files and files deleted in the work tree
            continue
        name = str(path.relative_to(ROOT))
        for kind, pattern in ANYWHERE.items():
            found += [f"{name}: {kind}: {match.group(0)[:40]}" for match in pattern.finditer(text)]
        if not name.startswith("tests/"):
            found += [f"{name}: secret-like setting: {match.group(0)[:40]}" for match in IN_CODE.finditer(text)]
    assert not found, "\n".join(found)


def test_the_patterns_find_what_they_look_for() -> None:
    # Split, so that this file itself holds none of them.
    samples = {
        "private key": "-----BEGIN RSA " + "PRIVATE KEY-----",
        "AWS key": "key = AKIA" + "ABCDEFGHIJKLMNOP",
        "GitHub token": "ghp_" + "a" * 36,
        "Slack token": "xoxb" + "-1234567890-abc",
        "password in a URL": "postgres://league:" + "s3cr3t@db:5432/league",
    }
    for kind, sample in samples.items():
        assert ANYWHERE[kind].search(sample), kind
    assert not ANYWHERE["password in a URL"].search("postgres://user:pass@127.0.0.1/x ${POSTGRES_PASSWORD:-x}@")
    assert IN_CODE.search('SECRET_KEY = "' + 'q8w7e6r5t4y3u2i1o0p9"')
    assert not IN_CODE.search('_DEV_SECRET = "dev-insecure-secret-key-only-for-the-embedded-run"')
