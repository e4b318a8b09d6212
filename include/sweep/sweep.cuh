// Umbrella header: everything a sweep user needs (policies and every algorithm sweep provides).
#pragma once

#include <sweep/execution_policy.cuh>
