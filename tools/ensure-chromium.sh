#!/usr/bin/env bash
# The web board's end-to-end tests drive Debian's chromium through Playwright (never a downloaded
# browser build). Install it when it is missing and this machine can (root, or sudo without a
# password, and apt-get); otherwise say so in one line: the browser tests are then skipped.
set -u
chromium=${KNIGHTSTOUR_CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] && exit 0
if [ -n "${KNIGHTSTOUR_CHROMIUM:-}" ]; then
    echo "ensure-chromium: KNIGHTSTOUR_CHROMIUM=$chromium is not an executable; browser tests will be skipped"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: no apt-get here to install Debian's chromium; browser tests will be skipped"
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    echo "ensure-chromium: not root and no password-less sudo; run 'apt-get install chromium' as root to enable the browser tests"
    exit 0
fi
echo "ensure-chromium: installing Debian's chromium for the browser tests (apt-get install chromium)"
export DEBIAN_FRONTEND=noninteractive
if $sudo apt-get update -qq >/dev/null 2>&1 && $sudo apt-get install -y -qq chromium >/dev/null 2>&1; then
    exit 0
fi
echo "ensure-chromium: apt-get could not install chromium; browser tests will be skipped"
exit 0
