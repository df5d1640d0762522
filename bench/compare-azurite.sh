#!/usr/bin/env bash
# Compares Trestle's server with Azurite (in memory) under table-bench, in one run on this machine.
#
# Builds the Trestle jar when its sources changed (through ./trestle), starts Azurite and Trestle on free
# ports, runs each workload against both (A = Azurite, B = Trestle, interleaved A,B,A,B...), prints ops/s,
# the Trestle/Azurite ratio and each server's CPU time per operation, then stops both servers.
#
# usage: bench/compare-azurite.sh [flags]
#   --db LIST            databases behind Trestle, comma-separated: pg, h2 (default: pg)
#   --workloads LIST     table-bench workloads (default: insert,point-read,batch-insert,partition-scan,filter-scan);
#                        filter-scan runs once per selected filter, as workload filter-scan:NAME
#   --filters LIST       the named filters filter-scan runs (default: default,range,timestamp,or):
#                          default    Price gt 990 and Category eq 'c7'       (about 0.09% of the table)
#                          range      Price ge 500 and Price lt 502           (about 0.2%)
#                          timestamp  Timestamp ge datetime'{mark}'           (the --timestamp-slice entities)
#                          or         Category eq 'c1' or Price eq 7          (about 10%)
#   --filter NAME=EXPR   defines (or redefines) the filter NAME and runs it too; repeatable. {mark} in EXPR
#                        stands for the moment just before the timestamp slice was written (see below)
#   --timestamp-slice N  before the first filter that uses {mark}, the time is taken as {mark} and N random
#                        entities of the preloaded table are upserted into both servers, so that Timestamp (the
#                        server's write time) of about N entities is at or after {mark}. Default: 0.2% of
#                        --table-size. Writes after it (upsert, mixed) would match too: list them after filter-scan
#   --index PROP:TYPE    after the preload and before measuring, declares an index on the data table with
#                        `trestle index create` (Trestle is stopped for it, then started again); repeatable, e.g.
#                        --index Price:Int32 --index Category:String --index Timestamp:DateTime; an index over
#                        several properties in order joins them with +: --index Category:String+Price:Int32. Azurite has
#                        none. Indexes declared by an earlier run stay with --keep-db; the summary lists them all
#   --concurrency LIST   client threads (default: 1,4)
#   --duration D         measured time per run (default: 10s)
#   --warmup D           unmeasured warm-up before each run (default: 3s)
#   --rounds N           A,B repetitions per workload and concurrency (default: 1)
#   --table-size N       preloaded entities for the read and scan workloads (default: 20000). Azurite is loaded on
#                        every run; PostgreSQL once with --keep-db. Preload rates measured here (2 cores, 100,000
#                        entities, 4 parallel $batch of 100): see "How to run" in bench/RESULTS.md
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
#   --scalar-store       Trestle serves with --scalar-store: a PostgreSQL database it creates (or upgrades to
#                        schema 8) gets the scalar store. A database kept with --keep-db has it or not as it was
#                        created; the summary's state section says which
#   --pg-prewarm         after the preload (and any --index), reads the entity table and its indexes into
#                        shared buffers with pg_prewarm, as a server in its steady state holds them (a sequential
#                        scan of a table over a quarter of shared_buffers goes through a small ring of buffers and
#                        never fills them itself). Only useful with a shared_buffers that holds the table: the
#                        summary says how much of it was cached before each workload
#   --pg-settings "K=V,K=V"   PostgreSQL settings for the benchmark database only, with ALTER DATABASE ... SET
#                        (every run first resets the database's settings, so a run has exactly the ones given).
#                        That works for settings a session may change: work_mem, jit, random_page_cost,
#                        effective_cache_size, max_parallel_workers_per_gather, effective_io_concurrency...
#                        Settings that need a reload or restart (shared_buffers, autovacuum, max_connections,
#                        ...) are refused: the server is shared, the script restarts nothing. The summary lists
#                        the settings in effect.
#   -h, --help
#
# Environment: TABLE_BENCH_JAR (default /tmp/tools/bench/target/table-bench.jar; built there from a copy of
# TABLE_BENCH_SRC, default /work/shared/bench, when missing), AZURITE_DIR (a folder whose node_modules holds
# azurite; default /tmp/tools; otherwise `npx azurite-table`), NODE_OPTIONS (Azurite inherits it: a table of
# 1,000,000 entities takes about 3 GB of its memory, so give node --max-old-space-size=6144 if its heap runs out).
#
# CPU ms/op is the server process's user+system CPU time over the workload's table-bench invocation divided
# by the measured operations, with the warm-up assumed to run at the measured rate; on PostgreSQL the same for
# the backends serving Trestle's database. It is steadier than ops/s on a busy machine, because it does not
# depend on how much CPU the other processes leave. For the scans one operation is a whole query (every
# page); for batch-insert, one $batch of 100 entities. The load average (1 minute) is read at the start and
# the end of each workload.
# insert and batch-insert write into fresh tables: when the Azure SDK for Python is installed (Debian's
# python3-azure), the script deletes those after each workload's window (bench/drop_tables.py) and reports that
# CPU apart; without it, table-bench deletes them inside the window, and their CPU per operation includes it.
#
# Vacuum: autovacuum is off on the test server, and upserts and deletes leave dead rows. On PostgreSQL the
# script runs VACUUM (ANALYZE) on the benchmark database after the preload and after anything that wrote
# (warm-up, timestamp slice, a writing workload), always before the next measured workload and never inside
# one, and reports the dead rows each pass removed and the entity table's sizes.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dbs=pg
workloads=insert,point-read,batch-insert,partition-scan,filter-scan
filters=default,range,timestamp,or
declare -A filter_expr=(
  [default]="Price gt 990 and Category eq 'c7'"
  [range]="Price ge 500 and Price lt 502"
  [timestamp]="Timestamp ge datetime'{mark}'"
  [or]="Category eq 'c1' or Price eq 7"
)
extra_filters=
timestamp_slice=
indexes=()
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
scalar_store=false
pg_prewarm=false
pg_settings=

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; }
fail() { echo "compare-azurite: $*" >&2; exit 2; }

