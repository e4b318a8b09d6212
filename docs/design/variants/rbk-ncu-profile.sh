#!/usr/bin/env bash
# The Nsight Compute profiles of docs/design/compaction.md, "What limits it" (reduce_by_key at runs of
# 8 against CUB and the scan by key). On the GPU host, with a built sweep-bench:
#   bash docs/design/variants/rbk-ncu-profile.sh build/gpu/benchmarks/sweep-bench OUTDIR
set -u
bench=${1:?sweep-bench binary}; out=${2:?output folder}; mkdir -p "$out"
prof() { # tag filter kernel-regex: the third launch of the kernel in one short run of the cell
  timeout 60 ncu --kernel-name "regex:$3" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
    "$bench" --benchmark_filter="$2" --benchmark_repetitions=1 --benchmark_min_time=0.01 > "$out/ncu_$1.txt" 2>&1
  echo "ncu $1 rc=$?"
}
prof rbk8_sweep '^reduce_by_key/u32_runs8/sweep/268435456' 'scan_kernel'
prof rbk8_cub '^reduce_by_key/u32_runs8/cub_i32/268435456' 'DeviceReduceByKeyKernel'
prof sbk8_sweep '^scan/by_key_u32_runs8/sweep/268435456' 'scan_kernel'
# Warp-instructions an item: Issued Ipc Active x SM Active Cycles x SMs / items.
