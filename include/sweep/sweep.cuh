// Umbrella header: everything a sweep user needs (policies and every algorithm sweep provides).
// The opt-in rerouting of thrust::device calls lives in sweep/thrust_override.cuh and is never
// included from here.
#pragma once

#include <sweep/execution_policy.cuh>
#include <sweep/version.cuh>

#include <sweep/block_histogram.cuh>
#include <sweep/copy_if.cuh>
#include <sweep/histogram.cuh>
#include <sweep/partition.cuh>
#include <sweep/reduce_by_key.cuh>
#include <sweep/remove.cuh>
#include <sweep/scan.cuh>
#include <sweep/scan_by_key.cuh>
#include <sweep/sort.cuh>
#include <sweep/unique.cuh>
