#!/usr/bin/env bash
# Builds Thrust's own tests against sweep (through sweep/thrust_override.cuh) and runs them on this
# machine's GPU, then prints one line per test file: the Thrust driver's pass/failure counts and the
# routing check's verdict. Run from anywhere inside the repository.
#   usage: tests/thrust_suite/run_on_gpu.sh [test files...]    e.g.  ... copy.cu cuda/copy_if.cu
#   environment: SWEEP_THRUST_TESTING_DIR (default: .thrust-testing/thrust/testing of the repository),
#                BUILD_DIR (default: build/thrust-suite), JOBS (build, default 16), TEST_JOBS (default 4),
#                OUT (where the logs go; default: the build directory)
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
testing="${SWEEP_THRUST_TESTING_DIR:-$root/.thrust-testing/thrust/testing}"
build="${BUILD_DIR:-$root/build/thrust-suite}"
out="${OUT:-$build}"
mkdir -p "$out"
[ -f .gpu-deps/env.sh ] && source .gpu-deps/env.sh

only=""
if [ "$#" -gt 0 ]; then
  only="$(IFS=';'; echo "$*")"
fi

if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DSWEEP_BUILD_TESTS=ON -DSWEEP_BUILD_BENCHMARKS=OFF -DSWEEP_BUILD_EXAMPLES=OFF \
    -DSWEEP_THRUST_TESTING_DIR="$testing" "-DSWEEP_THRUST_SUITE_ONLY=$only" >"$out/configure.log" 2>&1; then
  tail -30 "$out/configure.log"
  exit 1
fi

# -k 0: build every file it can, so that one that does not compile does not hide the others.
cmake --build "$build" -j "${JOBS:-16}" --target sweep-thrust-suite -- -k 0 >"$out/build.log" 2>&1
build_rc=$?
if [ $build_rc -ne 0 ]; then
  echo "BUILD FAILED for some files (see $out/build.log):"
  grep -E "^FAILED:|error" "$out/build.log" | head -40
fi

# -V: every test's output, prefixed by its ctest number, so the summary below can read it.
(cd "$build" && ctest -L thrust_suite -j "${TEST_JOBS:-4}" -V) >"$out/ctest.log" 2>&1
ctest_rc=$?

echo "per-file results (Thrust driver totals; routing check):"
awk '
  /^ *Start +[0-9]+: thrust_suite\./ { n = $2; sub(":", "", n); name[n] = $3; order[++count] = n }
  /^[0-9]+: Totals:/ { split($0, a, ": "); n = a[1]; totals[n] = substr($0, index($0, "Totals:")) }
  /^[0-9]+: sweep routing check: (PASSED|FAILED|not enforced)/ {
    split($0, a, ": "); n = a[1]; routing[n] = substr($0, index($0, "check: ") + 7) }
  /^[0-9]+\/[0-9]+ Test +#[0-9]+: thrust_suite\./ {
    n = $3; gsub(/[#:]/, "", n); verdict[n] = ($0 ~ / Passed /) ? "ok" : "FAILED" }
  END {
    for (i = 1; i <= count; ++i) {
      n = order[i]
      printf "  %-55s %-6s %s | routing: %s\n", name[n], verdict[n], \
        (n in totals) ? totals[n] : "(no totals: crashed or not built)", (n in routing) ? routing[n] : "(no report)"
    }
  }' "$out/ctest.log"
grep -E "tests passed|tests failed" "$out/ctest.log" | tail -1
echo "failing Thrust tests (if any):"
grep -E "^[0-9]+: (FAILURE|ERROR): " "$out/ctest.log" | head -60
if [ $build_rc -ne 0 ] || [ $ctest_rc -ne 0 ]; then
  exit 1
fi
exit 0
