#!/usr/bin/env bash
# axe-core (the accessibility rules engine) from the npm registry, for the browser tests that check
# every page: installed once into var/axe, pinned. Without npm and without root it is skipped (the
# axe checks then skip, and fail under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=4.14.1
TARGET=var/axe
if [ -f "$TARGET/node_modules/axe-core/axe.min.js" ] && grep -q "\"version\": \"$VERSION\"" "$TARGET/node_modules/axe-core/package.json"; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "npm is missing: install it (apt-get install npm) to run the accessibility checks." >&2
    exit 0
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
fi
mkdir -p "$TARGET"
npm install --prefix "$TARGET" --no-audit --no-fund --silent "axe-core@$VERSION"
