#!/usr/bin/env bash
# A compose client to check docker-compose.yml without a Docker engine (`config` works offline):
# Docker's own plugin if present, else Debian's docker-compose, installed when missing and run as root.
set -euo pipefail
if docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "no compose client: install docker-compose to check docker-compose.yml in the tests." >&2
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
