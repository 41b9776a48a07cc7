#!/usr/bin/env bash
# Installs Debian's chromium for the e2e leg when it is missing (playwright-core drives it).
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  echo "[chromium] installing Debian chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
chromium --version
