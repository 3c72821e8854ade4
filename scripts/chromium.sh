#!/usr/bin/env bash
# Debian's Chromium for the browser tests (never a browser download).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  # Not root: leave the machine alone; the browser tests skip (and fail under CI=true).
  echo "Debian's chromium is missing: install it (apt-get install chromium) to run the browser tests." >&2
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
