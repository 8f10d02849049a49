#!/usr/bin/env bash
# Installs the Debian packages the integration tests need (Virtuoso, Redis,
# a Java runtime and Maven for Apache Jena Fuseki, and Chromium for the page
# tests) when they are missing, without leaving their system services running,
# then has Maven fetch Fuseki (scripts/fetch-fuseki.sh: once, then from its
# cache, offline).
#
# The tests start their own private instances on free loopback ports; the
# packaged services (Virtuoso on 1111/8890, Redis on 6379) are never used, so
# we keep the postinst scripts from starting them and stop any that did start.
#
# FEDPOD_TEST_DEPS_REINSTALL=1 reinstalls them even when present.
# Exit codes: 0 = everything present, 2 = cannot install (not root, no sudo),
# other = apt failure.
set -euo pipefail

log() { echo "[test-deps] $*"; }

# binary that proves the package is usable -> Debian package providing it
declare -A PACKAGE_FOR=(
  [virtuoso-t]=virtuoso-opensource
  [isql-vt]=virtuoso-opensource
  [redis-server]=redis-server
  # Headless browser for the page tests.
  [chromium]=chromium
  # Apache Jena Fuseki runs on java (17 or later) and is fetched by Maven (scripts/fetch-fuseki.sh).
  [java]=default-jre-headless
  [mvn]=maven
)
# Daemons whose packaged service we must not leave running.
DAEMONS=(virtuoso-t redis-server)

missing_packages() {
  local bin pkgs=()
  for bin in "${!PACKAGE_FOR[@]}"; do
    command -v "$bin" >/dev/null 2>&1 || pkgs+=("${PACKAGE_FOR[$bin]}")
  done
  # de-duplicate, stable order
  if ((${#pkgs[@]})); then printf '%s\n' "${pkgs[@]}" | sort -u; fi
}

# Picks how to become root: nothing, sudo, or give up with a clear message.
SUDO=()
choose_privilege() {
  if [[ $(id -u) -eq 0 ]]; then return 0; fi
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
    return 0
  fi
  log "ERROR: need root to install: $*"
  log "       run: sudo apt-get install -y --no-install-recommends $*"
  log "       (integration tests need them; unit tests do not)"
  return 2
}

as_root() { "${SUDO[@]}" "$@"; }

apt_get() {
  # Wait for the dpkg lock instead of failing: other sessions may be installing.
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get -q -o DPkg::Lock::Timeout=600 "$@"
}

# apt-cache only knows a package once the lists were downloaded.
package_known() {
  apt-cache show --no-all-versions "$1" >/dev/null 2>&1
}

# A policy-rc.d that exits 101 tells invoke-rc.d "do not start services".
# Docker-style images already have one; add ours only when none exists.
POLICY=/usr/sbin/policy-rc.d
OWN_POLICY=0
block_service_start() {
  if [[ -e $POLICY ]]; then return 0; fi
  printf '#!/bin/sh\n# temporary, from fedpod scripts/ensure-test-deps.sh\nexit 101\n' |
    as_root tee "$POLICY" >/dev/null
  as_root chmod 755 "$POLICY"
  OWN_POLICY=1
}
restore_service_start() {
  if ((OWN_POLICY)); then as_root rm -f "$POLICY"; OWN_POLICY=0; fi
}

daemon_pids() { pgrep -x "$1" 2>/dev/null | sort || true; }

# Stops daemons that appeared during the install (started by a postinst
# despite policy-rc.d, e.g. under systemd); leaves pre-existing ones alone.
stop_new_daemons() {
  local name before pid
  for name in "${DAEMONS[@]}"; do
    before=${BEFORE_PIDS[$name]:-}
    for pid in $(daemon_pids "$name"); do
      if grep -qx "$pid" <<<"$before"; then continue; fi
      log "stopping $name (pid $pid) started by its package's postinst"
      as_root kill -TERM "$pid" 2>/dev/null || true
    done
  done
  # systemd machines would restart them otherwise; harmless elsewhere.
  if [[ -d /run/systemd/system ]]; then
    as_root systemctl disable --now redis-server virtuoso-opensource-7 >/dev/null 2>&1 || true
  fi
}

main() {
  local pkgs reinstall=()
  mapfile -t pkgs < <(missing_packages)
  # FEDPOD_TEST_DEPS_REINSTALL=1 repairs a broken install (apt --reinstall).
  if [[ ${FEDPOD_TEST_DEPS_REINSTALL:-} == 1 ]]; then
    mapfile -t pkgs < <(printf '%s\n' "${PACKAGE_FOR[@]}" | sort -u)
    reinstall=(--reinstall)
  fi
  if ((${#pkgs[@]} == 0)); then
    log "${!PACKAGE_FOR[*]} present"
    fetch_fuseki
    return 0
  fi
  log "installing Debian packages: ${pkgs[*]}"
  choose_privilege "${pkgs[@]}" || return $?

  local p need_update=0
  for p in "${pkgs[@]}"; do package_known "$p" || need_update=1; done
  if ((need_update)); then
    log "apt-get update (package lists missing or stale)"
    apt_get update >/dev/null
  fi

  declare -gA BEFORE_PIDS=()
  local name
  for name in "${DAEMONS[@]}"; do BEFORE_PIDS[$name]=$(daemon_pids "$name"); done

  block_service_start
  trap restore_service_start EXIT
  local started=$SECONDS
  if ! apt_get install -y --no-install-recommends "${reinstall[@]}" "${pkgs[@]}" >/tmp/fedpod-apt-install.log 2>&1; then
    # Lists can be stale (404 on a superseded .deb): refresh once and retry.
    log "install failed; apt-get update and retry (log: /tmp/fedpod-apt-install.log)"
    apt_get update >/dev/null
    apt_get install -y --no-install-recommends "${reinstall[@]}" "${pkgs[@]}" >/tmp/fedpod-apt-install.log 2>&1 || {
      tail -n 30 /tmp/fedpod-apt-install.log >&2
      return 1
    }
  fi
  restore_service_start
  stop_new_daemons
  log "installed in $((SECONDS - started)) s"

  mapfile -t pkgs < <(missing_packages)
  if ((${#pkgs[@]})); then
    log "ERROR: still missing after install: ${pkgs[*]}"
    return 1
  fi
  fetch_fuseki
}

# Into the tests' git-ignored temp dir (where test/support/fuseki.ts looks); nothing to do when
# it is there. Needs no root: Maven caches in the user's own local repository.
fetch_fuseki() {
  local jar
  jar=$(bash "$(dirname "${BASH_SOURCE[0]}")/fetch-fuseki.sh")
  log "Apache Jena Fuseki: $jar"
}

main "$@"
