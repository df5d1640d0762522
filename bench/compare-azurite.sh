#!/usr/bin/env bash
# Compares Trestle's server with Azurite (in memory) under table-bench, in one run on this machine.
#
# Builds the Trestle jar when its sources changed (through ./trestle), starts Azurite and Trestle on free
# ports, runs each workload against both (A = Azurite, B = Trestle, interleaved A,B,A,B...), prints ops/s,
# the Trestle/Azurite ratio and each server's CPU time per operation, then stops both servers.
#
# usage: bench/compare-azurite.sh [flags]
#   --db LIST            databases behind Trestle, comma-separated: pg, h2 (default: pg)
#   --workloads LIST     table-bench workloads (default: insert,point-read,batch-insert,partition-scan,filter-scan)
#   --concurrency LIST   client threads (default: 1,4)
#   --duration D         measured time per run (default: 10s)
#   --warmup D           unmeasured warm-up before each run (default: 3s)
#   --rounds N           A,B repetitions per workload and concurrency (default: 1)
#   --table-size N       preloaded entities for the read and scan workloads (default: 20000)
#   --jit-warmup D       before measuring, run every workload unmeasured for D against both servers, so that
#                        the first workloads do not pay for Trestle's JIT compilation (default: 5s; 0 = none)
#   --pool-size N        Trestle's database pool (default: Trestle's own default)
#   --profile            record JFR on Trestle per workload and summarise hot spots (bench/JfrHotSpots.java)
#   --out DIR            where logs, CSV, recordings and the summary go (default: a new /tmp/trestle-bench.*)
#   --trestle-java-opts "OPTS"   extra JVM options for Trestle (e.g. "-Xmx1g")
#   --pg-host H --pg-port P --pg-user U --pg-database D
#                        PostgreSQL for --db pg (default: 127.0.0.1 5432 root trestle_bench). The database is
#                        dropped and created again at the start (needs psql and a role allowed to do so)
#                        unless --keep-db is given.
#   --keep-db            reuse the PostgreSQL database as it is (a loaded table is then not loaded again)
#   -h, --help
#
# Environment: TABLE_BENCH_JAR (default /tmp/tools/bench/target/table-bench.jar; built from TABLE_BENCH_SRC,
# default /work/shared/bench, when missing), AZURITE_DIR (a folder whose node_modules holds azurite; default
# /tmp/tools; otherwise `npx azurite-table`).
#
# CPU ms/op is the server process's user+system CPU time over the workload's table-bench invocation divided
# by the measured operations, with the warm-up assumed to run at the measured rate; on PostgreSQL the same for
# the backends serving Trestle's database. It is steadier than ops/s on a busy machine, because it does not
# depend on how much CPU the other processes leave. For the scans one operation is a whole query (every
# page); for batch-insert, one $batch of 100 entities.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dbs=pg
workloads=insert,point-read,batch-insert,partition-scan,filter-scan
concurrency=1,4
duration=10s
warmup=3s
rounds=1
table_size=20000
jit_warmup=5s
pool_size=
profile=false
out=
trestle_java_opts=
pg_host=127.0.0.1
pg_port=5432
pg_user=root
pg_database=trestle_bench
keep_db=false

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --db) dbs="$2"; shift ;;
    --workloads|--workload) workloads="$2"; shift ;;
    --concurrency) concurrency="$2"; shift ;;
    --duration) duration="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --table-size) table_size="$2"; shift ;;
    --jit-warmup) jit_warmup="$2"; shift ;;
    --pool-size) pool_size="$2"; shift ;;
    --profile) profile=true ;;
    --out) out="$2"; shift ;;
    --trestle-java-opts) trestle_java_opts="$2"; shift ;;
    --pg-host) pg_host="$2"; shift ;;
    --pg-port) pg_port="$2"; shift ;;
    --pg-user) pg_user="$2"; shift ;;
    --pg-database) pg_database="$2"; shift ;;
    --keep-db) keep_db=true ;;
    -h|--help) usage; exit 0 ;;
    *) echo "compare-azurite: unknown flag $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

seconds_of() { # 10s, 500ms, 2m -> seconds (decimal)
  case "$1" in
    *ms) awk -v v="${1%ms}" 'BEGIN { print v / 1000 }' ;;
    *s) echo "${1%s}" ;;
    *m) awk -v v="${1%m}" 'BEGIN { print v * 60 }' ;;
    *) echo "$1" ;;
  esac
}
warmup_seconds="$(seconds_of "$warmup")"

source "$root/.ci/find-jdk" # JAVA_HOME: a JDK 21+ for Trestle, jcmd and the JFR summariser
out="${out:-$(mktemp -d "${TMPDIR:-/tmp}/trestle-bench.XXXXXX")}"
mkdir -p "$out"
summary="$out/summary.md"
: > "$summary"
echo "compare-azurite: output in $out"

