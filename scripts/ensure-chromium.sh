#!/bin/sh
# The explorer's browser test drives a real Chromium: `make test` runs this first. Chromium is UMBRA_CHROMIUM or the
# Debian package's /usr/bin/chromium. When neither is there, it is installed with apt-get if this machine can (root,
# Debian/Ubuntu); otherwise the run stops at once, saying exactly what to install.
set -eu
if [ -n "${UMBRA_CHROMIUM:-}" ]; then
  [ -x "$UMBRA_CHROMIUM" ] && exit 0
  echo "UMBRA_CHROMIUM=$UMBRA_CHROMIUM is not an executable file: point it at a Chromium binary, or unset it" >&2
  exit 1
fi
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing (the explorer's browser test needs it): installing the Debian package chromium"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "The explorer's browser test needs Chromium at /usr/bin/chromium. Install it first:" >&2
echo "  sudo apt-get install -y chromium      (Debian/Ubuntu)" >&2
echo "or set UMBRA_CHROMIUM to the path of a Chromium or Chrome binary." >&2
exit 1
