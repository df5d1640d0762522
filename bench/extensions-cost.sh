#!/usr/bin/env bash
# What each extension costs on a large table in PostgreSQL: loads N entities (10 partitions) with the library's
# bulk writer into a database of its own, then times count (first after the load and warm), count of a
# partition, count with a property filter without and with a declared index, exists, newest 10, a relaxed
# transaction of 1,000 inserts over 10 partitions, delete of a partition (N/10 entities), delete-where and
# truncate, in process (no HTTP, no JVM start). Prints a Markdown table with the load average before each.
#
# usage: bench/extensions-cost.sh [--entities N] [--pg-host H] [--pg-port P] [--pg-user U] [--pg-database D]
#   defaults: 1000000 entities; 127.0.0.1 5432 root wt_relaxed_cost (created if missing; only its table
#   `cost` of account devstoreaccount1 is dropped and loaded again, so the script can be re-run)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
entities=1000000
pg_host=127.0.0.1
pg_port=5432
pg_user=root
pg_database=wt_relaxed_cost
while [ $# -gt 0 ]; do
  case "$1" in
    --entities) entities="$2"; shift 2 ;;
    --pg-host) pg_host="$2"; shift 2 ;;
    --pg-port) pg_port="$2"; shift 2 ;;
    --pg-user) pg_user="$2"; shift 2 ;;
    --pg-database) pg_database="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown flag $1 (try --help)" >&2; exit 2 ;;
  esac
done

source "$root/.ci/find-jdk"
jar="$root/adapter/cli/target/trestle.jar"
# ./trestle builds the jar when the sources are newer
"$root/trestle" --version >/dev/null
if ! psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres -tAc \
    "select 1 from pg_database where datname = '$pg_database'" | grep -q 1; then
  psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres -qc "create database $pg_database"
fi
echo "extensions-cost: $entities entities, PostgreSQL $pg_host:$pg_port/$pg_database; $(uptime)" >&2
# bounded: one table, one process, a 1 GiB heap at most
timeout 3600 "$JAVA_HOME/bin/java" -Xmx1g -cp "$jar" "$root/bench/ExtensionsCost.java" \
  "jdbc:postgresql://$pg_host:$pg_port/$pg_database?user=$pg_user" "$entities"
echo "done; $(uptime)" >&2