# --- tools -------------------------------------------------------------------------------------------------
bench_jar="${TABLE_BENCH_JAR:-/tmp/tools/bench/target/table-bench.jar}"
if [ ! -f "$bench_jar" ]; then
  bench_src="${TABLE_BENCH_SRC:-/work/shared/bench}"
  echo "compare-azurite: building table-bench in $bench_src"
  (cd "$bench_src" && "$root/mvnw" -B -q package)
  bench_jar="$bench_src/target/table-bench.jar"
fi
azurite_dir="${AZURITE_DIR:-/tmp/tools}"
azurite_main="$azurite_dir/node_modules/azurite/dist/src/table/main.js"
if [ -f "$azurite_main" ]; then
  azurite_cmd=(node "$azurite_main")
else
  azurite_cmd=(npx --yes azurite-table)
fi
# The launcher builds adapter/cli/target/trestle.jar when the sources are newer than the jar.
"$root/trestle" version > /dev/null

free_port() {
  "$JAVA_HOME/bin/jshell" -R-Xshare:auto -q - <<< 'try (var s = new java.net.ServerSocket(0)) { System.out.println(s.getLocalPort()); }' 2>/dev/null \
    | tr -dc '0-9'
}
if command -v python3 > /dev/null; then
  free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
fi

# --- processes ---------------------------------------------------------------------------------------------
azurite_pid=
trestle_pid=
stop() { # stops one process we started, by its id
  local pid="$1"
  if [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null; then
    kill "$pid" 2> /dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || return 0; sleep 0.2; done
    kill -9 "$pid" 2> /dev/null || true
  fi
}
cleanup() { stop "$trestle_pid"; stop "$azurite_pid"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for_http() { # url pid name
  for _ in $(seq 300); do
    if curl -s -o /dev/null "$1"; then return 0; fi
    if ! kill -0 "$2" 2> /dev/null; then echo "compare-azurite: $3 exited during start-up; see $out" >&2; exit 1; fi
    sleep 0.2
  done
  echo "compare-azurite: $3 did not answer at $1 within 60 s" >&2
  exit 1
}

cpu_ticks() { # user+system clock ticks of a process
  awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}
clock_ticks="$(getconf CLK_TCK)"
backend_ticks() { # db: per PostgreSQL backend serving Trestle's database: pid, CPU clock ticks (none for H2)
  if [ "$1" != pg ]; then return 0; fi
  local pid
  for pid in $(psql -Atq -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres \
      -c "SELECT pid FROM pg_stat_activity WHERE datname = '$pg_database' AND pid <> pg_backend_pid()" 2> /dev/null); do
    awk -v pid="$pid" '{ sub(/^.*\) /, ""); print pid "\t" $12 + $13 }' "/proc/$pid/stat" 2> /dev/null || true
  done
}
backend_delta() { # before-file after-file: CPU ticks of the backends alive at the end, since the start
  awk -F'\t' 'FNR == NR { before[$1] = $2; next } { sum += $2 - before[$1] } END { print sum + 0 }' "$1" "$2"
}
thread_ticks() { # per thread of a process: id, CPU clock ticks, name without its trailing number (tab-separated)
  local task
  for task in /proc/"$1"/task/*; do
    awk -v id="${task##*/}" -v name="$(tr -d '\t' < "$task/comm" 2> /dev/null)" \
      '{ sub(/^.*\) /, ""); sub(/[-#]?[0-9]+$/, "", name); print id "\t" $12 + $13 "\t" name }' \
      "$task/stat" 2> /dev/null || true
  done
}
thread_cpu_delta() { # before-file after-file: CPU seconds per thread group, largest first (threads that ended
  # in between are left out)
  awk -F'\t' -v hz="$clock_ticks" 'FNR == NR { before[$1] = $2; next } { sum[$3] += $2 - before[$1] }
    END { for (t in sum) if (sum[t] > 0) printf "%8.2f s  %s\n", sum[t] / hz, t }' "$1" "$2" | sort -rn
}

azurite_port="$(free_port)"
"${azurite_cmd[@]}" --inMemoryPersistence --silent --disableTelemetry --tableHost 127.0.0.1 \
  --tablePort "$azurite_port" > "$out/azurite.log" 2>&1 &
azurite_pid=$!
wait_for_http "http://127.0.0.1:$azurite_port/devstoreaccount1/Tables" "$azurite_pid" Azurite
azurite_version="$("${azurite_cmd[@]}" --version 2> /dev/null || echo '?')"

start_trestle() { # db
  local db_url
  case "$1" in
    pg)
      if [ "$keep_db" = false ]; then
        psql -q -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres \
          -c "DROP DATABASE IF EXISTS \"$pg_database\" WITH (FORCE)" -c "CREATE DATABASE \"$pg_database\""
      fi
      db_url="jdbc:postgresql://$pg_host:$pg_port/$pg_database?user=$pg_user" ;;
    h2)
      rm -rf "$out/h2"
      db_url="jdbc:h2:file:$out/h2/trestle;DB_CLOSE_ON_EXIT=FALSE" ;;
    *) echo "compare-azurite: --db takes pg or h2, not $1" >&2; exit 2 ;;
  esac
  trestle_port="$(free_port)"
  local args=(serve --db "$db_url" --port "$trestle_port" --log-level warn)
  if [ -n "$pool_size" ]; then args+=(--pool-size "$pool_size"); fi
  TRESTLE_JAVA_OPTS="$trestle_java_opts" "$root/trestle" "${args[@]}" > "$out/trestle-$1.log" 2>&1 &
  trestle_pid=$!
  wait_for_http "http://127.0.0.1:$trestle_port/health" "$trestle_pid" "Trestle ($1)"
}

