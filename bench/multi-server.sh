#!/usr/bin/env bash
# Several Trestle servers on one PostgreSQL database compared with one server, under the same client load.
#
# Starts --servers Trestle servers (`trestle serve`, each with its own pool) on one database, then for each
# workload runs the same number of table-bench processes twice: all against the first server ("one server"),
# then each against its own server ("N servers"), every process with --concurrency client threads. Prints
# ops/s (summed over the processes) and errors per workload and mode, and the load average.
#
# usage: bench/multi-server.sh [flags]
#   --servers N          servers, and table-bench processes (default 3)
#   --concurrency N      client threads per table-bench process (default 2)
#   --workloads LIST     table-bench workloads (default insert,point-read,upsert,mixed,batch-insert,partition-scan)
#   --duration D         measured time per run (default 10s), after --warmup (default 3s)
#   --pool-size N        each server's database pool (default 4)
#   --rounds N           measured rounds per workload, alternating the order of the two modes (default 2)
#   --jit-warmup D       before measuring, every server runs the workloads unmeasured for D (default 20s), so
#                        that no mode is measured on servers the JIT has not compiled yet
#   --table-size N       preloaded entities for the read workloads (default 20000)
#   --pg-host H --pg-port P --pg-user U --pg-database D   (default 127.0.0.1 5432 root trestle_multi_bench;
#                        the database is dropped and created again)
#   --out DIR            logs and CSV (default: a new /tmp/trestle-multi.*)
#
# On one machine the servers share its cores with PostgreSQL and the clients: the figures say what several
# servers cost and that they answer without errors, not how far they scale on separate machines.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
servers=3
concurrency=2
workloads=insert,point-read,upsert,mixed,batch-insert,partition-scan
duration=10s
warmup=3s
pool_size=4
rounds=2
jit_warmup=20s
table_size=20000
pg_host=127.0.0.1
pg_port=5432
pg_user=root
pg_database=trestle_multi_bench
out=
bench_jar="${TABLE_BENCH_JAR:-/tmp/tools/bench/target/table-bench.jar}"

while [ $# -gt 0 ]; do
  case "$1" in
    --servers) servers="$2"; shift 2 ;;
    --concurrency) concurrency="$2"; shift 2 ;;
    --workloads) workloads="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --pool-size) pool_size="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --jit-warmup) jit_warmup="$2"; shift 2 ;;
    --table-size) table_size="$2"; shift 2 ;;
    --pg-host) pg_host="$2"; shift 2 ;;
    --pg-port) pg_port="$2"; shift 2 ;;
    --pg-user) pg_user="$2"; shift 2 ;;
    --pg-database) pg_database="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "multi-server: unknown flag $1 (try --help)" >&2; exit 2 ;;
  esac
done
[ -f "$bench_jar" ] || { echo "multi-server: no table-bench at $bench_jar (see bench/RESULTS.md, How to run)" >&2; exit 1; }
out="${out:-$(mktemp -d /tmp/trestle-multi.XXXXXX)}"
mkdir -p "$out"
source "$root/.ci/find-jdk"

db_url="jdbc:postgresql://$pg_host:$pg_port/$pg_database?user=$pg_user"
psql -X -q -v ON_ERROR_STOP=1 -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres \
  -c "DROP DATABASE IF EXISTS $pg_database" -c "CREATE DATABASE $pg_database" >/dev/null
"$root/trestle" migrate --db "$db_url" >> "$out/migrate.log" 2>&1

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pids=()
ports=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
for i in $(seq 1 "$servers"); do
  port="$(free_port)"
  "$root/trestle" serve --db "$db_url" --port "$port" --pool-size "$pool_size" --log-level warn \
    >> "$out/trestle-$i.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
done
for port in "${ports[@]}"; do
  for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.5
  done
done

bench() { # port, label, table-bench flags
  local port="$1" label="$2"; shift 2
  "$JAVA_HOME/bin/java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$bench_jar" \
    --endpoint "http://127.0.0.1:$port/devstoreaccount1" --label "$label" --table-size "$table_size" "$@" \
    >> "$out/bench-$label.log" 2>&1 || true
}

# the read table, loaded once through the first server
bench "${ports[0]}" preload --workload point-read --ops 1 --concurrency 1 --warmup 0

# JIT warm-up: every server serves every workload unmeasured
IFS=, read -ra list <<< "$workloads"
warm=()
for i in $(seq 0 $((servers - 1))); do
  bench "${ports[$i]}" "jit-$i" --workload "$workloads" --concurrency 1 --duration "$jit_warmup" --warmup 0 \
    --no-preload --table-prefix "w$i" &
  warm+=($!)
  pids+=($!)
done
for run in "${warm[@]}"; do wait "$run" || true; done

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for workload in "${list[@]}"; do
  for round in $(seq 1 "$rounds"); do
    modes=(one many)
    [ $((round % 2)) -eq 0 ] && modes=(many one)
    for mode in "${modes[@]}"; do
      runs=()
      for i in $(seq 0 $((servers - 1))); do
        # the fresh tables of insert and batch-insert get names of their process's own; the others share
        # the preloaded table
        prefix=()
        [[ "$workload" =~ ^(insert|batch-insert)$ ]] && prefix=(--table-prefix "m$mode$i")
        port="${ports[0]}"
        [ "$mode" = many ] && port="${ports[$i]}"
        rm -f "$out/$workload-$mode-$i-$round.csv"
        bench "$port" "$workload-$mode-$i-$round" --workload "$workload" --concurrency "$concurrency" \
          --duration "$duration" --warmup "$warmup" --no-preload "${prefix[@]}" \
          --csv "$out/$workload-$mode-$i-$round.csv" &
        runs+=($!)
        pids+=($!)
      done
      for run in "${runs[@]}"; do wait "$run" || true; done
    done
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$out" "$servers" "$concurrency" "$workloads" "$rounds" <<'PY'
import csv, sys, os
out, servers, conc, workloads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(",")
rounds = int(sys.argv[5])
def column(row, *names):
    for key in row:
        k = key.lower().replace(" ", "").replace("_", "")
        if k in names:
            return row[key]
    raise KeyError(f"none of {names} in {list(row)}")
def total(workload, mode):
    ops, errors, p99 = 0.0, 0, 0.0
    for r in range(1, rounds + 1):
        for i in range(servers):
            path = os.path.join(out, f"{workload}-{mode}-{i}-{r}.csv")
            if not os.path.exists(path):
                errors += 1
                continue
            for row in csv.DictReader(open(path)):
                ops += float(column(row, "opspers", "ops/s", "opspersec", "opss")) / rounds
                errors += int(column(row, "errors"))
                p99 = max(p99, float(column(row, "p99", "p99ms")))
    return ops, errors, p99
print(f"\n{servers} table-bench processes x {conc} threads: all on one server, or one per server ({servers} servers), one database;"
      f" ops/s summed over the processes, mean of {rounds} rounds; errors summed; p99 the worst")
print(f"| workload | one server ops/s | errors | p99 ms | {servers} servers ops/s | errors | p99 ms | {servers}/one |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for w in workloads:
    one, many = total(w, "one"), total(w, "many")
    ratio = many[0] / one[0] if one[0] else float("nan")
    print(f"| {w} | {one[0]:.1f} | {one[1]} | {one[2]:.1f} | {many[0]:.1f} | {many[1]} | {many[2]:.1f} | {ratio:.2f} |")
PY
echo "(logs and CSV in $out)"
