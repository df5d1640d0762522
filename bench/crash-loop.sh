#!/usr/bin/env bash
# Runs the crash test (adapter/cli/src/test/java/dev/trestle/cli/crash/CrashTest.java) for many cycles: the
# server as its own process under concurrent inserts, upserts, merges and 100-entity batches, killed with
# SIGKILL at a random moment and restarted on the same database, then checked for every acknowledged write.
# The build runs 3 cycles per database; this is the long run to report.
#
# usage: bench/crash-loop.sh [CYCLES] [TEST_METHODS]
#   CYCLES         SIGKILL cycles per database (default 20)
#   TEST_METHODS   a Surefire method filter (default: every CrashTest method, H2 and PostgreSQL, SIGTERM too)
# Environment: TRESTLE_TEST_PG_URL, the PostgreSQL to use (default jdbc:postgresql://127.0.0.1:5432/test?user=root).
# Prints one line per database: cycles, acknowledged writes, batches among them, lost, partial batches.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source .ci/find-jdk
cycles="${1:-20}"
methods="${2:-}"
export TRESTLE_TEST_PG_URL="${TRESTLE_TEST_PG_URL:-jdbc:postgresql://127.0.0.1:5432/test?user=root}"
log="$(mktemp /tmp/trestle-crash-loop.XXXXXX.log)"
status=0
./mvnw -B -q -pl adapter/cli -am verify -Dtest="CrashTest${methods:+#$methods}" -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtrestle.crash.cycles="$cycles" >"$log" 2>&1 || status=$?
grep -E "(Crash|SIGTERM) test on" "$log" | sed 's/^.*INFO  CrashTest - //'
grep -E "Tests run:.*Fail" "$log" | tail -n 1
[ "$status" = 0 ] || echo "FAILED (exit $status); the whole log is $log"
exit "$status"
