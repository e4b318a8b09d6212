// Warp shuffles of values of any trivially copyable type: the value's bytes move as 32-bit words
// (one shuffle a word), so user structs and 1- and 2-byte types shuffle like ints.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sweep
{
namespace detail
{

//! The kinds of lane exchange warp_exchange performs.
enum class shuffle_kind
{
  index, //!< from lane `arg`
  up,    //!< from lane - arg (a lane below arg keeps its own value)
  down,  //!< from lane + arg (a lane past 31 - arg keeps its own value)
};

template <shuffle_kind Kind>
__device__ __forceinline__ std::uint32_t shuffle_word(std::uint32_t w, int arg)
{
  constexpr unsigned full = 0xffffffffu;
  if constexpr (Kind == shuffle_kind::index)
  {
    return __shfl_sync(full, w, arg);
  }
  else if constexpr (Kind == shuffle_kind::up)
  {
    return __shfl_up_sync(full, w, static_cast<unsigned>(arg));
  }
  else
  {
    return __shfl_down_sync(full, w, static_cast<unsigned>(arg));
  }
}

//! One shuffle of `value` across the whole warp (all 32 lanes must call it).
template <shuffle_kind Kind, class T>
__device__ __forceinline__ T warp_exchange(const T& value, int arg)
{
  static_assert(std::is_trivially_copyable<T>::value, "warp_exchange: values are moved as bytes");
  constexpr int words = static_cast<int>((sizeof(T) + 3) / 4);
  std::uint32_t bits[words];
  bits[words - 1] = 0;
  std::memcpy(bits, &value, sizeof(T));
#pragma unroll
  for (int k = 0; k < words; ++k)
  {
    bits[k] = shuffle_word<Kind>(bits[k], arg);
  }
  T out;
  std::memcpy(&out, bits, sizeof(T));
  return out;
}

template <class T>
__device__ __forceinline__ T shuffle_index(const T& value, int lane)
{
  return warp_exchange<shuffle_kind::index>(value, lane);
}
template <class T>
__device__ __forceinline__ T shuffle_up(const T& value, int delta)
{
  return warp_exchange<shuffle_kind::up>(value, delta);
}
template <class T>
__device__ __forceinline__ T shuffle_down(const T& value, int delta)
{
  return warp_exchange<shuffle_kind::down>(value, delta);
}

} // namespace detail
} // namespace sweep
