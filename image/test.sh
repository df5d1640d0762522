#!/usr/bin/env bash
# Builds the image (image/build.sh) and runs it with podman twice, with the Azure SDK for Python as the client
# (image/sdk_client.py: create a table, upsert, merge, query, delete):
#   1. H2 in the container, data on a named volume, port published on 127.0.0.1, memory limited to 512 MiB:
#      write, restart the container, check the data is still there; the image's own health check must pass.
#   2. the local PostgreSQL (TRESTLE_TEST_PG_URL's server, default 127.0.0.1:5432 user root) on the host network,
#      in a database of its own that it drops afterwards, over HTTPS: a certificate and key made with openssl,
#      mounted read-only and named by TRESTLE_CERT and TRESTLE_KEY; the client trusts that certificate.
# Prints "image: N passed, N failed" and exits non-zero on any failure. Not part of .ci/run (it needs podman,
# buildah and python3-azure: apt-get install podman buildah runc python3-azure).
#
#   image/test.sh [--no-build]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python=/usr/bin/python3 # Debian's, where python3-azure installs
pg_host=127.0.0.1 pg_port=5432 pg_user=root pg_db=trestle_image_test
# free ports, so that a run beside other servers on this machine does not meet them
free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port) pg_port_trestle=$(free_port)
start=$(date +%s)
passed=0 failed=0

if [ "${1:-}" != "--no-build" ]; then
  "$root/image/build.sh" || exit 1
fi
version="$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$root/pom.xml" | head -n1)"
image="localhost/trestle:$version"

# podman's defaults raise the open-files limit past this machine's hard limit, and crun refuses cgroups v1+v2
# hybrids: where a plain run fails, use runc and the current limits.
run_opts=()
if ! podman run --rm "$image" version >/dev/null 2>&1; then
  run_opts=(--runtime runc --ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit nproc=32768:32768)
  podman run --rm "${run_opts[@]}" "$image" version >/dev/null || { echo "podman cannot run $image" >&2; exit 1; }
  echo "podman run options for this machine: ${run_opts[*]}"
fi

result() { # name, status
  if [ "$2" = 0 ]; then passed=$((passed + 1)); echo "PASS $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}
wait_healthy() { # url, container[, CA file for https]
  for _ in $(seq 1 120); do
    curl -sf ${3:+--cacert "$3"} "$1/health" >/dev/null && return 0
    [ "$(podman inspect -f '{{.State.Running}}' "$2" 2>/dev/null)" = true ] || break
    sleep 0.5
  done
  echo "$2 did not become healthy:" >&2
  podman logs "$2" >&2
  return 1
}
cleanup() {
  podman rm --ignore -f -t 20 trestle-test-h2 >/dev/null 2>&1
  podman rm --ignore -f -t 20 trestle-test-pg >/dev/null 2>&1
  podman volume rm -f trestle-test-data >/dev/null 2>&1
  dropdb -h "$pg_host" -p "$pg_port" -U "$pg_user" --if-exists --force "$pg_db" 2>/dev/null
  [ -n "${tls:-}" ] && rm -rf "$tls"
}
cleanup
trap cleanup EXIT

# 1. H2 on a volume
t0=$(date +%s%N)
podman run -d --name trestle-test-h2 "${run_opts[@]}" --memory 512m -p "127.0.0.1:$port:10002" \
  -v trestle-test-data:/data "$image" >/dev/null 2>&1
status=1
if wait_healthy "http://127.0.0.1:$port" trestle-test-h2; then
  echo "H2: healthy $(( ($(date +%s%N) - t0) / 1000000 )) ms after podman run"
  "$python" "$root/image/sdk_client.py" "http://127.0.0.1:$port/devstoreaccount1" write &&
    podman exec trestle-test-h2 /usr/local/bin/trestle-healthcheck &&
    echo "H2: the image's health check passes" &&
    t1=$(date +%s%N) && podman stop -t 20 trestle-test-h2 >/dev/null 2>&1 &&
    echo "H2: stopped in $(( ($(date +%s%N) - t1) / 1000000 )) ms, exit code $(podman inspect -f '{{.State.ExitCode}}' trestle-test-h2)" &&
    podman start trestle-test-h2 >/dev/null 2>&1 &&
    wait_healthy "http://127.0.0.1:$port" trestle-test-h2 &&
    "$python" "$root/image/sdk_client.py" "http://127.0.0.1:$port/devstoreaccount1" check &&
    heap=$(podman exec trestle-test-h2 java -XX:MaxRAMPercentage=75 -XX:+PrintFlagsFinal -version 2>/dev/null |
      awk '$2 == "MaxHeapSize" {print int($4 / 1048576)}') &&
    echo "H2: the JVM's heap limit under --memory 512m: $heap MiB" &&
    [ "$(podman exec trestle-test-h2 id -u)" = 10001 ] && echo "H2: runs as uid 10001" &&
    status=0
fi
result "H2 in the container, data on a volume across a restart" $status
podman rm --ignore -f -t 20 trestle-test-h2 >/dev/null 2>&1

# 2. PostgreSQL on the host, over HTTPS
status=1
tls="$(mktemp -d)"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$tls/key.pem" -out "$tls/cert.pem" 2>/dev/null
# readable by the container's user (uid 10001): a throwaway test key; see the README for a real one
chmod 0755 "$tls" && chmod 0644 "$tls/cert.pem" "$tls/key.pem"
if createdb -h "$pg_host" -p "$pg_port" -U "$pg_user" "$pg_db"; then
  podman run -d --name trestle-test-pg "${run_opts[@]}" --network host -v "$tls:/etc/trestle/tls:ro" \
    -e TRESTLE_HOST=127.0.0.1 -e TRESTLE_PORT=$pg_port_trestle \
    -e TRESTLE_CERT=/etc/trestle/tls/cert.pem -e TRESTLE_KEY=/etc/trestle/tls/key.pem \
    -e "TRESTLE_DB=jdbc:postgresql://$pg_host:$pg_port/$pg_db" -e "TRESTLE_DB_USER=$pg_user" "$image" >/dev/null 2>&1
  if wait_healthy "https://127.0.0.1:$pg_port_trestle" trestle-test-pg "$tls/cert.pem"; then
    podman logs trestle-test-pg 2>/dev/null | grep -E "serves the Table API at|certificate:|DefaultEndpointsProtocol" |
      sed 's/AccountKey=[^;]*/AccountKey=.../'
    REQUESTS_CA_BUNDLE="$tls/cert.pem" "$python" "$root/image/sdk_client.py" "https://127.0.0.1:$pg_port_trestle/devstoreaccount1" write &&
      rows=$(psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -d "$pg_db" -Atc 'select count(*) from trestle_schema_history') &&
      echo "PostgreSQL: schema applied in $pg_db ($rows migrations)" &&
      REQUESTS_CA_BUNDLE="$tls/cert.pem" "$python" "$root/image/sdk_client.py" "https://127.0.0.1:$pg_port_trestle/devstoreaccount1" check &&
      ! curl -sf "http://127.0.0.1:$pg_port_trestle/health" >/dev/null && echo "PostgreSQL: plain HTTP is not served" &&
      podman exec trestle-test-pg /usr/local/bin/trestle-healthcheck &&
      echo "PostgreSQL: the image's health check passes over HTTPS" &&
      status=0
  fi
fi
result "PostgreSQL on the host network, over HTTPS" $status

echo "image test took $(( $(date +%s) - start )) s"
echo "image: $passed passed, $failed failed"
[ "$failed" = 0 ]
