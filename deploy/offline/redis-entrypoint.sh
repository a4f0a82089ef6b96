#!/bin/sh
# The public redis image's start: redis-server as the redis user, reachable from the other
# containers (protected mode off, as the public image has it: the project's network is the fence).
set -eu
if [ "${1:-}" = redis-server ]; then
    shift
    exec setpriv --reuid=redis --regid=redis --init-groups redis-server --protected-mode no "$@"
fi
exec "$@"
