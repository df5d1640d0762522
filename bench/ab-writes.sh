#!/usr/bin/env bash
# A/B of two Trestle jars on write workloads, each on its own PostgreSQL database (so their schemas may differ,
# e.g. when B adds a migration): table-bench runs A,B,A,B... per workload and concurrency, then this prints
# ops/s and each side's JVM and PostgreSQL backend CPU per operation (including the warm-up, as
# compare-azurite.sh counts it; backends found by ApplicationName). VACUUM (ANALYZE) on both databases after
# the preload and after each run (autovacuum is off on the test server), never inside one.
# usage: bench/ab-writes.sh JAR_A JAR_B DB_PREFIX [WORKLOADS] [CONCURRENCY] [ROUNDS] [DURATION]
#   defaults: insert,upsert,batch-insert  1,4  2  10s; TABLE_SIZE (preloaded, for upsert) default 100000.
#   Databases DB_PREFIX_a and DB_PREFIX_b are dropped and created again. CPU ticks are 1/100 s.
#   A_ARGS, B_ARGS: more serve flags for one side, e.g. B_ARGS=--scalar-store (the same jar on both sides then
#   measures what the flag costs).
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.ci/find-jdk"
jarA=$1 jarB=$2 prefix=$3 workloads=${4:-insert,upsert,batch-insert} concs=${5:-1,4} rounds=${6:-2} dur=${7:-10s}
size=${TABLE_SIZE:-100000} warm=3
out=${OUT:-$(mktemp -d /tmp/ab-writes.XXXX)}
mkdir -p "$out"
sql() { psql -Atq -h 127.0.0.1 -U root -d "$1" -c "$2"; }
for side in a b; do
  sql postgres "drop database if exists ${prefix}_$side with (force)"
  sql postgres "create database ${prefix}_$side"
done
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pa=$(port); pb=$(port)
serve() { local jar=$1 port=$2 side=$3; shift 3
  exec "$JAVA_HOME/bin/java" -jar "$jar" serve --port "$port" --log-level warn \
  --db "jdbc:postgresql://127.0.0.1:5432/${prefix}_$side?user=root&ApplicationName=${prefix}_$side" "$@"; }
# shellcheck disable=SC2086
serve "$jarA" $pa a ${A_ARGS:-} > "$out/a.log" 2>&1 & A=$!
# shellcheck disable=SC2086
serve "$jarB" $pb b ${B_ARGS:-} > "$out/b.log" 2>&1 & B=$!
trap 'kill $A $B 2>/dev/null || true' EXIT
for p in $pa $pb; do for i in $(seq 600); do curl -sf http://127.0.0.1:$p/health >/dev/null && break; sleep 0.2; done; done
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' /proc/$1/stat; }
bticks() { # CPU ticks of the side's backends, pid<TAB>ticks
  for pid in $(sql postgres "select pid from pg_stat_activity where application_name = '${prefix}_$1'"); do
    printf '%s\t%s\n' "$pid" "$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' /proc/$pid/stat 2>/dev/null || echo 0)"
  done; }
bdelta() { awk -F'\t' 'FNR == NR { b[$1] = $2; next } { s += $2 - b[$1] } END { print s + 0 }' "$1" "$2"; }
vacuum() { for side in a b; do sql "${prefix}_$side" "vacuum (analyze)" || true; done; }
bench() { java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar /tmp/tools/bench/target/table-bench.jar \
  --endpoint http://127.0.0.1:$pa/devstoreaccount1 --label A --endpoint-b http://127.0.0.1:$pb/devstoreaccount1 \
  --label-b B --table-size "$size" "$@"; }
# preload both and warm the JIT, unmeasured
bench --workload upsert,insert,batch-insert --concurrency 4 --duration 5s --warmup 2s --rounds 1 > "$out/warm.txt" 2>&1
vacuum
printf '| workload | conc | A ops/s | B ops/s | B/A | A JVM ms/op | B JVM ms/op | A PG ms/op | B PG ms/op | A total | B total | B/A CPU | load start/end |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n'
for w in ${workloads//,/ }; do for c in ${concs//,/ }; do
  a0=$(ticks $A); b0=$(ticks $B); bticks a > "$out/pa0"; bticks b > "$out/pb0"; l0=$(cut -d' ' -f1 /proc/loadavg)
  rm -f "$out/run.csv"
  bench --no-preload --workload "$w" --concurrency "$c" --duration "$dur" --warmup ${warm}s --rounds "$rounds" \
    --csv "$out/run.csv" > "$out/run-$w-$c.txt" 2>&1
  a1=$(ticks $A); b1=$(ticks $B); bticks a > "$out/pa1"; bticks b > "$out/pb1"; l1=$(cut -d' ' -f1 /proc/loadavg)
  cp "$out/run.csv" "$out/run-$w-$c.csv"
  awk -F, -v w="$w" -v c="$c" -v warm=$warm -v ja=$((a1-a0)) -v jb=$((b1-b0)) \
      -v pga="$(bdelta "$out/pa0" "$out/pa1")" -v pgb="$(bdelta "$out/pb0" "$out/pb1")" -v l="$l0 / $l1" '
    FNR > 1 { k = $2; n[k]++; ops[k] += $9; work[k] += $8 * ($7 + warm) / $7 }
    END {
      a = ops["A"] / n["A"]; b = ops["B"] / n["B"]
      jA = ja * 10 / work["A"]; jB = jb * 10 / work["B"]; gA = pga * 10 / work["A"]; gB = pgb * 10 / work["B"]
      printf "| %s | %s | %.0f | %.0f | %.2f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %s |\n",
        w, c, a, b, b / a, jA, jB, gA, gB, jA + gA, jB + gB, (jB + gB) / (jA + gA), l
    }' "$out/run.csv"
  vacuum
done; done
echo "out=$out"
