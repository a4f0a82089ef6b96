#!/usr/bin/env bash
# A local Eterna cluster on one machine, from Debian's postgresql, redis-server and nginx:
# PostgreSQL and Redis on private ports, NODES nodes of `eterna serve` and nginx in front
# spreading pages and API calls over them, a table's WebSockets on one node by its id (no
# sticky sessions by client). Everything lives in one folder (state, logs, pid files) and stops
# cleanly. See docs/web.md, "Running on several machines".
#
#   deploy/cluster.sh start     # = make cluster: http://127.0.0.1:8100
#   deploy/cluster.sh stop      # = make cluster-stop (the games stay in the folder's database)
#   deploy/cluster.sh status    # what runs, each node's health
#   deploy/cluster.sh start-node 2   # node 2 again, after it was killed
#
# Settings (environment):
#   ETERNA_CLUSTER_DIR    folder of state, logs and pid files (build/cluster)
#   ETERNA_CLUSTER_PORT   nginx's port (8100); node i listens on PORT+i, PostgreSQL on PORT+10,
#                         Redis on PORT+11
#   ETERNA_CLUSTER_NODES  number of nodes (3)
#   ETERNA_PYTHON         the Python that runs `-m eterna` (.venv/bin/python)
#   ETERNA_BOT_DELAY      the nodes' --bot-delay (the server's default when unset)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${ETERNA_CLUSTER_DIR:-$ROOT/build/cluster}
PORT=${ETERNA_CLUSTER_PORT:-8100}
NODES=${ETERNA_CLUSTER_NODES:-3}
PY=${ETERNA_PYTHON:-$ROOT/.venv/bin/python}
PG_PORT=$((PORT + 10))
REDIS_PORT=$((PORT + 11))
DATABASE_URL="postgresql+psycopg://eterna@127.0.0.1:$PG_PORT/eterna"
REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
NGINX=nginx

say() { echo "cluster: $*"; }
die() { echo "cluster: error: $*" >&2; exit 2; }

case "$PORT$NODES" in *[!0-9]*) die "ETERNA_CLUSTER_PORT and ETERNA_CLUSTER_NODES must be numbers" ;; esac
[ "$NODES" -ge 1 ] && [ "$NODES" -le 9 ] || die "ETERNA_CLUSTER_NODES must be 1 to 9 (node ports PORT+1..PORT+9)"

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

# PostgreSQL refuses to run as root: as root its commands run as the `postgres` user.
RUN_AS=()
[ "$(id -u)" = 0 ] && RUN_AS=(runuser -u postgres --)

# A process runs (a zombie does not: nothing may reap the daemons once this script has exited).
running() {
    local state
    kill -0 "$1" 2>/dev/null || return 1
    [ -r "/proc/$1/stat" ] || return 0
    state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
    [ -n "$state" ] && [ "$state" != Z ]
}
alive() { local pid; pid=$(cat "$1" 2>/dev/null) && [ -n "$pid" ] && running "$pid"; }

# Wait until URL answers {"ok": true} (at most $2 seconds); 1 when it never does.
healthy() {
    local url=$1 wait=${2:-0} i=0
    while :; do
        if curl -fsS --max-time 2 "$url/api/health" 2>/dev/null | grep -q '"ok": *true'; then
            return 0
        fi
        [ "$i" -ge $((wait * 5)) ] && return 1
        i=$((i + 1))
        sleep 0.2
    done
}

