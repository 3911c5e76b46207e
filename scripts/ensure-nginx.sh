#!/usr/bin/env bash
# Installs Debian's nginx when missing (npm run cluster, the cluster tests and bench/cluster.ts).
# Only the binary is used: the cluster runs its own nginx with its own prefix and config, never
# the system's service. apt-get's post-install may start that service: it is stopped again.
set -euo pipefail
NGINX="${NGINX_PATH:-/usr/sbin/nginx}"
[ -x "$NGINX" ] && exit 0
echo "Installing nginx with apt-get..."
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
# policy-rc.d answer 101: "do not start services" while installing (no system nginx on port 80).
POLICY=/usr/sbin/policy-rc.d
CREATED_POLICY=0
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
  $SUDO chmod +x "$POLICY"
  CREATED_POLICY=1
fi
cleanup() { if [ "$CREATED_POLICY" = 1 ]; then $SUDO rm -f "$POLICY"; fi; }
trap cleanup EXIT
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nginx >/dev/null
