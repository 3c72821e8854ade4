#!/usr/bin/env bash
# Debian's Chromium for the browser tests (never a browser download).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Install Debian's chromium package (apt-get install chromium) for the browser tests." >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
