#!/bin/sh
# The public postgres image's start, reduced to what deploy/compose.yaml uses: on an empty
# $PGDATA, a cluster whose superuser is $POSTGRES_USER (password $POSTGRES_PASSWORD, asked of
# every connection from another container) and a database $POSTGRES_DB; then the server, as the
# postgres user, listening on every address of the container.
set -eu
if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$PGDATA" /var/run/postgresql
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
    user=${POSTGRES_USER:-postgres}
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
    initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust \
        --auth-host=scram-sha-256 >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    db=${POSTGRES_DB:-$user}
    if [ "$db" != postgres ]; then
        echo "CREATE DATABASE \"$db\" OWNER \"$user\"" | postgres --single -D "$PGDATA" postgres >/dev/null
    fi
    echo "postgres-entrypoint: created the cluster in $PGDATA (database $db, user $user)"
fi
if [ "${1:-}" = postgres ]; then
    shift
    exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
