#!/usr/bin/env bash
# Only for a machine that cannot reach Docker Hub (a normal user never needs this): builds
# stand-ins for the public images deploy/compose.yaml uses, from Debian's packages alone, and
# deploy/offline.env names them for Compose:
#
#   deploy/offline-images.sh
#   docker compose --env-file deploy/offline.env -f deploy/compose.yaml up -d --build
#
# Steps: `debootstrap --variant=minbase bookworm` into a folder, `docker import` of it as
# eterna-offline/debian:bookworm, then each target of deploy/offline/Dockerfile FROM it (Python
# 3.11, PostgreSQL 15, Redis 7 and nginx, all Debian 12's). Needs root (debootstrap), a running
# Docker daemon and Debian's mirror (apt-get install debootstrap). The images trust the
# certificates this machine added to /usr/local/share/ca-certificates (a proxy that re-signs
# TLS: the node's image is built with pip from PyPI).
#
# Settings (environment): ETERNA_OFFLINE_MIRROR (http://deb.debian.org/debian),
# ETERNA_OFFLINE_ROOTFS (the debootstrap folder, build/offline-rootfs; kept for the next run).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
MIRROR=${ETERNA_OFFLINE_MIRROR:-http://deb.debian.org/debian}
ROOTFS=${ETERNA_OFFLINE_ROOTFS:-$ROOT/build/offline-rootfs}
say() { echo "offline-images: $*"; }
die() { echo "offline-images: error: $*" >&2; exit 2; }

command -v docker >/dev/null || die "no docker command"
docker info >/dev/null 2>&1 || die "no Docker daemon answers (docker info)"

if ! docker image inspect eterna-offline/debian:bookworm >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || die "debootstrap needs root"
    command -v debootstrap >/dev/null || die "missing debootstrap: apt-get install debootstrap"
    if [ ! -x "$ROOTFS/bin/sh" ]; then
        say "debootstrap bookworm into $ROOTFS (a minute or two)"
        rm -rf "$ROOTFS"
        debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >"$ROOTFS.log" 2>&1 ||
            die "debootstrap failed: see $ROOTFS.log"
    fi
    say "importing $ROOTFS as eterna-offline/debian:bookworm"
    tar -C "$ROOTFS" --exclude="./var/cache/apt/archives/*.deb" -c . | docker import - eterna-offline/debian:bookworm >/dev/null
fi

# The build context: deploy/offline and this machine's added certificates (none is fine).
CONTEXT=$(mktemp -d)
trap 'rm -rf "$CONTEXT"' EXIT
cp "$ROOT"/deploy/offline/* "$CONTEXT"/
mkdir "$CONTEXT/ca"
cp /usr/local/share/ca-certificates/*.crt "$CONTEXT/ca/" 2>/dev/null || true

build() {
    say "building $2 (target $1)"
    docker build -q --target "$1" -t "$2" "$CONTEXT" >/dev/null
}
build python eterna-offline/python:3.11-bookworm
build python-build eterna-offline/python-build:3.11-bookworm
build postgres eterna-offline/postgres:15-bookworm
build redis eterna-offline/redis:7-bookworm
build nginx eterna-offline/nginx:bookworm
say "done: docker compose --env-file deploy/offline.env -f deploy/compose.yaml up -d --build"
