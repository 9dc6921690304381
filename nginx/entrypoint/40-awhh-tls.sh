#!/bin/sh
# HTTPS when there is a certificate (docs/operations.md "HTTPS"). The nginx image runs this after it
# rendered /etc/nginx/templates into conf.d (20-envsubst-on-templates.sh) and before nginx
# starts. envsubst knows no conditionals, so this picks the server block:
#   conf.d/http.server   the site over plain HTTP (no certificate, or none readable yet:
#                        certbot fetches the first one through /.well-known/acme-challenge/)
#   conf.d/https.server  plain HTTP redirects, the site on TLS_LISTEN_PORT
# and copies it to conf.d/server.conf. With TLS_CERT_FILE set, a loop in the background
# looks at the certificate and key every TLS_WATCH_SECONDS (default 300) and reloads nginx
# when they changed, appeared or went away: certbot's renewal takes effect without a
# restart, and the first certificate within minutes of being issued.
set -eu

# The image's rendered configuration (tests/stack/tls-entrypoint.spec.ts points it elsewhere).
conf="${AWHH_CONF_D:-/etc/nginx/conf.d}"
me="$0"

# "https <mtime of the certificate> <mtime of the key>", or "http" while either is missing.
tls_state() {
  if [ -n "${TLS_CERT_FILE:-}" ] && [ -n "${TLS_KEY_FILE:-}" ] &&
    [ -r "$TLS_CERT_FILE" ] && [ -r "$TLS_KEY_FILE" ]; then
    echo "https $(stat -L -c %Y "$TLS_CERT_FILE") $(stat -L -c %Y "$TLS_KEY_FILE")"
  else
    echo http
  fi
}

# Puts the server block for a state in place; a certificate nginx refuses (a key that does
# not match, a half-written file) leaves the site on plain HTTP rather than down.
apply() {
  case "$1" in
    https*)
      cp "$conf/https.server" "$conf/server.conf"
      if ! nginx -t -q; then
        echo "$me: nginx refuses $TLS_CERT_FILE / $TLS_KEY_FILE; serving plain HTTP" >&2
        cp "$conf/http.server" "$conf/server.conf"
        return
      fi
      echo "$me: HTTPS on port ${TLS_LISTEN_PORT} with $TLS_CERT_FILE"
      ;;
    *)
      cp "$conf/http.server" "$conf/server.conf"
      if [ -n "${TLS_CERT_FILE:-}" ]; then
        echo "$me: $TLS_CERT_FILE or ${TLS_KEY_FILE:-(TLS_KEY_FILE unset)} not readable; serving plain HTTP, certbot's challenges from ${ACME_WEBROOT}" >&2
      fi
      ;;
  esac
}

watch() {
  last="$1"
  while sleep "${TLS_WATCH_SECONDS:-300}"; do
    now=$(tls_state)
    [ "$now" = "$last" ] && continue
    last="$now"
    apply "$now"
    if nginx -s reload; then
      echo "$me: certificate changed, nginx reloaded"
    else
      echo "$me: nginx -s reload failed" >&2
    fi
  done
}

state=$(tls_state)
apply "$state"
if [ -n "${TLS_CERT_FILE:-}" ]; then
  # Detached from the entrypoint's standard input; its output goes to the container log.
  watch "$state" </dev/null &
fi
