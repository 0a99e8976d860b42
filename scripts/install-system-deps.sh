#!/usr/bin/env bash
# Installs the Debian packages the test suite needs: `promtool` (package `prometheus`, checks the
# /metrics output) and `tmux` (drives the `svc ui` end-to-end test). Safe to run repeatedly: a
# package is installed only when its command is missing, and `apt-get update` runs at most once.
#
# Under CI (CI is set) a failure is fatal, so those tests always run there; on a developer
# machine a failure only prints how to install by hand, and the tests that need it are skipped.
set -uo pipefail

missing=()
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-system-deps: nothing to install (promtool and tmux are present)"
  exit 0
fi

fail() {
  echo "install-system-deps: could not install ${missing[*]}: $1" >&2
  echo "install-system-deps: install by hand with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
  if [ -n "${CI:-}" ]; then exit 1; fi
  echo "install-system-deps: continuing; tests that need them will be skipped" >&2
  exit 0
}

command -v apt-get >/dev/null 2>&1 || fail "apt-get not found (not a Debian-based system)"
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || fail "not root and sudo is not available"
  SUDO=(sudo)
fi

echo "install-system-deps: installing ${missing[*]}"
"${SUDO[@]}" apt-get update -qq || fail "apt-get update failed"
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" \
  || fail "apt-get install failed"
command -v promtool >/dev/null 2>&1 || fail "promtool still not on PATH after installing prometheus"
command -v tmux >/dev/null 2>&1 || fail "tmux still not on PATH after installing it"
echo "install-system-deps: installed ${missing[*]}"
