#!/usr/bin/env bash
# Debian packages the test suite needs. One function per package; each installs only when its
# command is missing, and `apt-get update` runs at most once. Add a function per new package.
set -euo pipefail

updated=0
apt_install() {
  local sudo=''
  if [ "$(id -u)" -ne 0 ]; then sudo='sudo'; fi
  if [ "$updated" -eq 0 ]; then
    $sudo apt-get update -qq
    updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@"
}

# tmux: the end-to-end test of `svc ui` drives the dashboard in a tmux session.
install_tmux() {
  command -v tmux >/dev/null 2>&1 || apt_install tmux
}

install_tmux