define_filter() { # NAME=EXPR, or a bare EXPR (named custom)
  local name="${1%%=*}"
  if [ "$name" = "$1" ] || [[ ! "$name" =~ ^[A-Za-z0-9_-]+$ ]]; then name=custom; fi
  filter_expr[$name]="${1#"$name="}"
  extra_filters+=",$name"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --db) dbs="$2"; shift ;;
    --workloads|--workload) workloads="$2"; shift ;;
    --filters) filters="$2"; shift ;;
    --filter) define_filter "$2"; shift ;;
    --timestamp-slice) timestamp_slice="$2"; shift ;;
    --index) indexes+=("$2"); shift ;;
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
    --scalar-store) scalar_store=true ;;
    --pg-prewarm) pg_prewarm=true ;;
    --pg-settings) pg_settings="$2"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) fail "unknown flag $1 (try --help)" ;;
  esac
  shift
done

# --- what to run -------------------------------------------------------------------------------------------
selected_filters() { # the filters to run: --filters, then those --filter defined, each once
  echo "$filters$extra_filters" | tr ',' '\n' | awk 'NF && !seen[$0]++'
}
for f in $(selected_filters); do
  [ -n "${filter_expr[$f]+set}" ] || fail "no filter named $f (presets: ${!filter_expr[*]}; define one with --filter $f=EXPR)"
