#!/usr/bin/env bash
# Debian's nginx for the balancer (make cluster, the balancer tests and benches); installed when
# missing and run as root, otherwise left alone (the balancer tests skip, and fail under CI=true).
set -euo pipefail
if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "nginx is missing: install it (apt-get install nginx) to run the balancer tests and make cluster." >&2
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
