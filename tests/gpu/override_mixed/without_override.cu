// Translation unit WITHOUT sweep/thrust_override.cuh: its calls run stock Thrust.
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>

#ifdef SWEEP_THRUST_OVERRIDE
#  error "this translation unit must not see thrust_override.cuh"
#endif

#define SUFFIX without
#include "calls.inl"
