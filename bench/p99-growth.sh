#!/usr/bin/env bash
# Point-read and upsert latency of Trestle on PostgreSQL as the table grows (issue 12: p99 flat from
# 100,000 to 1,000,000 to 10,000,000 entities, at most 1.5x growth). Trestle only: Azurite cannot hold
# 10,000,000 entities in memory here.
#
# usage: bench/p99-growth.sh [SIZES] [ENTITY_BYTES]     e.g. bench/p99-growth.sh 100000,1000000,10000000 256
#   One PostgreSQL database per size, trestle_p99_SIZE, kept between runs: the first run preloads (10,000,000
#   entities of 256 bytes take about 4 GB and most of an hour on 2 cores), later runs only measure.
#   Before measuring, the database's tables and indexes are read into the OS page cache with pg_prewarm, so that
#   each size is measured in the steady state of a table that fits this machine's memory (24 GB here) rather
#   than while its pages first come from disk; COLD=1 skips that (then the first seconds measure the disk).
#   PRELOAD_ONLY=1 preloads and measures nothing. Environment: TABLE_BENCH_JAR as in compare-azurite.sh,
#   CONCURRENCY (default 4), DURATION (default 15s), PG_HOST, PG_PORT, PG_USER.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sizes="${1:-100000,1000000,10000000}"
entity_bytes="${2:-256}"
bench_jar="${TABLE_BENCH_JAR:-/tmp/tools/bench/target/table-bench.jar}"
pg_host="${PG_HOST:-127.0.0.1}" pg_port="${PG_PORT:-5432}" pg_user="${PG_USER:-root}"
out="$(mktemp -d /tmp/trestle-p99.XXXXXX)"
[ -f "$bench_jar" ] || { echo "p99-growth: no table-bench jar at $bench_jar (see compare-azurite.sh)" >&2; exit 2; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
trestle_pid=
cleanup() { if [ -n "$trestle_pid" ]; then kill "$trestle_pid" 2> /dev/null || true; wait "$trestle_pid" 2> /dev/null || true; fi; }
trap cleanup EXIT

echo "| entities | workload | concurrency | ops/s | p50 ms | p99 ms | load average |"
echo "|---:|---|---:|---:|---:|---:|---|"
for size in ${sizes//,/ }; do
  database="trestle_p99_$size"
  psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres -tAc "select 1 from pg_database where datname = '$database'" \
    | grep -q 1 || createdb -h "$pg_host" -p "$pg_port" -U "$pg_user" "$database"
  port="$(free_port)" ops_port="$(free_port)"
  "$root/trestle" serve --db "jdbc:postgresql://$pg_host:$pg_port/$database?user=$pg_user" --port "$port" \
    --ops-port "$ops_port" --log-level warn >> "$out/trestle-$size.log" 2>&1 &
  trestle_pid=$!
  for _ in $(seq 1 300); do curl -sf -o /dev/null "http://127.0.0.1:$ops_port/health" && break; sleep 1; done
  common=(--endpoint "http://127.0.0.1:$port/devstoreaccount1" --label "trestle-$size" --table-size "$size"
    --entity-size "$entity_bytes" --table-prefix "p99e${entity_bytes}")
  java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$bench_jar" "${common[@]}" --workload point-read \
    --concurrency 1 --ops 1 --warmup 0 > "$out/preload-$size.txt" 2>&1
  if [ -z "${PRELOAD_ONLY:-}" ]; then
    if [ -z "${COLD:-}" ]; then
      psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -d "$database" -qAt > /dev/null \
        -c "create extension if not exists pg_prewarm" \
        -c "select pg_prewarm(c.oid, 'read') from pg_class c where c.relkind in ('r', 'i') and c.relnamespace = 'public'::regnamespace"
    fi
    for workload in point-read upsert; do
      csv="$out/$workload-$size.csv"
      java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$bench_jar" "${common[@]}" --workload "$workload" \
        --concurrency "${CONCURRENCY:-4}" --duration "${DURATION:-15s}" --warmup 5s --csv "$csv" > "$out/$workload-$size.txt" 2>&1
      load="$(cut -d' ' -f1-3 /proc/loadavg)"
      header="$(head -1 "$csv")"
      col() { awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } NR == 2 { print $c }' "$csv"; }
      printf '| %s | %s | %s | %.0f | %.2f | %.2f | %s |\n' "$size" "$workload" "${CONCURRENCY:-4}" \
        "$(col ops_per_s)" "$(col p50_ms)" "$(col p99_ms)" "$load"
    done
  fi
  cleanup; trestle_pid=
done
echo "logs: $out"