done
measured_workloads() { # workload labels in order: filter-scan becomes filter-scan:NAME per selected filter
  local w f
  for w in ${workloads//,/ }; do
    if [ "$w" = filter-scan ]; then
      for f in $(selected_filters); do echo "filter-scan:$f"; done
    else
      echo "$w"
    fi
  done
}
for spec in "${indexes[@]}"; do
  [[ "$spec" =~ ^[A-Za-z_][A-Za-z0-9_]*:[A-Za-z0-9]+(\+[A-Za-z_][A-Za-z0-9_]*:[A-Za-z0-9]+)*$ ]] \
    || fail "--index takes PROPERTY:TYPE (e.g. Price:Int32) or PROPERTY:TYPE+PROPERTY:TYPE..., not $spec"
done
timestamp_slice="${timestamp_slice:-$(( table_size / 500 > 10 ? table_size / 500 : 10 ))}"
data_table="benchn${table_size}s1024p1000" # table-bench's name for the preloaded table (entity size 1024, partition 1000)

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
  # Built from a copy, so that the shared sources stay as they are (no target/ there).
  bench_copy="$(dirname "$(dirname "$bench_jar")")"
  echo "compare-azurite: building table-bench in $bench_copy"
  mkdir -p "$bench_copy"
  cp -r "${TABLE_BENCH_SRC:-/work/shared/bench}/pom.xml" "${TABLE_BENCH_SRC:-/work/shared/bench}/src" "$bench_copy/"
  (cd "$bench_copy" && "$root/mvnw" -B -q package)
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
if [ "${#indexes[@]}" -gt 0 ] && ! "$root/trestle" help index > /dev/null 2>&1; then
  fail "--index needs the \`trestle index\` command, which this Trestle ($root) does not have yet"
fi

free_port() {
  "$JAVA_HOME/bin/jshell" -R-Xshare:auto -q - <<< 'try (var s = new java.net.ServerSocket(0)) { System.out.println(s.getLocalPort()); }' 2>/dev/null \
    | tr -dc '0-9'
}
if command -v python3 > /dev/null; then
  free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
fi

# --- PostgreSQL --------------------------------------------------------------------------------------------
admin_sql() { psql -X -q -At -v ON_ERROR_STOP=1 -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres "$@"; }
bench_sql() { psql -X -q -At -v ON_ERROR_STOP=1 -h "$pg_host" -p "$pg_port" -U "$pg_user" -d "$pg_database" "$@"; }

recreate_database() {
  admin_sql -c "DROP DATABASE IF EXISTS \"$pg_database\" WITH (FORCE)" -c "CREATE DATABASE \"$pg_database\""
}
ensure_database() { # for --keep-db: the database as it is, created when missing
  if [ -z "$(admin_sql -c "SELECT 1 FROM pg_database WHERE datname = '$pg_database'")" ]; then
    admin_sql -c "CREATE DATABASE \"$pg_database\""
  fi
}

check_pg_settings() { # --pg-settings: refuses, before anything runs, what ALTER DATABASE cannot set
  local pair name context
  for pair in ${pg_settings//,/ }; do
    name="${pair%%=*}"
    [[ "$pair" == *=* && "$name" =~ ^[a-z_.]+$ ]] || fail "--pg-settings takes NAME=VALUE,..., not $pair"
    context="$(admin_sql -c "SELECT context FROM pg_settings WHERE name = '$name'")"
    case "$context" in
      user|superuser) ;;
      '') fail "--pg-settings: PostgreSQL has no setting $name" ;;
      *) fail "--pg-settings: $name can only be set in postgresql.conf (context $context: needs a reload or a" \
           "restart, for the whole server, which is shared; the script does not do that)" ;;
    esac
  done
}

apply_pg_settings() { # --pg-settings for the benchmark database only; new connections get them
  local pair
  admin_sql -c "ALTER DATABASE \"$pg_database\" RESET ALL"
  for pair in ${pg_settings//,/ }; do
    admin_sql -c "ALTER DATABASE \"$pg_database\" SET ${pair%%=*} = '${pair#*=}'"
  done
}

pg_settings_report() { # the settings in effect for a new connection to the benchmark database
  bench_sql -F ' = ' -c "SELECT name, current_setting(name) FROM pg_settings WHERE name IN ('shared_buffers',
    'work_mem', 'effective_cache_size', 'random_page_cost', 'jit', 'max_parallel_workers_per_gather',
    'effective_io_concurrency', 'autovacuum', 'synchronous_commit', 'fsync') ORDER BY name" | paste -sd, - \
    | sed 's/,/, /g'
  bench_sql -c "SELECT CASE WHEN to_regclass('trestle_entity_scalar') IS NULL THEN 'no scalar store'
    ELSE 'scalar store of ' || pg_size_pretty(pg_total_relation_size('trestle_entity_scalar')) END"
}

