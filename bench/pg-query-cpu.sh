#!/usr/bin/env bash
# PostgreSQL backend CPU (user + system, from /proc/<backend>/stat) per execution of one statement: runs it once
# to warm the caches, then N times in one session, and prints the mean in ms. PostgreSQL must run on this machine.
# Parallel workers and JIT are off unless the setup statements say otherwise (workers' CPU would not be counted).
#
# usage: bench/pg-query-cpu.sh [-h HOST] [-p PORT] [-U USER] [-d DATABASE] [-n N] [-s 'SETUP;'] 'STATEMENT'
#   e.g. bench/pg-query-cpu.sh -d trestle_bench -n 5 "select count(*) from trestle_entity where table_id = 1"
# The clock ticks every 10 ms: pick N so that the total is well above that, and repeat on a loaded machine.
set -euo pipefail

host=127.0.0.1 port=5432 user=root database=test n=3 setup=
while getopts h:p:U:d:n:s: flag; do
  case "$flag" in
    h) host=$OPTARG ;; p) port=$OPTARG ;; U) user=$OPTARG ;; d) database=$OPTARG ;;
    n) n=$OPTARG ;; s) setup=$OPTARG ;; *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 ]] || { sed -n '2,8p' "$0"; exit 2; }
statement=$1
ticks="$(mktemp -d)"
trap 'rm -rf "$ticks"' EXIT

{
  echo "set max_parallel_workers_per_gather = 0; set jit = off; $setup"
  echo 'select pg_backend_pid() as pid \gset'
  echo '\setenv PID :pid'
  echo '\o /dev/null'
  echo "$statement;"
  echo "\\! awk '{print \$14 + \$15}' /proc/\$PID/stat > $ticks/start"
  for _ in $(seq "$n"); do echo "$statement;"; done
  echo "\\! awk '{print \$14 + \$15}' /proc/\$PID/stat > $ticks/end"
} | psql -h "$host" -p "$port" -U "$user" -d "$database" -qAt -v ON_ERROR_STOP=1

hz="$(getconf CLK_TCK)"
echo "CPU ms per execution: $(( ($(cat "$ticks/end") - $(cat "$ticks/start")) * 1000 / hz / n ))  (n=$n, load average: $(cut -d' ' -f1-3 /proc/loadavg))"
