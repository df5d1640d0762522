#!/usr/bin/env bash
# A/B of two Trestle jars on one PostgreSQL database: table-bench runs A,B,A,B... (filter-scan), and this
# prints each side's JVM CPU and PostgreSQL backend CPU per query (backends found by ApplicationName).
# usage: bench/ab-jars.sh JAR_A JAR_B DB "FILTER" ROUNDS CONC [DURATION]   (TABLE_SIZE: the loaded table, default 300000)
# The database must hold the table already (load it with compare-azurite.sh --keep-db). CPU ticks are 1/100 s.
# DB h2:DIR runs each jar on its own copy of the H2 database DIR/trestle.mv.db (e.g. the h2 folder that
# compare-azurite.sh --db h2 --out OUT leaves in OUT), so the JVM CPU includes H2's; pg prints 0.
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.ci/find-jdk"
jarA=$1 jarB=$2 db=$3 filter=$4 rounds=$5 conc=$6 dur=${7:-6s}
out=$(mktemp -d /tmp/ab-jars.XXXX)
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pa=$(port); pb=$(port)
url() { # side
  if [[ $db == h2:* ]]; then
    mkdir -p "$out/h2$1" && cp "${db#h2:}/trestle.mv.db" "$out/h2$1/" && echo "jdbc:h2:file:$out/h2$1/trestle"
  else
    echo "jdbc:postgresql://127.0.0.1:5432/$db?user=root&ApplicationName=ab$1"
  fi
}
urlA=$(url A); urlB=$(url B)
"$JAVA_HOME/bin/java" -jar "$jarA" serve --db "$urlA" --port $pa --log-level warn > $out/a.log 2>&1 & A=$!
"$JAVA_HOME/bin/java" -jar "$jarB" serve --db "$urlB" --port $pb --log-level warn > $out/b.log 2>&1 & B=$!
trap 'kill $A $B 2>/dev/null || true; wait $A $B 2>/dev/null; [[ $db == h2:* ]] && rm -rf "$out/h2A" "$out/h2B"' EXIT
for p in $pa $pb; do for i in $(seq 300); do curl -sf http://127.0.0.1:$p/health >/dev/null && break; sleep 0.2; done; done
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' /proc/$1/stat; }
bticks() { local s=0; [[ $db == h2:* ]] && { echo 0; return; }; for pid in $(psql -Atq -h 127.0.0.1 -U root -d postgres -c "select pid from pg_stat_activity where application_name='$1'"); do
  t=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' /proc/$pid/stat 2>/dev/null || echo 0); s=$((s+t)); done; echo $s; }
bench() { java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar /tmp/tools/bench/target/table-bench.jar \
  --endpoint http://127.0.0.1:$pa/devstoreaccount1 --label A --endpoint-b http://127.0.0.1:$pb/devstoreaccount1 --label-b B \
  --no-preload --table-size "${TABLE_SIZE:-300000}" --workload filter-scan --filter "$filter" "$@"; }
# JIT warm-up, unmeasured
bench --concurrency 4 --duration 10s --warmup 2s --rounds 1 > $out/warm.txt 2>&1
a0=$(ticks $A); b0=$(ticks $B); pa0=$(bticks abA); pb0=$(bticks abB); l0=$(cut -d' ' -f1 /proc/loadavg)
bench --concurrency $conc --duration $dur --warmup 1s --rounds $rounds --csv $out/run.csv > $out/run.txt 2>&1
a1=$(ticks $A); b1=$(ticks $B); pa1=$(bticks abA); pb1=$(bticks abB); l1=$(cut -d' ' -f1 /proc/loadavg)
grep -E '^\[' $out/run.txt || tail -20 $out/run.txt
head -1 $out/run.csv
echo "out=$out load $l0 -> $l1"
echo "cpu ticks A jvm $((a1-a0)) pg $((pa1-pa0)); B jvm $((b1-b0)) pg $((pb1-pb0))"