db_dirty=true
vacuum_database() { # point: VACUUM (ANALYZE) the benchmark database and report the entity table's state
  # INDEX_CLEANUP ON: without it PostgreSQL may leave the dead rows' index entries when they are few.
  local counts removed left
  counts="$(bench_sql -c 'VACUUM (ANALYZE, INDEX_CLEANUP ON, VERBOSE)' 2>&1 \
    | awk '/finished vacuuming ".*\.trestle_entity"/ { t = 1 } t && /^tuples:/ { print $2, $6; t = 0 }')"
  read -r removed left <<< "${counts:-? ?}"
  bench_sql -F ' | ' -c "SELECT '$1', n_live_tup, '$removed', '$left', pg_size_pretty(pg_table_size(relid)),
      pg_size_pretty(pg_indexes_size(relid)), pg_size_pretty(pg_total_relation_size(relid))
    FROM pg_stat_user_tables WHERE relname = 'trestle_entity'" | sed 's/^/| /; s/$/ |/' >> "$out/vacuum-pg.md"
}
vacuum_if_dirty() { # db point
  if [ "$1" = pg ] && [ "$db_dirty" = true ]; then
    vacuum_database "$2"
    db_dirty=false
  fi
}

prewarm_entities() { # --pg-prewarm: the entity table and its indexes into shared buffers
  bench_sql -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" > /dev/null 2>&1
  bench_sql -c "SELECT sum(pg_prewarm(c.oid)) FROM pg_class c WHERE c.relname = 'trestle_entity'
    OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'trestle_entity'::regclass)
    OR c.relname IN ('trestle_entity_scalar', 'trestle_entity_scalar_pk')" > /dev/null
  echo "prewarmed: $(cached_entities)"
}
cached_entities() { # how much of the entity table's heap is in shared buffers
  bench_sql -c "CREATE EXTENSION IF NOT EXISTS pg_buffercache" > /dev/null 2>&1
  bench_sql -c "SELECT pg_size_pretty(count(*) * current_setting('block_size')::bigint) || ' of '
      || pg_size_pretty(pg_relation_size('trestle_entity')) || ' of trestle_entity in shared buffers'
    FROM pg_buffercache WHERE relforknumber = 0 AND relfilenode = pg_relation_filenode('trestle_entity')
      AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())"
}

index_report() { # the entity table's indexes: size, and scans since the database was created
  bench_sql -F ' | ' -c "SELECT indexrelname, pg_size_pretty(pg_relation_size(indexrelid)), idx_scan
    FROM pg_stat_user_indexes WHERE relname = 'trestle_entity' ORDER BY indexrelname" | sed 's/^/| /; s/$/ |/'
}

if [[ ",$dbs," == *,pg,* ]]; then check_pg_settings; fi

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
load1() { cut -d' ' -f1 /proc/loadavg; }

azurite_port="$(free_port)"
"${azurite_cmd[@]}" --inMemoryPersistence --silent --disableTelemetry --tableHost 127.0.0.1 \
  --tablePort "$azurite_port" > "$out/azurite.log" 2>&1 &
azurite_pid=$!
wait_for_http "http://127.0.0.1:$azurite_port/devstoreaccount1/Tables" "$azurite_pid" Azurite
azurite_version="$("${azurite_cmd[@]}" --version 2> /dev/null || echo '?')"

prepare_database() { # db: a fresh (or, with --keep-db, the kept) database; sets db_url
  case "$1" in
    pg)
      if [ "$keep_db" = true ]; then ensure_database; else recreate_database; fi
      apply_pg_settings
      db_url="jdbc:postgresql://$pg_host:$pg_port/$pg_database?user=$pg_user" ;;
    h2)
      rm -rf "$out/h2"
      db_url="jdbc:h2:file:$out/h2/trestle;DB_CLOSE_ON_EXIT=FALSE" ;;
    *) fail "--db takes pg or h2, not $1" ;;
  esac
}

start_trestle() { # db
  trestle_port="$(free_port)"
  local args=(serve --db "$db_url" --port "$trestle_port" --log-level warn)
  if [ -n "$pool_size" ]; then args+=(--pool-size "$pool_size"); fi
  if [ "$scalar_store" = true ]; then args+=(--scalar-store); fi
  TRESTLE_JAVA_OPTS="$trestle_java_opts" "$root/trestle" "${args[@]}" >> "$out/trestle-$1.log" 2>&1 &
  trestle_pid=$!
  wait_for_http "http://127.0.0.1:$trestle_port/health" "$trestle_pid" "Trestle ($1)"
}

stop_trestle() { stop "$trestle_pid"; trestle_pid=; }

