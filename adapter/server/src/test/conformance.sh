#!/usr/bin/env bash
# Runs the black-box suite in shared/conformance against Trestle on one database.
#   adapter/server/src/test/conformance.sh h2|postgresql [extra mvn args for the suite, e.g. -Dtest=QueryTest]
# PostgreSQL comes from TRESTLE_TEST_PG_URL (default: the local test database, schema trestle_conformance).
set -euo pipefail
db="${1:-h2}"; shift || true
root="$(cd "$(dirname "$0")/../../../.." && pwd)"
suite_src="${CONFORMANCE_DIR:-$root/../shared/conformance}"
[ -d "$suite_src" ] || suite_src=/work/shared/conformance
port="${CONFORMANCE_PORT:-10102}"
work="$(mktemp -d /tmp/conf-server.XXXXXX)"
case "$db" in
  h2) url="jdbc:h2:mem:conformance;DB_CLOSE_DELAY=-1" ;;
  postgresql)
    base="${TRESTLE_TEST_PG_URL:-jdbc:postgresql://127.0.0.1:5432/test?user=root}"
    psql -h 127.0.0.1 -U root -d test -qc "DROP SCHEMA IF EXISTS trestle_conformance CASCADE; CREATE SCHEMA trestle_conformance" >/dev/null
    sep='?'; [[ "$base" == *\?* ]] && sep='&'
    url="${base}${sep}currentSchema=trestle_conformance" ;;
  *) echo "unknown database $db" >&2; exit 2 ;;
esac
cd "$root"
# the reactor resolves trestle-core (and its test-jar) to its target folders; the server module writes last
./mvnw -B -q -o -pl adapter/server -am test-compile dependency:build-classpath -DskipTests \
  -Dmdep.includeScope=test -Dmdep.outputFile="$work/cp.txt" >/dev/null
# shellcheck disable=SC1091
source "$root/.ci/find-jdk"
java="$JAVA_HOME/bin/java"
cp="$root/adapter/server/target/test-classes:$root/adapter/server/target/classes:$root/adapter/core/target/classes:$(cat "$work/cp.txt")"
"$java" -cp "$cp" dev.trestle.server.conformance.ConformanceServer "$url" "$port" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do
  curl -s -o /dev/null "http://127.0.0.1:$port/devstoreaccount1/Tables" && break
  sleep 1
done
cp -r "$suite_src" "$work/suite"
cd "$work/suite"
mvn -B -q test-compile exec:java -Dtable.endpoint="http://127.0.0.1:$port/devstoreaccount1" "$@" 2>&1 | tee "$work/result.txt" | tail -60
echo "server log: $work/server.log"
