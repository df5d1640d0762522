#!/usr/bin/env bash
# Measures the migration paths of issue 15 on N entities (default 1,000,000) of all 8 EDM types:
# NDJSON -> PostgreSQL (import), PostgreSQL -> PostgreSQL (copy between two databases),
# PostgreSQL -> NDJSON (export), NDJSON -> H2 file (import, --mode insert: a fresh table). One process per step, --quiet; prints
# each step's own rate (first row to last commit), the process's wall and CPU time, and the load
# average (1 min) at start and end. Creates databases $PREFIX_a and $PREFIX_b and drops them at the end.
# Usage: bench/transfer-speed.sh [N] [work dir]   (env: PREFIX=wt_xfer, PG=127.0.0.1:5432, PGUSER=root,
#        STEPS="import copy export h2")
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/.ci/find-jdk"
n="${1:-1000000}"
work="${2:-/tmp/trestle-transfer-speed}"
prefix="${PREFIX:-wt_xfer}"
pg="${PG:-127.0.0.1:5432}"
user="${PGUSER:-root}"
steps="${STEPS:-import copy export h2}"
jar="$root/adapter/cli/target/trestle.jar"
[ -f "$jar" ] || (cd "$root" && ./mvnw -q -pl adapter/cli -am package -DskipTests)
mkdir -p "$work"
file="$work/entities-$n.ndjson"
[ -s "$file" ] || python3 "$root/bench/transfer-entities.py" "$n" > "$file"
host="${pg%:*}"; port="${pg#*:}"
url() { echo "jdbc:postgresql://$pg/$1?user=$user"; }
for db in "${prefix}_a" "${prefix}_b"; do
  dropdb --if-exists -h "$host" -p "$port" -U "$user" "$db"
  createdb -h "$host" -p "$port" -U "$user" "$db"
done
rm -rf "$work/h2" "$work/export.ndjson" "$work"/*.checkpoint

load() { cut -d' ' -f1 /proc/loadavg; }
step() {
  local name="$1"; shift
  local before; before="$(load)"
  local out
  out="$(/usr/bin/time -f 'TIME %e %U %S' "$JAVA_HOME/bin/java" -jar "$jar" "$@" -q \
    --checkpoint "$work/$name.checkpoint" 2>&1)"
  local rate wall cpu
  rate="$(grep -oE '\(([0-9,]+) entities/s\)' <<<"$out" | tr -dc '0-9')"
  read -r wall cpu <<<"$(awk '/^TIME/ {printf "%s %.1f", $2, $3 + $4}' <<<"$out")"
  printf '| %s | %s | %s s | %s s | %s -> %s |\n' "$name" "$rate" "$wall" "$cpu" "$before" "$(load)"
  grep -vE '^TIME' <<<"$out" | sed 's/^/    /' >&2
}
echo "| path | entities/s (own count) | wall (process) | JVM CPU | load average (1 min) |"
echo "|---|---:|---:|---:|---|"
for s in $steps; do
  case "$s" in
    import) step "NDJSON -> PostgreSQL (import)" import --db "$(url "${prefix}_a")" --table bench --in "$file" ;;
    copy) step "PostgreSQL -> PostgreSQL (copy)" copy --db "$(url "${prefix}_a")" --to-db "$(url "${prefix}_b")" --table bench ;;
    export) step "PostgreSQL -> NDJSON (export)" export --db "$(url "${prefix}_b")" --table bench --out "$work/export.ndjson" ;;
    h2) step "NDJSON -> H2 file (import)" import --db "jdbc:h2:file:$work/h2/trestle" --table bench --in "$file" --mode insert ;;
  esac
done
if [ -z "${KEEP:-}" ]; then
  for db in "${prefix}_a" "${prefix}_b"; do dropdb --if-exists -h "$host" -p "$port" -U "$user" "$db"; done
  rm -rf "$work/h2" "$work/export.ndjson"
fi