declare_indexes() { # db: --index on the data table, with Trestle stopped (H2 allows one process per file)
  local spec
  stop_trestle
  for spec in "${indexes[@]}"; do
    local columns=() column
    IFS='+' read -ra parts <<< "$spec"
    for column in "${parts[@]}"; do columns+=(--property "${column%%:*}" --type "${column#*:}"); done
    if ! "$root/trestle" index create --db "$db_url" --table "$data_table" "${columns[@]}" \
        >> "$out/index-$1.log" 2>&1; then
      echo "compare-azurite: index create $spec on $1 failed (declared already?): $(tail -1 "$out/index-$1.log")" >&2
    fi
  done
  start_trestle "$1"
  db_dirty=true
}

list_indexes() { # db: what `trestle index list` says about the data table
  "$root/trestle" index list --db "$db_url" --table "$data_table" 2>&1 || true
}

# --- table-bench -------------------------------------------------------------------------------------------
bench() { # db, table-bench flags: runs table-bench against Azurite (A) and Trestle (B)
  local db="$1"; shift
  java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$bench_jar" \
    --endpoint "http://127.0.0.1:$azurite_port/devstoreaccount1" --label azurite \
    --endpoint-b "http://127.0.0.1:$trestle_port/devstoreaccount1" --label-b "trestle-$db" \
    --table-size "$table_size" "$@"
}

writes() { [[ "$1" =~ ^(insert|upsert|batch-insert|mixed)$ ]]; }

mark=
mark_timestamp_slice() { # db: {mark} := now, then upserts the slice, whose Timestamp is then at or after it
  sleep 0.05
  mark="$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)"
  sleep 0.05
  bench "$1" --workload upsert --ops "$timestamp_slice" --concurrency 1 --warmup 0 --no-preload \
    > "$out/timestamp-slice-$1.txt" 2>&1
  db_dirty=true
}

filter_of() { # filter name: its expression, with {mark} filled in once the slice is written
  local expr="${filter_expr[$1]}"
  echo "${expr//\{mark\}/${mark:-\{mark\}}}"
}

workload_flags() { # workload label: table-bench's flags for it
  case "$1" in
    filter-scan:*) printf '%s\n' --workload filter-scan --filter "$(filter_of "${1#filter-scan:}")" ;;
    insert | batch-insert)
      printf '%s\n' --workload "$1"
      if [ "$drop_tables" = true ]; then printf '%s\n' --keep-tables; fi ;;
    *) printf '%s\n' --workload "$1" ;;
  esac
}

# insert and batch-insert write into fresh tables, which table-bench deletes after each run, inside the CPU
# window measured above; with the Azure SDK for Python at hand it keeps them, and this deletes them after the
# window, its CPU reported apart
drop_tables=false
if /usr/bin/python3 -c 'import azure.data.tables' 2> /dev/null; then drop_tables=true; fi
drop_fresh_tables() { # db workload: deletes the tables the run kept, and records the CPU that took
  local db="$1" workload="$2" prefix a_cpu b_cpu
  prefix="bench$([ "$workload" = insert ] && echo ins || echo bat)"
  backend_ticks "$db" > "$out/backends-before"
  a_cpu="$(cpu_ticks "$azurite_pid")"
  b_cpu="$(cpu_ticks "$trestle_pid")"
  /usr/bin/python3 "$root/bench/drop_tables.py" "$prefix" "http://127.0.0.1:$azurite_port/devstoreaccount1" \
    "http://127.0.0.1:$trestle_port/devstoreaccount1" >> "$out/teardown-$db.txt" 2>&1 \
    || echo "  warning: deleting the $prefix* tables failed (see $out/teardown-$db.txt)"
  backend_ticks "$db" > "$out/backends-after"
  echo "$db,$workload,$(( $(cpu_ticks "$azurite_pid") - a_cpu )),$(( $(cpu_ticks "$trestle_pid") - b_cpu ))," \
    "$(backend_delta "$out/backends-before" "$out/backends-after")" | tr -d ' ' >> "$out/teardown.csv"
}

append_results() { # db label run-csv: the run's CSV rows into results-DB.csv, named by the workload label
  local results="$out/results-$1.csv"
  if [ ! -s "$results" ]; then head -1 "$3" > "$results"; fi
  awk -F, -v OFS=, -v label="$2" 'FNR > 1 { $4 = label; print }' "$3" >> "$results"
}

