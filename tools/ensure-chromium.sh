#!/usr/bin/env bash
# The web board's end-to-end tests drive Debian's Chromium through Playwright (never a downloaded
# browser build): the package chromium-headless-shell (the same engine without the full
# browser's window machinery: far less CPU a page), or else chromium. Install the headless shell
# when neither is there and this machine can (root, or sudo without a password,
# and apt-get); otherwise say so in one line: the browser tests are then skipped.
set -u
if [ -n "${KNIGHTSTOUR_CHROMIUM:-}" ]; then
    [ -x "$KNIGHTSTOUR_CHROMIUM" ] && exit 0
    echo "ensure-chromium: KNIGHTSTOUR_CHROMIUM=$KNIGHTSTOUR_CHROMIUM is not an executable; browser tests will be skipped"
    exit 0
fi
[ -x /usr/bin/chromium-headless-shell ] && exit 0
package=chromium-headless-shell
if ! command -v apt-get >/dev/null 2>&1; then
    [ -x /usr/bin/chromium ] && exit 0
    echo "ensure-chromium: no apt-get here to install Debian's $package; browser tests will be skipped"
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    [ -x /usr/bin/chromium ] && exit 0
    echo "ensure-chromium: not root and no password-less sudo; run 'apt-get install $package' as root to enable the browser tests"
    exit 0
fi
echo "ensure-chromium: installing Debian's $package for the browser tests (apt-get install $package)"
export DEBIAN_FRONTEND=noninteractive
if $sudo apt-get update -qq >/dev/null 2>&1 && $sudo apt-get install -y -qq $package >/dev/null 2>&1; then
    exit 0
fi
[ -x /usr/bin/chromium ] && exit 0
echo "ensure-chromium: apt-get could not install $package; browser tests will be skipped"
exit 0