check_packages() {
    local missing=()
    [ -n "$(pg_bin)" ] || missing+=(postgresql)
    command -v redis-server >/dev/null || missing+=(redis-server)
    NGINX=$(command -v nginx || true)
    [ -z "$NGINX" ] && [ -x /usr/sbin/nginx ] && NGINX=/usr/sbin/nginx  # sbin: not on every PATH
    [ -n "$NGINX" ] || missing+=(nginx)
    command -v curl >/dev/null || missing+=(curl)
    if [ ${#missing[@]} -gt 0 ]; then
        die "missing: ${missing[*]}. Install them with: sudo apt-get install ${missing[*]}"
    fi
    [ -x "$PY" ] || die "no Python at $PY: run 'make run' once (it creates .venv), or set ETERNA_PYTHON"
    "$PY" -c "import psycopg" 2>/dev/null ||
        die "$PY lacks the PostgreSQL driver: $PY -m pip install -e '.[postgres]'"
}

# Every port the cluster listens on, free on 127.0.0.1 (bash's /dev/tcp: a connection that
# succeeds is a port in use): another cluster, or another user's, may hold the default range.
# PostgreSQL's own port is left out while this folder's PostgreSQL runs (pg_ctl says so).
check_ports() {
    local p busy=() ports=("$PORT")
    for i in $(seq "$NODES"); do ports+=($((PORT + i))); done
    [ -f "$DIR/pg/data/postmaster.pid" ] || ports+=("$PG_PORT")
    ports+=("$REDIS_PORT")
    for p in "${ports[@]}"; do
        if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then busy+=("$p"); fi
    done
    [ ${#busy[@]} -eq 0 ] ||
        die "port(s) ${busy[*]} already in use on 127.0.0.1 (another cluster? the range is $PORT-$REDIS_PORT): choose another range, e.g. ETERNA_CLUSTER_PORT=$((PORT + 100)) make cluster"
}

# Open files: nginx needs two a proxied connection, a node one a socket. The soft limit (often
# 1024) is raised as far as the hard one allows, which needs no root, and nginx's connections
# are sized to what was granted.
raise_open_files() {
    local hard
    hard=$(ulimit -Hn)
    case "$hard" in unlimited|*[!0-9]*) hard=65536 ;; esac
    [ "$hard" -gt 65536 ] && hard=65536
    [ "$(ulimit -Sn)" = unlimited ] || [ "$(ulimit -Sn)" -ge "$hard" ] || ulimit -Sn "$hard" 2>/dev/null || true
    OPEN_FILES=$(ulimit -Sn)
    case "$OPEN_FILES" in unlimited|*[!0-9]*) OPEN_FILES=65536 ;; esac
    NGINX_CONNECTIONS=$((OPEN_FILES / 2 < 4096 ? OPEN_FILES / 2 : 4096))
}

start_postgres() {
    local bin
    bin=$(pg_bin)
    mkdir -p "$DIR/pg"
    if [ "$(id -u)" = 0 ]; then
        chown postgres "$DIR/pg"
        "${RUN_AS[@]}" test -w "$DIR/pg" ||
            die "PostgreSQL runs as the user postgres, who cannot reach $DIR/pg: set ETERNA_CLUSTER_DIR to a folder every user can reach"
    fi
    if [ ! -f "$DIR/pg/data/PG_VERSION" ]; then
        say "creating the PostgreSQL cluster in $DIR/pg/data"
        "${RUN_AS[@]}" "$bin/initdb" -D "$DIR/pg/data" -U eterna --auth=trust >"$DIR/logs/initdb.log" 2>&1 ||
            die "initdb failed: see $DIR/logs/initdb.log"
    fi
    say "PostgreSQL on 127.0.0.1:$PG_PORT"
    "${RUN_AS[@]}" "$bin/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/postgres.log" -w -t 30 \
        -o "-p $PG_PORT -k $DIR/pg -c listen_addresses=127.0.0.1" start >/dev/null ||
        die "PostgreSQL did not start: see $DIR/pg/postgres.log"
    if ! "${RUN_AS[@]}" "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U eterna -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = 'eterna'" | grep -q 1; then
        "${RUN_AS[@]}" "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U eterna eterna
    fi
}

start_redis() {
    say "Redis on 127.0.0.1:$REDIS_PORT"
    mkdir -p "$DIR/redis"
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes \
        --pidfile "$DIR/run/redis.pid" --logfile "$DIR/logs/redis.log" --dir "$DIR/redis" \
        --save "" --appendonly no >/dev/null || die "Redis did not start: see $DIR/logs/redis.log"
    for _ in $(seq 50); do [ -s "$DIR/run/redis.pid" ] && return 0; sleep 0.1; done
    die "Redis did not start: see $DIR/logs/redis.log"
}

start_node() {
    local i=$1 port=$((PORT + $1)) node=()
    [ ${#CLUSTER[@]} -gt 0 ] && node=(--node-id "node$i")
    say "node $i on 127.0.0.1:$port (log $DIR/logs/node$i.log)"
    # setsid: a node is not in the caller's process group (Ctrl+C in the terminal that ran
    # `make cluster` does not reach it); each is stopped by its pid file. Its log is appended
    # to, never truncated (a node started again keeps what the killed one said, and counts
    # grepped in it go on), each start marked by a line with its time and pid: the shell
    # writes it, then becomes the node (exec keeps the pid).
    setsid bash -c 'echo "=== node $1 started $(date -u +%Y-%m-%dT%H:%M:%SZ), pid $$ ==="; shift; exec "$@"' \
        start "$i" "$PY" -m eterna serve --host 127.0.0.1 --port "$port" \
        --database-url "$DATABASE_URL" "${CLUSTER[@]}" "${node[@]}" \
        --forwarded-allow-ips 127.0.0.1 "${DELAY[@]}" \
        >>"$DIR/logs/node$i.log" 2>&1 </dev/null &
    echo $! >"$DIR/run/node$i.pid"
}

# Wait until node $1 answers; stop at once when it exited.
node_up() {
    local i=$1
    for _ in $(seq 600); do
        healthy "http://127.0.0.1:$((PORT + i))" && return 0
        alive "$DIR/run/node$i.pid" || die "node $i exited: $(tail -n 1 "$DIR/logs/node$i.log")"
        sleep 0.1
    done
    die "node $i did not answer on port $((PORT + i)) within a minute: see $DIR/logs/node$i.log"
}

node_options() {
    CLUSTER=(--redis-url "$REDIS_URL")
    local help
    help=$("$PY" -m eterna serve --help 2>/dev/null || true)  # whole: grep -q would cut the pipe
    if ! grep -q -- --redis-url <<<"$help"; then
        say "warning: this eterna has no --redis-url: the nodes share PostgreSQL only (not a cluster)"
        CLUSTER=()
    fi
    DELAY=()
    [ -n "${ETERNA_BOT_DELAY:-}" ] && DELAY=(--bot-delay "$ETERNA_BOT_DELAY")
    return 0
}

start_nodes() {
    node_options
    # node 1 first: it creates or upgrades the database's tables, alone
    start_node 1
    node_up 1
    for i in $(seq 2 "$NODES"); do start_node "$i"; done
    for i in $(seq 2 "$NODES"); do node_up "$i"; done
}

write_nginx_conf() {
    local servers="" last="" user=""
    for i in $(seq "$NODES"); do
        servers+="        server 127.0.0.1:$((PORT + i)) max_fails=1 fail_timeout=5s;"$'\n'
        last+="        server 127.0.0.1:$((PORT + i)) max_fails=0;"$'\n'
    done
    mkdir -p "$DIR/nginx/tmp"
    if [ "$(id -u)" = 0 ]; then  # as root nginx's workers drop to www-data (Debian's nginx user)
        user="user www-data;"
        chown www-data "$DIR/nginx/tmp"
    fi
    cat >"$DIR/nginx/nginx.conf" <<EOF
# Written by deploy/cluster.sh: nginx in front of $NODES Eterna nodes (the locations are
# deploy/eterna-locations.conf, shared with the Compose deployment's deploy/nginx.conf).
$user
worker_processes 1;
pid $DIR/run/nginx.pid;
error_log $DIR/logs/nginx-error.log warn;
events { worker_connections $NGINX_CONNECTIONS; }
http {
    client_body_temp_path $DIR/nginx/tmp/body;
    proxy_temp_path $DIR/nginx/tmp/proxy;
    fastcgi_temp_path $DIR/nginx/tmp/fastcgi;
    uwsgi_temp_path $DIR/nginx/tmp/uwsgi;
    scgi_temp_path $DIR/nginx/tmp/scgi;
    # the request's path only: seat tokens travel in query strings
    log_format eterna '\$remote_addr [\$time_local] "\$request_method \$uri" \$status \$upstream_addr';
    access_log $DIR/logs/nginx-access.log eterna;
    map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }
    map \$uri \$table_id { "~^/ws/tables/(?<id>[^/]+)\$" \$id; default ""; }  # a socket's table
    upstream eterna {
        least_conn;  # pages and API calls: the node with the fewest open connections
$servers        keepalive 32;
    }
    upstream eterna_tables {
        # a table's sockets on one node; a node down: its tables' sockets go to the next node
        hash \$table_id consistent;
$servers    }
    upstream eterna_last {
        # when every node above is left out: ask them anyway (eterna-locations.conf)
$last    }
    server {
        listen 127.0.0.1:$PORT;
        include $ROOT/deploy/eterna-locations.conf;
    }
}
EOF
}

start_nginx() {
    write_nginx_conf
    say "nginx on 127.0.0.1:$PORT"
    "$NGINX" -t -q -e "$DIR/logs/nginx-error.log" -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx" ||
        die "nginx refused its configuration: see $DIR/logs/nginx-error.log"
    "$NGINX" -e "$DIR/logs/nginx-error.log" -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx" ||
        die "nginx did not start: see $DIR/logs/nginx-error.log"
}

# Stop one process by its pid file: signal $3 (TERM: a node drains), SIGKILL after $2 seconds.
stop_pid() {
    local file=$1 wait=$2 signal=${3:-TERM} pid
    pid=$(cat "$file" 2>/dev/null) || true
    if [ -n "$pid" ] && running "$pid"; then
        say "stopping $(basename "$file" .pid)"
        kill "-$signal" "$pid" 2>/dev/null || true
        for _ in $(seq $((wait * 10))); do running "$pid" || break; sleep 0.1; done
        if running "$pid"; then
            say "$(basename "$file" .pid) did not stop in ${wait} s: killed"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    rm -f "$file"
}

stop() {
    local bin
    stop_pid "$DIR/run/nginx.pid" 10 QUIT  # QUIT: nginx ends its open requests first
    for file in "$DIR"/run/node*.pid; do
        [ -e "$file" ] && stop_pid "$file" 20
    done
    stop_pid "$DIR/run/redis.pid" 10
    bin=$(pg_bin)
    if [ -n "$bin" ] && [ -f "$DIR/pg/data/postmaster.pid" ]; then
        say "stopping PostgreSQL"
        "${RUN_AS[@]}" "$bin/pg_ctl" -D "$DIR/pg/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
}

start() {
    check_packages
    if alive "$DIR/run/nginx.pid" || compgen -G "$DIR/run/node*.pid" >/dev/null; then
        die "a cluster already runs from $DIR: 'make cluster-stop' first"
    fi
    check_ports
    raise_open_files
    mkdir -p "$DIR/logs" "$DIR/run" "$DIR/nginx"
    # a failed start stops what it started
    trap 'status=$?; if [ $status -ne 0 ]; then say "start failed: stopping what started"; stop; fi' EXIT
    start_postgres
    start_redis
    start_nodes
    start_nginx
    healthy "http://127.0.0.1:$PORT" 10 || die "nginx does not reach the nodes: see $DIR/logs/nginx-error.log"
    trap - EXIT
    say "running: open http://127.0.0.1:$PORT ($NODES nodes on ports $((PORT + 1))-$((PORT + NODES)))"
    say "logs in $DIR/logs; stop it with 'make cluster-stop' (deploy/cluster.sh stop)"
}

status() {
    local any=1
    for file in "$DIR"/run/*.pid; do
        [ -e "$file" ] || continue
        any=0
        local name
        name=$(basename "$file" .pid)
        if alive "$file"; then echo "$name: running (pid $(cat "$file"))"; else echo "$name: dead (stale pid file)"; fi
    done
    [ -f "$DIR/pg/data/postmaster.pid" ] && { any=0; echo "postgresql: running (127.0.0.1:$PG_PORT)"; }
    [ $any = 1 ] && { echo "no cluster runs from $DIR"; return 0; }
    for i in $(seq "$NODES"); do
        if healthy "http://127.0.0.1:$((PORT + i))"; then echo "node$i health: ok"; else echo "node$i health: NOT OK"; fi
    done
    if healthy "http://127.0.0.1:$PORT"; then echo "site http://127.0.0.1:$PORT: ok"; else echo "site: NOT OK"; fi
}

# One node again (after it was killed, to watch it come back): start-node I.
start_one() {
    local i=${1:-}
    case "$i" in ''|*[!0-9]*) die "start-node needs a node number (1 to $NODES)" ;; esac
    [ "$i" -ge 1 ] && [ "$i" -le "$NODES" ] || die "no node $i: nodes are 1 to $NODES"
    alive "$DIR/run/nginx.pid" || die "no cluster runs from $DIR: 'make cluster' first"
    alive "$DIR/run/node$i.pid" && die "node $i already runs (pid $(cat "$DIR/run/node$i.pid"))"
    check_packages
    raise_open_files
    node_options
    start_node "$i"
    node_up "$i"
    say "node $i is back on 127.0.0.1:$((PORT + i))"
}

case "${1:-}" in
    start) start ;;
    start-node) start_one "${2:-}" ;;
    stop) stop; say "stopped (the games stay in $DIR/pg; remove $DIR to forget them)" ;;
    status) status ;;
    *) echo "usage: $0 start|stop|status|start-node I" >&2; exit 2 ;;
esac