# --- runs --------------------------------------------------------------------------------------------------
status=0
run_workload() { # db workload-label
  local db="$1" workload="$2" file="${2//:/-}" a_cpu b_cpu flags load_start
  if [[ "$workload" == filter-scan:* ]] && [[ "${filter_expr[${workload#filter-scan:}]}" == *'{mark}'* ]] \
      && [ -z "$mark" ]; then
    mark_timestamp_slice "$db"
  fi
  vacuum_if_dirty "$db" "before $workload"
  if [ "$db" = pg ] && [ "$pg_prewarm" = true ]; then echo "- $workload: $(cached_entities)" >> "$out/cache-pg.md"; fi
  mapfile -t flags < <(workload_flags "$workload")
  if [ "$profile" = true ]; then
    mkdir -p "$out/jfr"
    "$JAVA_HOME/bin/jcmd" "$trestle_pid" JFR.start name="$file" settings=profile \
      'jdk.ExecutionSample#period=2ms' filename="$out/jfr/trestle-$db-$file.jfr" > /dev/null
    thread_ticks "$trestle_pid" > "$out/jfr/threads-before"
  fi
  backend_ticks "$db" > "$out/backends-before"
  a_cpu="$(cpu_ticks "$azurite_pid")"
  b_cpu="$(cpu_ticks "$trestle_pid")"
  load_start="$(load1)"
  rm -f "$out/run.csv"
  if ! bench "$db" "${flags[@]}" --concurrency "$concurrency" --duration "$duration" --warmup "$warmup" \
      --rounds "$rounds" --no-preload --csv "$out/run.csv" > "$out/bench-$db-$file.txt" 2>&1; then
    status=1
  fi
  echo "$db,$workload,$load_start,$(load1)" >> "$out/load.csv"
  echo "$db,$workload,azurite,$(( $(cpu_ticks "$azurite_pid") - a_cpu ))" >> "$out/cpu.csv"
  echo "$db,$workload,trestle-$db,$(( $(cpu_ticks "$trestle_pid") - b_cpu ))" >> "$out/cpu.csv"
  backend_ticks "$db" > "$out/backends-after"
  echo "$db,$workload,database,$(backend_delta "$out/backends-before" "$out/backends-after")" >> "$out/cpu.csv"
  if [ -f "$out/run.csv" ]; then append_results "$db" "$workload" "$out/run.csv"; fi
  if [ "$profile" = true ]; then
    thread_ticks "$trestle_pid" > "$out/jfr/threads-after"
    "$JAVA_HOME/bin/jcmd" "$trestle_pid" JFR.stop name="$file" > /dev/null
    {
      echo "Trestle CPU by thread group over the workload (from /proc; JIT and GC threads are not in the samples)"
      thread_cpu_delta "$out/jfr/threads-before" "$out/jfr/threads-after"
      echo
      "$JAVA_HOME/bin/java" "$root/bench/JfrHotSpots.java" "$out/jfr/trestle-$db-$file.jfr" 20
    } > "$out/jfr/trestle-$db-$file.txt"
  fi
  if [ "$drop_tables" = true ] && [[ "$workload" =~ ^(insert|batch-insert)$ ]]; then
    drop_fresh_tables "$db" "$workload"
  fi
  if writes "$workload"; then db_dirty=true; fi
  grep -E '^\[' "$out/bench-$db-$file.txt" | sed "s/^\(\[[^]]*\] \)filter-scan /\1$workload /" \
    || tail -5 "$out/bench-$db-$file.txt"
}

preload() { # db: loads the read table into both servers, outside the measured CPU time
  bench "$1" --workload point-read --concurrency 1 --ops 1 --warmup 0 > "$out/preload-$1.txt" 2>&1
  grep 'preload done\|already loaded' "$out/preload-$1.txt" || true
}

