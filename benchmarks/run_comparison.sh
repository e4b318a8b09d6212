#!/usr/bin/env bash
# The one command to run on a GPU host: builds sweep-bench (CMake preset "gpu"), runs sweep against
# stock Thrust and CUB with JSON output, and renders the report (markdown table + throughput plots).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: benchmarks/run_comparison.sh [options] [sweep-bench arguments]

  (no options)             build, run every benchmark (median of 5 repetitions; minutes), and
                           write build/gpu/report/benchmarks.md, plots/ and results.json
  --quick                  one short repetition per benchmark (passed to sweep-bench)
  --benchmark_filter=RE    run only benchmarks whose name <algo>/<workload>/<impl>/<n> matches the
                           regular expression RE, e.g. =copy_if, =sort, ='histogram|copy/'
                           (keep copy/ in the filter to get the "% of copy" column)
  --docs                   write the committed report instead: docs/benchmarks.md, docs/plots/ and
                           docs/benchmarks.json (the raw results it was rendered from)
  --out DIR                write the report into DIR (default build/gpu/report)
  --skip-build             use the existing build/gpu/benchmarks/sweep-bench as it is
  --render-only FILE       do not build or run; render FILE (a sweep-bench JSON) into the report
  -h, --help               this text

Any other argument goes to sweep-bench (Google Benchmark flags such as --benchmark_repetitions=10,
--benchmark_min_time=1). Needs CMake >= 3.24, Ninja, the CUDA toolkit, Google Benchmark, and
python3 (with python3-matplotlib for the plots; without it the report has no plots).
EOF
}

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

out_dir="build/gpu/report"
build=1
render_only=""
bench_args=()
while (($#)); do
  case "$1" in
    --docs) out_dir="docs" ;;
    --out) out_dir="${2:?--out needs a directory}"; shift ;;
    --out=*) out_dir="${1#--out=}" ;;
    --skip-build) build=0 ;;
    --render-only) render_only="${2:?--render-only needs a JSON file}"; shift ;;
    --render-only=*) render_only="${1#--render-only=}" ;;
    -h | --help) usage; exit 0 ;;
    *) bench_args+=("$1") ;;
  esac
  shift
done

if [[ "$out_dir" == "docs" ]]; then
  md="docs/benchmarks.md"; plots="docs/plots"; json="docs/benchmarks.json"
else
  md="$out_dir/benchmarks.md"; plots="$out_dir/plots"; json="$out_dir/results.json"
fi
mkdir -p "$(dirname "$md")"

# The report wants matplotlib; a python3 from pyenv/conda may lack Debian's python3-matplotlib.
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import matplotlib' >/dev/null 2>&1; then
    python="$candidate"
    break
  fi
done
if [[ -z "$python" ]]; then
  python="python3"
  echo "run_comparison.sh: no python3 with matplotlib (Debian: apt install python3-matplotlib); the report will have no plots" >&2
fi

meta_args=()
if [[ -z "$render_only" ]]; then
  bench="build/gpu/benchmarks/sweep-bench"
  if ((build)); then
    if [[ ! -f build/gpu/CMakeCache.txt ]]; then
      cmake --preset gpu
    fi
    cmake --build --preset gpu --target sweep-bench
  fi
  if [[ ! -x "$bench" ]]; then
    echo "run_comparison.sh: $bench not found; run without --skip-build" >&2
    exit 1
  fi

  # Facts the binary cannot know; stamped into the JSON so that it renders on its own later.
  if commit="$(git rev-parse --short=12 HEAD 2>/dev/null)"; then
    if [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
      commit="$commit+dirty"
    fi
    meta_args+=(--commit "$commit")
  fi
  cccl_dir="$(sed -n 's/^CCCL_DIR:PATH=//p' build/gpu/CMakeCache.txt 2>/dev/null || true)"
  if [[ -n "$cccl_dir" && -f "$cccl_dir/cccl-config-version.cmake" ]]; then
    cccl="$(sed -n 's/^set(CCCL_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\))/\2/p' "$cccl_dir/cccl-config-version.cmake" | paste -sd.)"
    [[ -n "$cccl" ]] && meta_args+=(--cccl "$cccl")
  fi
  if command -v nvidia-smi >/dev/null 2>&1; then
    driver="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true)"
    [[ -n "$driver" ]] && meta_args+=(--driver "$driver")
  fi

  # Results land in a .partial file first: a failed or interrupted run never replaces good results.
  mkdir -p "$(dirname "$json")"
  status=0
  "$bench" --benchmark_out="$json.partial" --benchmark_out_format=json "${bench_args[@]}" || status=$?
  if ((status != 0)); then
    echo "run_comparison.sh: sweep-bench failed (exit $status); no report written" >&2
    exit "$status"
  fi
  mv "$json.partial" "$json"
  meta_args+=(--stamp)
else
  if ((${#bench_args[@]})); then
    echo "run_comparison.sh: --render-only takes no sweep-bench arguments (got: ${bench_args[*]})" >&2
    exit 2
  fi
  json="$render_only"
fi

"$python" benchmarks/report.py "$json" --out "$md" --plots-dir "$plots" "${meta_args[@]}"
echo "report: $md (results: $json)"
