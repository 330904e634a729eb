# Sourced by every script of bench/: one Maven command at the repository root builds the service with the
# reference runtime and the tests (nothing installed first), then BENCH_CP holds the test classpath.
# shellcheck shell=bash
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./mvnw -B -q package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt \
  -Dmdep.includeScope=test >/dev/null
BENCH_CP="target/test-classes:target/classes:$(cat target/test-classpath.txt)"