jit_warmup_run() { # db: every workload unmeasured, so that the measured ones find Trestle compiled
  bench "$1" --workload "$workloads" --concurrency 4 --duration "$jit_warmup" --warmup 0 --no-preload \
    > "$out/jit-warmup-$1.txt" 2>&1 || true
  local w
  for w in ${workloads//,/ }; do if writes "$w"; then db_dirty=true; fi; done
}

run_db() { # db: one pass of every workload against Azurite and Trestle on this database
  local db="$1" workload
  echo "== Azurite $azurite_version vs Trestle on $db: workloads $(measured_workloads | paste -sd, -)," \
    "concurrency $concurrency, $duration (+$warmup warm-up), $rounds round(s), table size $table_size"
  prepare_database "$db"
  start_trestle "$db"
  db_dirty=true
  mark=
  if [[ ",$workloads," =~ ,(point-read|upsert|partition-scan|filter-scan|mixed), ]]; then
    preload "$db"
  fi
  if [ "${#indexes[@]}" -gt 0 ]; then declare_indexes "$db"; fi
  vacuum_if_dirty "$db" "preload"
  if [ "$db" = pg ] && [ "$pg_prewarm" = true ]; then prewarm_entities; fi
  if [ "$(seconds_of "$jit_warmup")" != 0 ]; then jit_warmup_run "$db"; fi
  for workload in $(measured_workloads); do
    run_workload "$db" "$workload"
  done
  vacuum_if_dirty "$db" "end"
  stop_trestle
  record_database_state "$db"
}

record_database_state() { # db: settings, indexes, vacuum passes, filters (Trestle stopped: the stats are flushed)
  {
    if [[ ",$workloads," == *,filter-scan,* ]]; then
      echo "filters on $1: $(for f in $(selected_filters); do printf '%s: `%s`; ' "$f" "$(filter_of "$f")"; done | sed 's/; $//')"
    fi
    if [ -n "$mark" ]; then
      echo "({mark} = $mark; then $timestamp_slice random entities upserted into each server: the timestamp slice)"
    fi
    if [ "$1" = pg ]; then
      echo
      echo "PostgreSQL $(bench_sql -c 'SHOW server_version'), settings for the benchmark database: $(pg_settings_report)"
      echo
      echo "VACUUM (ANALYZE) passes on $pg_database, entity table trestle_entity (rows PostgreSQL pruned on the fly"
      echo "before a pass are not among those it removed):"
      echo
      echo "| after | live rows | dead rows removed | dead rows left (not yet removable) | table | indexes | total |"
      echo "|---|---:|---:|---:|---:|---:|---:|"
      cat "$out/vacuum-pg.md"
      if [ -f "$out/cache-pg.md" ]; then
        echo
        echo "Shared buffers (--pg-prewarm), before each workload:"
        echo
        cat "$out/cache-pg.md"
      fi
      echo
      echo "Indexes of trestle_entity (scans counted since the database was created: preload, warm-ups, runs):"
      echo
      echo "| index | size | scans |"
      echo "|---|---:|---:|"
      index_report
    fi
    if [ "${#indexes[@]}" -gt 0 ]; then
      echo
      echo "\`trestle index list\` on $1 ($data_table):"
      echo
      list_indexes "$1" | sed 's/^/    /'
    fi
  } > "$out/state-$1.md"
}

for db in ${dbs//,/ }; do run_db "$db"; done

# --- summary: means over rounds from the CSV, CPU per operation from /proc -----------------------------------
summarise() { # db
  awk -F, -v warmup="$warmup_seconds" -v hz="$clock_ticks" -v db="$1" '
    FILENAME ~ /cpu.csv$/ { if ($1 == db) cpu[$2 "|" ($3 == "database" ? "trestle-" db "|database" : $3)] = $4; next }
    FILENAME ~ /load.csv$/ { if ($1 == db) load[$2] = $3 " / " $4; next }
    FNR == 1 { next }
    {
      # time,endpoint,url,workload,concurrency,round,seconds,ops,ops_per_s,entities_per_s,pages_per_s,
      # p50_ms,p90_ms,p99_ms,max_ms,mean_ms,errors,...
      key = $4 "|" $5 "|" $2
      if (!(($4 "|" $5) in seen)) { seen[$4 "|" $5] = 1; rows[++nrows] = $4 "|" $5 }
      n[key]++; ops[key] += $9; ent[key] += $10; p99[key] += $14; err[key] += $17; hits[key] += ($8 > 0 ? $10 * $7 / $8 : 0)
      work[$4 "|" $2] += $8 * ($7 + warmup) / $7   # operations including the warm-up
    }
    END {
      b = "trestle-" db
      printf "\n### Azurite vs Trestle on %s\n\n", db
      printf "| workload | conc | Azurite ops/s | Trestle ops/s | Trestle/Azurite | Azurite entities/s | Trestle entities/s"
      printf " | hits/query A / T | Azurite p99 ms | Trestle p99 ms | Azurite CPU ms/op | Trestle CPU ms/op | %s CPU ms/op",
        db == "pg" ? "PostgreSQL" : "(H2 is in Trestle)"
      printf " | load start / end | errors |\n"
      printf "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
      for (i = 1; i <= nrows; i++) {
        split(rows[i], r, "|"); w = r[1]
        ka = rows[i] "|azurite"; kb = rows[i] "|" b
        if (!(ka in n) || !(kb in n)) continue
        oa = ops[ka] / n[ka]; ob = ops[kb] / n[kb]
        ca = work[w "|azurite"] > 0 ? cpu[w "|azurite"] * 1000 / hz / work[w "|azurite"] : 0
        cb = work[w "|" b] > 0 ? cpu[w "|" b] * 1000 / hz / work[w "|" b] : 0
        cd = work[w "|" b] > 0 ? cpu[w "|" b "|database"] * 1000 / hz / work[w "|" b] : 0
        hq = w ~ /-scan/ ? sprintf("%.0f / %.0f", hits[ka] / n[ka], hits[kb] / n[kb]) : "-"
        printf "| %s | %s | %.1f | %.1f | %.2f | %.0f | %.0f | %s | %.1f | %.1f | %.2f | %.2f | %s | %s | %d |\n", w, r[2],
          oa, ob, (oa > 0 ? ob / oa : 0), ent[ka] / n[ka], ent[kb] / n[kb], hq, p99[ka] / n[ka], p99[kb] / n[kb], ca, cb,
          (db == "pg" ? sprintf("%.2f", cd) : "-"), load[w], err[ka] + err[kb]
      }
    }' "$out/cpu.csv" "$out/load.csv" "$out/results-$1.csv"
  if [ -f "$out/teardown.csv" ] && grep -q "^$1," "$out/teardown.csv"; then
    echo
    echo "Deleting the fresh tables insert and batch-insert wrote, after each workload and outside its CPU per"
    echo "operation above (CPU seconds, all its concurrencies' tables together):"
    awk -F, -v db="$1" -v hz="$clock_ticks" '$1 == db {
        printf "- %s: Azurite %.2f s, Trestle %.2f s%s\n", $2, $3 / hz, $4 / hz,
          (db == "pg" ? sprintf(", PostgreSQL %.2f s", $5 / hz) : "") }' "$out/teardown.csv"
  elif [ "$drop_tables" = false ]; then
    echo
    echo "insert and batch-insert: their CPU per operation includes deleting their fresh tables after each run"
    echo "(no Azure SDK for Python here to delete them apart: apt-get install python3-azure)."
  fi
  if [ -f "$out/state-$1.md" ]; then echo; cat "$out/state-$1.md"; fi
}
for db in ${dbs//,/ }; do
  if [ -f "$out/results-$db.csv" ]; then summarise "$db" >> "$summary"; fi
done
{
  echo
  echo "CPU ms/op: the server's user+system CPU over all concurrencies of a workload, per operation (warm-up"
  echo "counted at the measured rate); PostgreSQL: its backends serving Trestle's database. Scans: one operation"
  echo "is a whole query; batch-insert: one \$batch of 100. Azurite does all its work in its one process."
  echo "Load: the 1-minute load average when the workload started and when it ended (all its concurrencies)."
  echo
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
    "load average at the end $(cut -d' ' -f1-3 /proc/loadavg); Trestle on $("$JAVA_HOME/bin/java" -version 2>&1 | head -1);" \
    "Azurite $azurite_version on node $(node --version 2> /dev/null || echo '?')"
} >> "$summary"
cat "$summary"
if [ "$profile" = true ]; then echo; echo "JFR hot spots: $out/jfr/*.txt"; fi
if [ "$status" -ne 0 ]; then echo "compare-azurite: some runs had errors (marked INVALID in $out/bench-*.txt)" >&2; fi
exit "$status"
