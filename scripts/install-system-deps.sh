#!/usr/bin/env bash
# Installs the Debian packages that the build and the test suite need, each only when its
# command is missing (safe to run repeatedly; `apt-get update` runs at most once):
#   cc        gcc + libc6-dev   compiles the plugins and the spawner (npm run build)
#   promtool  prometheus        checks the /metrics output (its service is never started)
#   tmux      tmux              drives the `svc ui` end-to-end test
#   chromium  chromium          the browser the web dashboard's end-to-end test drives (playwright-core)
#   systemd-analyze  systemd    verifies the units `svc export --format systemd` writes (only the
#                               tool is used; in a container nothing of systemd is started)
#   zsh, fish zsh, fish         run the `svc completion zsh|fish` scripts in the end-to-end test
#   git       git               svcd fetches git sources with it ([[stacks.git]], docs/gitops.md); the tests make repositories
#   ssh-keygen openssh-client   signs and verifies commits in the signed-only GitOps test (git verify-commit runs ssh-keygen)
#   s6-svscan s6                the third peer of `npm run bench` (the bench starts its own
#                               s6-svscan on a temporary scan directory; nothing system-wide)
#
# `--build`: only what `npm run build` needs (the C compiler), for a machine that runs svcd and
# not the test suite (the README's run command).
#
# Under CI (CI is set) a failure is fatal, so those tests always run there; on a developer
# machine a failure only prints how to install by hand, and the tests that need it are skipped.
set -uo pipefail

# command:package pairs
NEEDS=(
  "cc:gcc libc6-dev"
  "promtool:prometheus"
  "tmux:tmux"
  "chromium:chromium"
  "systemd-analyze:systemd"
  "zsh:zsh"
  "fish:fish"
  "openssl:openssl"
  "git:git"
  "ssh-keygen:openssh-client"
  "s6-svscan:s6"
)

[ "${1:-}" = "--build" ] && NEEDS=("${NEEDS[0]}")

missing=()
for pair in "${NEEDS[@]}"; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=(${pair#*:})
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-system-deps: nothing to install"
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
# policy-rc.d 101: packages with a service (prometheus) are installed, never started.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee "$policy" >/dev/null && "${SUDO[@]}" chmod +x "$policy" && own_policy=1
fi
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
status=$?
[ "$own_policy" = 1 ] && "${SUDO[@]}" rm -f "$policy"
[ "$status" = 0 ] || fail "apt-get install failed"
# Only promtool is wanted: on a machine that runs systemd, keep the Prometheus server from starting
# at the next boot too (policy-rc.d above only kept it from starting now). Absent unit: nothing to do.
if [[ " ${missing[*]} " == *" prometheus "* ]] && [ -d /run/systemd/system ]; then
  "${SUDO[@]}" systemctl disable --now prometheus.service >/dev/null 2>&1 || echo "install-system-deps: note: could not disable prometheus.service; stop it with: sudo systemctl disable --now prometheus" >&2
fi
for pair in "${NEEDS[@]}"; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || fail "${pair%%:*} still not on PATH after installing ${pair#*:}"
done
echo "install-system-deps: installed ${missing[*]}"
