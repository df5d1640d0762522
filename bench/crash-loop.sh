#!/usr/bin/env bash
# Runs the crash tests for many cycles: the server as its own process under concurrent acknowledged writes,
# killed with SIGKILL at a random moment and restarted on the same database, then checked for every acknowledged
# write and for transactions half applied.
#   CrashTest (adapter/cli/src/test/java/dev/trestle/cli/crash/CrashTest.java): inserts, upserts, merges and
#     100-entity batches; SIGTERM too.
#   ExtensionsCrashTest (same folder): time to live (inserts over expired entities, the expiry sweep every
#     second), relaxed transactions across partitions and tables, a change feed (each acknowledged write has its
#     change, no change lacks its write, positions without a gap).
# The build runs 3 cycles (CrashTest) and 2 (ExtensionsCrashTest) per database; this is the long run to report.
#
# usage: bench/crash-loop.sh [CYCLES] [FILTER]
#   CYCLES   SIGKILL cycles per test method (default 20)
#   FILTER   a Surefire filter: CrashTest methods (e.g. '*Postgresql*'), or classes and methods
#            (e.g. 'ExtensionsCrashTest#timeToLive*', 'ExtensionsCrashTest#*Postgresql*');
#            default: every method of both classes, H2 and PostgreSQL
# Environment: TRESTLE_TEST_PG_URL, the PostgreSQL to use (default jdbc:postgresql://127.0.0.1:5432/test?user=root);
#   TRESTLE_CRASH_EVIDENCE=DIR copies each kill's H2 files, as the kill left them, to DIR/<database>/kill-N.
# Prints one line per test method: cycles, acknowledged writes, what else was checked, lost, partial, and on H2
# the row versions of no transaction that the repair at restart reverted (0 unless a save overlapped a write).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source .ci/find-jdk
cycles="${1:-20}"
filter="${2:-}"
case "$filter" in
  "") tests="CrashTest,ExtensionsCrashTest" ;;
  *CrashTest*) tests="$filter" ;;
  *) tests="CrashTest#$filter" ;;
esac
export TRESTLE_TEST_PG_URL="${TRESTLE_TEST_PG_URL:-jdbc:postgresql://127.0.0.1:5432/test?user=root}"
log="$(mktemp /tmp/trestle-crash-loop.XXXXXX.log)"
status=0
./mvnw -B -q -pl adapter/cli -am verify -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtrestle.crash.cycles="$cycles" ${TRESTLE_CRASH_EVIDENCE:+-Dtrestle.crash.evidence="$TRESTLE_CRASH_EVIDENCE"} \
  >"$log" 2>&1 || status=$?
# Maven's -q prints no test summary when every test passed: neither grep may end the script then
grep -E "(Crash|SIGTERM) test on" "$log" | sed 's/^.* - //' || true
grep -E "Tests run:.*Fail" "$log" | tail -n 1 || true
[ "$status" = 0 ] || echo "FAILED (exit $status); the whole log is $log"
exit "$status"
