#!/usr/bin/env bash
# Puts Apache Jena Fuseki's standalone server (org.apache.jena:jena-fuseki-server, one runnable jar
# with the admin protocol and its shiro login) where the integration tests run it from:
# .test-tmp/fuseki/jena-fuseki-server-VERSION.jar (git-ignored; $FEDPOD_TEST_TMP instead of
# .test-tmp when set), and prints that path.
#
# Maven fetches it with its defaults (its own repository settings, cached in the local repository,
# ~/.m2 unless configured otherwise): once cached, it is copied from there offline (`mvn -o`), and
# once copied, Maven is not even started. 5.6.0 is the newest Fuseki that runs on Java 17.
#
# Exit codes: 0 = the jar is there, 2 = java or mvn missing (scripts/ensure-test-deps.sh installs
# them), other = Maven could not fetch it.
set -euo pipefail

VERSION=5.6.0
ARTIFACT=org.apache.jena:jena-fuseki-server:$VERSION

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${FEDPOD_TEST_TMP:-$repo/.test-tmp}/fuseki
jar=$out/jena-fuseki-server-$VERSION.jar

if [[ -s $jar ]]; then
  echo "$jar"
  exit 0
fi
for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "fetch-fuseki: $tool is missing (run scripts/ensure-test-deps.sh)" >&2
    exit 2
  fi
done

mkdir -p "$out"
# Test runs of one work tree may start together: one fetches, the others wait and find it done.
exec 9>"$out/.lock"
flock 9
if [[ ! -s $jar ]]; then
  log=$out/mvn.log
  # Copy into a temp dir first: a Maven stopped half-way must not leave a partial jar behind.
  tmp=$(mktemp -d "$out/.copy-XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  copy() { mvn -B -q "$@" dependency:copy -Dartifact="$ARTIFACT" -DoutputDirectory="$tmp" >"$log" 2>&1; }
  if ! copy -o; then
    echo "fetch-fuseki: fetching $ARTIFACT with Maven" >&2
    copy || {
      tail -n 30 "$log" >&2
      exit 1
    }
  fi
  mv "$tmp/jena-fuseki-server-$VERSION.jar" "$jar"
  rm -f "$log"
fi
echo "$jar"
