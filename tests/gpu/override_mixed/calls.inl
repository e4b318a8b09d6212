// The same Thrust calls, compiled once with thrust_override.cuh (with_override.cu) and once without
// (without_override.cu): identical template instantiations of Thrust's entry points in both. Each
// includer defines SUFFIX first.
#define SWEEP_MIXED_CAT2(a, b) a##b
#define SWEEP_MIXED_CAT(a, b) SWEEP_MIXED_CAT2(a, b)
#define SWEEP_MIXED_NAME(name) SWEEP_MIXED_CAT(name, SUFFIX)

namespace mixed
{
struct is_odd
{
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

void SWEEP_MIXED_NAME(sort_)(thrust::device_vector<int>& v)
{
  thrust::sort(thrust::device, v.begin(), v.end());
}
void SWEEP_MIXED_NAME(sort_no_policy_)(thrust::device_vector<int>& v)
{
  thrust::sort(v.begin(), v.end());
}
void SWEEP_MIXED_NAME(sort_by_key_)(thrust::device_vector<int>& k, thrust::device_vector<int>& v)
{
  thrust::sort_by_key(thrust::device, k.begin(), k.end(), v.begin(), thrust::greater<int>());
}
// A policy variable (a non-const lvalue): routed where the header is included.
void SWEEP_MIXED_NAME(sort_policy_variable_)(thrust::device_vector<int>& v)
{
  auto policy = thrust::cuda::par.on(nullptr);
  thrust::sort(policy, v.begin(), v.end());
}
// Generic code that passes the policy as Thrust's base type: this instantiates Thrust's own entry
// point with thrust::cuda_cub::par_t in both units, whose body must be the same (stock) in both.
template <class Policy>
void sort_through_base(const thrust::detail::execution_policy_base<Policy>& exec, thrust::device_vector<int>& v)
{
  thrust::sort(exec, v.begin(), v.end());
}
void SWEEP_MIXED_NAME(sort_generic_)(thrust::device_vector<int>& v)
{
  sort_through_base(thrust::device, v);
}
std::ptrdiff_t SWEEP_MIXED_NAME(copy_if_)(const thrust::device_vector<int>& in, thrust::device_vector<int>& out)
{
  return thrust::copy_if(thrust::device, in.begin(), in.end(), out.begin(), is_odd{}) - out.begin();
}
} // namespace mixed
