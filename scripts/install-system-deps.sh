#!/usr/bin/env bash
# Installs the Debian packages the test suite needs. Today that is only `promtool` (package
# `prometheus`), used to check the /metrics output. Safe to run repeatedly: it installs nothing
# when the tools are already there.
#
# Under CI (CI is set) a failure is fatal, so the promtool test always runs there; on a developer
# machine a failure only prints how to install by hand and the promtool test is skipped.
set -uo pipefail

missing=()
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-system-deps: nothing to install (promtool: $(command -v promtool))"
  exit 0
fi

fail() {
  echo "install-system-deps: could not install ${missing[*]}: $1" >&2
  echo "install-system-deps: install by hand with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
  if [ -n "${CI:-}" ]; then exit 1; fi
  echo "install-system-deps: continuing; tests that need promtool will be skipped" >&2
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
echo "install-system-deps: promtool installed at $(command -v promtool)"
