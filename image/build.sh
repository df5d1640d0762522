#!/usr/bin/env bash
# Builds the container image localhost/trestle:<version> (and :latest) with buildah, without a Docker daemon and
# without pulling a base image: the Java runtime is jlinked from the local JDK (only the modules the runnable jar
# needs), the C library and a shell (for the entry point and the health check) come from Debian's libc6 and
# busybox-static packages (with openssl, through which the health check speaks HTTPS), unpacked into an image built
# FROM scratch. image/Containerfile describes the same
# layout on an eclipse-temurin base, for machines that reach a registry.
#
#   image/build.sh [--save FILE]   --save also writes the image as an OCI archive (podman load -i FILE)
#
# Needs: a JDK 21+ (found as ./trestle finds it), buildah, apt-get (Debian or Ubuntu) and root, or rootless
# buildah inside `buildah unshare`. Work files go to image/target/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/image/target"
save=""
while [ $# -gt 0 ]; do
  case "$1" in
    --save) save="$2"; shift 2 ;;
    *) echo "usage: image/build.sh [--save FILE]" >&2; exit 2 ;;
  esac
done
for tool in buildah apt-get dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "image/build.sh needs $tool (apt-get install buildah)" >&2; exit 1; }
done

# The runnable jar, built by the launcher when the sources are newer.
"$root/trestle" version >/dev/null
jar="$root/adapter/cli/target/trestle.jar"
source "$root/.ci/find-jdk"
version="$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$root/pom.xml" | head -n1)"
uid=10001 # the trestle user; owns /data, nothing else

mkdir -p "$work"

# 1. The Java runtime: the modules jdeps finds in the jar, plus the elliptic-curve provider (TLS to PostgreSQL)
#    where the JDK still has it as a module. Rebuilt when the JDK or the module list changes.
modules="$(jdeps --print-module-deps --ignore-missing-deps --multi-release 21 -q "$jar")"
if "$JAVA_HOME/bin/java" --list-modules | grep -q '^jdk.crypto.ec@'; then modules="$modules,jdk.crypto.ec"; fi
jre_key="$("$JAVA_HOME/bin/java" -version 2>&1 | head -n1) $modules"
if [ ! -x "$work/jre/bin/java" ] || [ "$(cat "$work/jre.key" 2>/dev/null)" != "$jre_key" ]; then
  echo "jlink: $modules" >&2
  rm -rf "$work/jre"
  "$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
    --compress=zip-6 --generate-cds-archive --output "$work/jre"
  echo "$jre_key" >"$work/jre.key"
fi

# 2. The Debian packages the runtime stands on, downloaded once per version.
mkdir -p "$work/debs"
# openssl (with libssl3): busybox's wget speaks HTTPS through it, for the health check of a server with TRESTLE_CERT;
# busybox's own TLS offers only SHA-1 handshake signatures, which the JDK refuses
(cd "$work/debs" && apt-get download -q=2 libc6 busybox-static openssl libssl3 2>/dev/null) ||
  { echo "apt-get download libc6 busybox-static openssl libssl3 failed (run apt-get update?)" >&2; exit 1; }

# 3. The root file system.
rootfs="$work/rootfs"
rm -rf "$rootfs"
mkdir -p "$rootfs"/{app,data,etc,tmp,usr/local/bin,opt}
for deb in "$work"/debs/libc6_*.deb "$work"/debs/busybox-static_*.deb "$work"/debs/openssl_*.deb \
  "$work"/debs/libssl3_*.deb; do dpkg-deb -x "$deb" "$rootfs"; done
# iconv modules and the C library's debugging helpers: Java uses neither
rm -rf "$rootfs"/usr/lib/*/gconv "$rootfs"/usr/share/lintian "$rootfs"/usr/share/doc "$rootfs"/usr/share/man "$rootfs"/lib/*/libmemusage.so \
  "$rootfs"/lib/*/libpcprofile.so "$rootfs"/lib/*/libc_malloc_debug.so.0
for applet in $("$rootfs/bin/busybox" --list); do
  [ -e "$rootfs/bin/$applet" ] || ln -s busybox "$rootfs/bin/$applet"
done
cp -a "$work/jre" "$rootfs/opt/java"
cp "$jar" "$rootfs/app/trestle.jar"
cp "$root/LICENSE" "$root/NOTICE" "$rootfs/app/"
install -m 0755 "$root/image/rootfs/trestle" "$root/image/rootfs/trestle-healthcheck" "$rootfs/usr/local/bin/"
cat >"$rootfs/etc/passwd" <<EOF
root:x:0:0:root:/root:/bin/sh
trestle:x:$uid:$uid:Trestle:/data:/sbin/nologin
EOF
cat >"$rootfs/etc/group" <<EOF
root:x:0:
trestle:x:$uid:
EOF
echo 'hosts: files dns' >"$rootfs/etc/nsswitch.conf"
chmod 1777 "$rootfs/tmp"
rmdir "$rootfs/data" # added below, owned by the trestle user

# 4. The image, in docker format: the OCI image format has no HEALTHCHECK.
export BUILDAH_FORMAT=docker
ctr="$(buildah from scratch)"
trap 'buildah rm "$ctr" >/dev/null 2>&1 || true' EXIT
buildah copy --quiet "$ctr" "$rootfs" / >/dev/null
mkdir -p "$work/empty"
buildah copy --quiet --chown "$uid:$uid" "$ctr" "$work/empty" /data >/dev/null
buildah config \
  --user "$uid:$uid" \
  --workingdir /data \
  --volume /data \
  --port 10002 \
  --env PATH=/opt/java/bin:/usr/local/bin:/usr/bin:/bin \
  --env JAVA_HOME=/opt/java \
  --env TRESTLE_HOST=0.0.0.0 \
  --entrypoint '["/usr/local/bin/trestle"]' \
  --cmd '["serve"]' \
  --stop-signal SIGTERM \
  --healthcheck 'CMD /usr/local/bin/trestle-healthcheck' \
  --healthcheck-interval 30s --healthcheck-timeout 5s --healthcheck-start-period 60s --healthcheck-retries 3 \
  --label org.opencontainers.image.title=Trestle \
  --label "org.opencontainers.image.description=Azure Table Storage API on H2 or PostgreSQL" \
  --label "org.opencontainers.image.version=$version" \
  --label org.opencontainers.image.licenses=Apache-2.0 \
  --label "org.opencontainers.image.revision=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)" \
  "$ctr"
buildah commit --quiet --rm "$ctr" "localhost/trestle:$version" >/dev/null
trap - EXIT
buildah tag "localhost/trestle:$version" localhost/trestle:latest
echo "built localhost/trestle:$version ($(buildah images --format '{{.Size}}' "localhost/trestle:$version" | head -n1))"
if [ -n "$save" ]; then
  rm -f "$save"
  buildah push --quiet "localhost/trestle:$version" "oci-archive:$save:localhost/trestle:$version"
  echo "saved $save"
fi