# --- runs --------------------------------------------------------------------------------------------------
status=0
run_workload() { # db workload
  local db="$1" workload="$2" a_cpu b_cpu
  if [ "$profile" = true ]; then
    mkdir -p "$out/jfr"
    "$JAVA_HOME/bin/jcmd" "$trestle_pid" JFR.start name="$workload" settings=profile \
      'jdk.ExecutionSample#period=2ms' filename="$out/jfr/trestle-$db-$workload.jfr" > /dev/null
    thread_ticks "$trestle_pid" > "$out/jfr/threads-before"
  fi
  backend_ticks "$db" > "$out/backends-before"
  a_cpu="$(cpu_ticks "$azurite_pid")"
  b_cpu="$(cpu_ticks "$trestle_pid")"
  if ! java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$bench_jar" \
      --endpoint "http://127.0.0.1:$azurite_port/devstoreaccount1" --label azurite \
      --endpoint-b "http://127.0.0.1:$trestle_port/devstoreaccount1" --label-b "trestle-$db" \
      --workload "$workload" --concurrency "$concurrency" --duration "$duration" --warmup "$warmup" \
      --rounds "$rounds" --table-size "$table_size" --no-preload --csv "$out/results-$db.csv" > "$out/bench-$db-$workload.txt" 2>&1; then
    status=1
  fi
  echo "$db,$workload,azurite,$(( $(cpu_ticks "$azurite_pid") - a_cpu ))" >> "$out/cpu.csv"
  echo "$db,$workload,trestle-$db,$(( $(cpu_ticks "$trestle_pid") - b_cpu ))" >> "$out/cpu.csv"
  backend_ticks "$db" > "$out/backends-after"
  echo "$db,$workload,database,$(backend_delta "$out/backends-before" "$out/backends-after")" >> "$out/cpu.csv"
  if [ "$profile" = true ]; then
    thread_ticks "$trestle_pid" > "$out/jfr/threads-after"
    "$JAVA_HOME/bin/jcmd" "$trestle_pid" JFR.stop name="$workload" > /dev/null
    {
      echo "Trestle CPU by thread group over the workload (from /proc; JIT and GC threads are not in the samples)"
      thread_cpu_delta "$out/jfr/threads-before" "$out/jfr/threads-after"
      echo
      "$JAVA_HOME/bin/java" "$root/bench/JfrHotSpots.java" "$out/jfr/trestle-$db-$workload.jfr" 20
    } > "$out/jfr/trestle-$db-$workload.txt"
  fi
  grep -E '^\[' "$out/bench-$db-$workload.txt" || tail -5 "$out/bench-$db-$workload.txt"
}

preload() { # db: loads the read table into both servers, outside the measured CPU time
  java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$bench_jar" \
    --endpoint "http://127.0.0.1:$azurite_port/devstoreaccount1" --label azurite \
    --endpoint-b "http://127.0.0.1:$trestle_port/devstoreaccount1" --label-b "trestle-$1" \
    --workload point-read --concurrency 1 --ops 1 --warmup 0 --table-size "$table_size" > "$out/preload-$1.txt" 2>&1
  grep 'preload done\|already loaded' "$out/preload-$1.txt" || true
  if [ "$1" = pg ]; then
    # Test servers often run without autovacuum: give the planner the statistics a production database has.
    psql -q -h "$pg_host" -p "$pg_port" -U "$pg_user" -d "$pg_database" -c "VACUUM (ANALYZE) trestle_entity"
  fi
}

