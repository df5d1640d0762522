#!/usr/bin/env bash
# A/B of two Trestle jars under any table-bench workload, on PostgreSQL (both servers on one database, backends
# told apart by ApplicationName) or on durable H2 (one file per server). table-bench runs A,B,A,B...; prints each
# side's JVM CPU (and PostgreSQL backend CPU) per operation over the measured rounds, their 1 s warm-ups counted,
# and the JVM's by thread group.
# usage: bench/ab-workload.sh JAR_A JAR_B pg|h2 WORKLOAD CONC ROUNDS DURATION [TABLE_SIZE]
#   env: AB_DB (PostgreSQL database, default trestle_ab; must exist), AB_H2_DIR (default /tmp/trestle-ab-h2),
#        JOPTS_A / JOPTS_B (JVM options per side), H2_A / H2_B (H2 URL settings per side, e.g. ';CACHE_SIZE=16384'), WARM (unmeasured warm-up, default 10s; it also preloads)
# Writes into one shared database favour the side that runs first: swap the jars and run again before reading
# a write workload's ops/s.
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.ci/find-jdk"
jarA=$1 jarB=$2 db=$3 wl=$4 conc=$5 rounds=$6 dur=$7 size=${8:-100000}
out=$(mktemp -d /tmp/ab-workload.XXXX)
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pa=$(port); pb=$(port)
if [ "$db" = pg ]; then
  urlA="jdbc:postgresql://127.0.0.1:5432/${AB_DB:-trestle_ab}?user=root&ApplicationName=abA"
  urlB="jdbc:postgresql://127.0.0.1:5432/${AB_DB:-trestle_ab}?user=root&ApplicationName=abB"
else
  h2="${AB_H2_DIR:-/tmp/trestle-ab-h2}"; mkdir -p "$h2/a" "$h2/b"
  urlA="jdbc:h2:file:$h2/a/t$size${H2_A:-}"; urlB="jdbc:h2:file:$h2/b/t$size${H2_B:-}"
fi
"$JAVA_HOME/bin/java" ${JOPTS_A:-} -jar "$jarA" serve --db "$urlA" --port $pa --log-level warn > $out/a.log 2>&1 & A=$!
"$JAVA_HOME/bin/java" ${JOPTS_B:-} -jar "$jarB" serve --db "$urlB" --port $pb --log-level warn > $out/b.log 2>&1 & B=$!
trap 'kill $A $B 2>/dev/null || true' EXIT
for p in $pa $pb; do for i in $(seq 300); do curl -sf http://127.0.0.1:$p/health >/dev/null && break; sleep 0.2; done; done
# CPU ticks per thread group (the thread name without its number: GC_Thread, G1_Conc, trestle-request...)
thr() { for t in /proc/$1/task/*; do n=$(cat $t/comm | sed -E 's/[#0-9]+$//; s/ /_/g'); awk -v n="$n" '{ sub(/^.*\) /, ""); print n, $12 + $13 }' $t/stat; done | awk '{s[$1]+=$2} END{for(k in s) print k, s[k]}' | sort; }
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' /proc/$1/stat; }
bticks() { [ "$db" = pg ] || { echo 0; return; }; local s=0 t; for pid in $(psql -Atq -h 127.0.0.1 -U root -d postgres -c "select pid from pg_stat_activity where application_name='$1'"); do
  t=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' /proc/$pid/stat 2>/dev/null || echo 0); s=$((s+t)); done; echo $s; }
bench() { java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "${TABLE_BENCH_JAR:-/tmp/tools/bench/target/table-bench.jar}" \
  --endpoint http://127.0.0.1:$pa/devstoreaccount1 --label A --endpoint-b http://127.0.0.1:$pb/devstoreaccount1 --label-b B \
  --table-size "$size" --workload "$wl" "$@"; }
bench --concurrency 4 --duration "${WARM:-10s}" --warmup 2s --rounds 1 > $out/warm.txt 2>&1
thr $A > $out/ta0; thr $B > $out/tb0; a0=$(ticks $A); b0=$(ticks $B); pa0=$(bticks abA); pb0=$(bticks abB); l0=$(cut -d' ' -f1 /proc/loadavg)
bench --no-preload --concurrency "$conc" --duration "$dur" --warmup 1s --rounds "$rounds" --csv $out/run.csv > $out/run.txt 2>&1
thr $A > $out/ta1; thr $B > $out/tb1; a1=$(ticks $A); b1=$(ticks $B); pa1=$(bticks abA); pb1=$(bticks abB); l1=$(cut -d' ' -f1 /proc/loadavg)
grep -E '^\[' $out/run.txt || tail -20 $out/run.txt
opsA=$(awk -F, '$2=="A"{s+=$8} END{print s}' $out/run.csv); opsB=$(awk -F, '$2=="B"{s+=$8} END{print s}' $out/run.csv)
echo "out=$out load $l0 -> $l1  ops A $opsA B $opsB"
awk -v a=$((a1-a0)) -v b=$((b1-b0)) -v pa=$((pa1-pa0)) -v pb=$((pb1-pb0)) -v oa="$opsA" -v ob="$opsB" 'BEGIN {
  printf "CPU ms/op A jvm %.3f pg %.3f | B jvm %.3f pg %.3f | ops B/A %.2f\n", a*10/oa, pa*10/oa, b*10/ob, pb*10/ob, ob/oa }'
echo "JVM CPU ms/op by thread group (GC threads apart from request threads):"; join -a2 -e0 -o 0,1.2,2.2 $out/ta0 $out/ta1 | awk -v o="$opsA" '{d=$3-$2; if (d>0) printf "  A %-22s %.3f\n", $1, d*10/o}' | sort -k3 -rn | head -8
join -a2 -e0 -o 0,1.2,2.2 $out/tb0 $out/tb1 | awk -v o="$opsB" '{d=$3-$2; if (d>0) printf "  B %-22s %.3f\n", $1, d*10/o}' | sort -k3 -rn | head -8
