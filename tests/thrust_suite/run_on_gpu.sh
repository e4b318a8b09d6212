#!/usr/bin/env bash
# Builds Thrust's own tests against sweep (through sweep/thrust_override.cuh) and runs them on this
# machine's GPU, then prints one line per test file: the Thrust driver's pass/failure counts and the
# routing check's verdict. Run from anywhere inside the repository.
#   usage: tests/thrust_suite/run_on_gpu.sh [test files...]    e.g.  ... copy.cu cuda/copy_if.cu
#   environment: SWEEP_THRUST_TESTING_DIR (default: .thrust-testing/thrust/testing of the repository),
#                BUILD_DIR (default: build/thrust-suite), JOBS (build, default 16), TEST_JOBS (default 4),
#                OUT (where the logs go; default: the build directory), CMAKE_ARGS (more configure
#                arguments, e.g. -DCCCL_DIR=<a CCCL install>/lib/cmake/cccl to build against that
#                release), SKIP_BUILD=1 (run what BUILD_DIR holds, e.g. binaries built on another
#                machine), TEST_TIMEOUT (seconds per test file, default 1800)
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

build_rc=0
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  # shellcheck disable=SC2086
  if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DSWEEP_BUILD_TESTS=ON -DSWEEP_BUILD_BENCHMARKS=OFF -DSWEEP_BUILD_EXAMPLES=OFF \
      -DSWEEP_THRUST_TESTING_DIR="$testing" "-DSWEEP_THRUST_SUITE_ONLY=$only" ${CMAKE_ARGS:-} >"$out/configure.log" 2>&1; then
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
fi

# Each test file's executable (sweep.thrust.<name>), run directly, TEST_JOBS at a time: its log, the
# Thrust driver's totals and the routing check's verdict. (ctest -L thrust_suite runs the same.)
mkdir -p "$out/logs"
mapfile -t tests < <(find "$build/tests/thrust_suite" -maxdepth 1 -type f -name 'sweep.thrust.*' -perm -u+x | sort)
if [ "${#tests[@]}" -eq 0 ]; then
  echo "no Thrust test executables in $build/tests/thrust_suite"
  exit 1
fi
run_one() {
  local bin=$1 name
  name=$(basename "$bin")
  timeout "${TEST_TIMEOUT:-1800}" "$bin" >"$LOGS/$name.log" 2>&1
  echo $? >"$LOGS/$name.rc"
}
export -f run_one
export LOGS="$out/logs" TEST_TIMEOUT
printf '%s\n' "${tests[@]}" | xargs -P "${TEST_JOBS:-4}" -I{} bash -c 'run_one "$1"' _ {}

echo "per-file results (Thrust driver totals; routing check):"
failed=0
for bin in "${tests[@]}"; do
  name=$(basename "$bin")
  rc=$(cat "$out/logs/$name.rc")
  totals=$(grep -m1 "^Totals:" "$out/logs/$name.log" || echo "(no totals: crashed or timed out)")
  routing=$(grep -m1 -o "sweep routing check: \(PASSED\|FAILED.*\|not enforced.*\)" "$out/logs/$name.log" | sed 's/^sweep routing check: //')
  verdict=ok
  if [ "$rc" != 0 ]; then verdict="FAILED(exit $rc)"; failed=$((failed + 1)); fi
  printf '  %-55s %-14s %s | routing: %s\n' "${name#sweep.thrust.}" "$verdict" "$totals" "${routing:-(no report)}"
done
echo "$(( ${#tests[@]} - failed )) of ${#tests[@]} Thrust test files passed"
echo "failing Thrust tests (if any):"
grep -h -E "^(FAILURE|ERROR): " "$out"/logs/*.log | head -60
if [ $build_rc -ne 0 ] || [ $failed -ne 0 ]; then
  exit 1
fi
exit 0