for db in ${dbs//,/ }; do
  echo "== Azurite $azurite_version vs Trestle on $db: workloads $workloads, concurrency $concurrency," \
    "$duration (+$warmup warm-up), $rounds round(s), table size $table_size"
  start_trestle "$db"
  if [[ ",$workloads," =~ ,(point-read|upsert|partition-scan|filter-scan|mixed), ]]; then
    preload "$db"
  fi
  if [ "$(seconds_of "$jit_warmup")" != 0 ]; then
    java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$bench_jar" \
      --endpoint "http://127.0.0.1:$azurite_port/devstoreaccount1" --label azurite \
      --endpoint-b "http://127.0.0.1:$trestle_port/devstoreaccount1" --label-b "trestle-$db" \
      --workload "$workloads" --concurrency 4 --duration "$jit_warmup" --warmup 0 --table-size "$table_size" \
      --no-preload > "$out/jit-warmup-$db.txt" 2>&1 || true
  fi
  for workload in ${workloads//,/ }; do
    run_workload "$db" "$workload"
  done
  stop "$trestle_pid"
  trestle_pid=
done

# --- summary: means over rounds from the CSV, CPU per operation from /proc -----------------------------------
summarise() { # db
  awk -F, -v warmup="$warmup_seconds" -v hz="$clock_ticks" -v db="$1" '
    FILENAME ~ /cpu.csv$/ { if ($1 == db) cpu[$2 "|" ($3 == "database" ? "trestle-" db "|database" : $3)] = $4; next }
    FNR == 1 { next }
    {
      # time,endpoint,url,workload,concurrency,round,seconds,ops,ops_per_s,entities_per_s,pages_per_s,
      # p50_ms,p90_ms,p99_ms,max_ms,mean_ms,errors,...
      key = $4 "|" $5 "|" $2
      if (!(($4 "|" $5) in seen)) { seen[$4 "|" $5] = 1; rows[++nrows] = $4 "|" $5 }
      n[key]++; ops[key] += $9; ent[key] += $10; p99[key] += $14; err[key] += $17
      work[$4 "|" $2] += $8 * ($7 + warmup) / $7   # operations including the warm-up
    }
    END {
      b = "trestle-" db
      printf "\n### Azurite vs Trestle on %s\n\n", db
      printf "| workload | conc | Azurite ops/s | Trestle ops/s | Trestle/Azurite | Azurite entities/s | Trestle entities/s"
      printf " | Azurite p99 ms | Trestle p99 ms | Azurite CPU ms/op | Trestle CPU ms/op | %s CPU ms/op | errors |\n",
        db == "pg" ? "PostgreSQL" : "(H2 is in Trestle)"
      printf "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
      for (i = 1; i <= nrows; i++) {
        split(rows[i], r, "|"); w = r[1]
        ka = rows[i] "|azurite"; kb = rows[i] "|" b
        if (!(ka in n) || !(kb in n)) continue
        oa = ops[ka] / n[ka]; ob = ops[kb] / n[kb]
        ca = work[w "|azurite"] > 0 ? cpu[w "|azurite"] * 1000 / hz / work[w "|azurite"] : 0
        cb = work[w "|" b] > 0 ? cpu[w "|" b] * 1000 / hz / work[w "|" b] : 0
        cd = work[w "|" b] > 0 ? cpu[w "|" b "|database"] * 1000 / hz / work[w "|" b] : 0
        printf "| %s | %s | %.1f | %.1f | %.2f | %.0f | %.0f | %.1f | %.1f | %.2f | %.2f | %s | %d |\n", w, r[2], oa, ob,
          (oa > 0 ? ob / oa : 0), ent[ka] / n[ka], ent[kb] / n[kb], p99[ka] / n[ka], p99[kb] / n[kb], ca, cb,
          (db == "pg" ? sprintf("%.2f", cd) : "-"), err[ka] + err[kb]
      }
    }' "$out/cpu.csv" "$out/results-$1.csv"
}
for db in ${dbs//,/ }; do
  if [ -f "$out/results-$db.csv" ]; then summarise "$db" >> "$summary"; fi
done
{
  echo
  echo "CPU ms/op: the server's user+system CPU over all concurrencies of a workload, per operation (warm-up"
  echo "counted at the measured rate); PostgreSQL: its backends serving Trestle's database. Scans: one operation"
  echo "is a whole query; batch-insert: one \$batch of 100. Azurite does all its work in its one process."
  echo
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
    "load average at the end $(cut -d' ' -f1-3 /proc/loadavg); Trestle on $("$JAVA_HOME/bin/java" -version 2>&1 | head -1);" \
    "Azurite $azurite_version on node $(node --version 2> /dev/null || echo '?')"
} >> "$summary"
cat "$summary"
if [ "$profile" = true ]; then echo; echo "JFR hot spots: $out/jfr/*.txt"; fi
if [ "$status" -ne 0 ]; then echo "compare-azurite: some runs had errors (marked INVALID in $out/bench-*.txt)" >&2; fi
exit "$status"
