#!/usr/bin/env bash
# Lints the nginx site in deploy/nginx/ with `nginx -t`: installs Debian's nginx-light when nginx is
# missing, makes a throwaway self-signed certificate, substitutes it for the placeholder certificate
# paths, wraps the upstream and the site in a minimal nginx.conf (http {}) and tests that. Nothing is
# started and nothing outside a temporary directory is written.
# (compose-upstream.conf names compose services, which do not resolve here, so it is not loaded.)
set -euo pipefail
cd "$(dirname "$0")/.."

NGINX=$(command -v nginx || true)
[ -z "$NGINX" ] && [ -x /usr/sbin/nginx ] && NGINX=/usr/sbin/nginx
if [ -z "$NGINX" ]; then
  echo "[nginx] installing Debian nginx-light"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends nginx-light openssl >/dev/null
  NGINX=/usr/sbin/nginx
fi

WORK=$(mktemp -d /tmp/portal-nginx.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/logs" "$WORK/tmp"

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=portal.example.edu" \
  -keyout "$WORK/privkey.pem" -out "$WORK/fullchain.pem" >/dev/null 2>&1

# The placeholders, and the log directory (which may not exist where nginx is not installed as a service).
sed -e "s#/etc/ssl/portal/#$WORK/#g" -e "s#/var/log/nginx/#$WORK/logs/#g" deploy/nginx/portal.conf >"$WORK/portal.conf"
cp deploy/nginx/portal-upstream.conf "$WORK/portal-upstream.conf"
if grep -q '/etc/ssl/portal/' "$WORK/portal.conf"; then
  echo "[nginx] a certificate placeholder was not substituted" >&2
  exit 1
fi

MIME=/etc/nginx/mime.types
cat >"$WORK/nginx.conf" <<EOF
pid $WORK/nginx.pid;
error_log $WORK/logs/error.log;
events {}
http {
  $([ -f "$MIME" ] && echo "include $MIME;")
  client_body_temp_path $WORK/tmp/body;
  proxy_temp_path $WORK/tmp/proxy;
  fastcgi_temp_path $WORK/tmp/fastcgi;
  uwsgi_temp_path $WORK/tmp/uwsgi;
  scgi_temp_path $WORK/tmp/scgi;
  include $WORK/portal-upstream.conf;
  include $WORK/portal.conf;
}
EOF

echo "[nginx] $("$NGINX" -v 2>&1): testing deploy/nginx/portal.conf + portal-upstream.conf"
"$NGINX" -t -p "$WORK" -c "$WORK/nginx.conf"
