// Radix-sort key traits: which keys sweep radix-sorts, and the bit transformation that turns a key
// into an unsigned integer whose unsigned order is the order stock Thrust (CUB) sorts in.
#pragma once

#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h> // __host__ / __device__ for host-only users (unit tests)

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! The unsigned integer of Bytes bytes: one specialization per key width (repeated by design; the
//! missing widths must not compile).
template <std::size_t Bytes>
struct unsigned_of;
template <>
struct unsigned_of<1>
{
  using type = std::uint8_t;
};
template <>
struct unsigned_of<2>
{
  using type = std::uint16_t;
};
template <>
struct unsigned_of<4>
{
  using type = std::uint32_t;
};
template <>
struct unsigned_of<8>
{
  using type = std::uint64_t;
};

enum class key_kind
{
  unsigned_integer,
  signed_integer,
  floating_point,
  unsupported,
};

template <class Key>
constexpr key_kind kind_of()
{
  using K = std::remove_cv_t<Key>;
  if constexpr (std::is_same<K, __half>::value)
  {
    // Thrust radix-sorts __half only when its operators and conversions are enabled.
#if !defined(__CUDA_NO_HALF_OPERATORS__) && !defined(__CUDA_NO_HALF_CONVERSIONS__)
    return key_kind::floating_point;
#else
    return key_kind::unsupported;
#endif
  }
  else if constexpr (std::is_same<K, __nv_bfloat16>::value)
  {
#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__) && !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
    return key_kind::floating_point;
#else
    return key_kind::unsupported;
#endif
  }
  else if constexpr (std::is_same<K, bool>::value)
  {
    return key_kind::unsigned_integer;
  }
  else if constexpr (std::is_integral<K>::value && (sizeof(K) == 1 || sizeof(K) == 2 || sizeof(K) == 4 || sizeof(K) == 8))
  {
    return std::is_signed<K>::value ? key_kind::signed_integer : key_kind::unsigned_integer;
  }
  else if constexpr (std::is_same<K, float>::value || std::is_same<K, double>::value)
  {
    return key_kind::floating_point;
  }
  else
  {
    // long double, 128-bit integers and everything else: Thrust's own path (see sort.cuh).
    return key_kind::unsupported;
  }
}

//! True for the key types sweep's onesweep sorts itself.
template <class Key>
constexpr bool is_radix_key = kind_of<Key>() != key_kind::unsupported;

//! The bit-level view of a radix key. `ordered(bits)` maps the key's bits to an unsigned integer
//! whose ascending order is CUB's radix order:
//!   unsigned: unchanged;  signed: sign bit flipped;
//!   floating: sign bit flipped for positive values, all bits flipped for negative values, and
//!             -0.0 mapped onto +0.0 so that the two compare equal and keep their input order
//!             (CUB's DeviceRadixSort documents "-0.0 and +0.0 are considered equal"); NaNs sort by
//!             these bits (positive NaNs after +inf, negative NaNs before -inf).
//! Descending sorts complement the ordered bits (CUB does the same), which keeps stability.
template <class Key>
struct key_traits
{
  static_assert(is_radix_key<Key>, "key_traits: not a radix key");
  using bits_type                          = typename unsigned_of<sizeof(Key)>::type;
  static constexpr int bits                = static_cast<int>(sizeof(Key) * 8);
  static constexpr key_kind kind           = kind_of<Key>();
  static constexpr bits_type high_bit      = static_cast<bits_type>(bits_type(1) << (bits - 1));
  static constexpr bits_type all_ones      = static_cast<bits_type>(~bits_type(0));

  __host__ __device__ static bits_type to_bits(Key key)
  {
    bits_type b;
    memcpy(&b, &key, sizeof(Key));
    return b;
  }

  __host__ __device__ static constexpr bits_type twiddle(bits_type b)
  {
    if constexpr (kind == key_kind::signed_integer)
    {
      return static_cast<bits_type>(b ^ high_bit);
    }
    else if constexpr (kind == key_kind::floating_point)
    {
      return static_cast<bits_type>(b ^ ((b & high_bit) ? all_ones : high_bit));
    }
    else
    {
      return b;
    }
  }

  //! Unsigned radix-order bits of a key given by its raw bits.
  template <bool Descending>
  __host__ __device__ static constexpr bits_type ordered(bits_type b)
  {
    bits_type t = twiddle(b);
    if constexpr (kind == key_kind::floating_point)
    {
      // twiddle(-0.0) == 0111..1, twiddle(+0.0) == 1000..0: make them one value.
      constexpr bits_type minus_zero = static_cast<bits_type>(all_ones ^ high_bit);
      t                              = t == minus_zero ? high_bit : t;
    }
    if constexpr (Descending)
    {
      t = static_cast<bits_type>(~t);
    }
    return t;
  }

  //! The inverse of twiddle.
  __host__ __device__ static constexpr bits_type untwiddle(bits_type t)
  {
    if constexpr (kind == key_kind::signed_integer)
    {
      return static_cast<bits_type>(t ^ high_bit);
    }
    else if constexpr (kind == key_kind::floating_point)
    {
      return static_cast<bits_type>((t & high_bit) ? (t ^ high_bit) : ~t);
    }
    else
    {
      return t;
    }
  }

  //! The form a digit pass keeps keys in (registers and shared memory): ordered<Descending> bits
  //! except that float -0.0 and +0.0 stay apart, so that decode() gives back the exact input bits.
  //! encode and decode are inverse bijections; radix_bits(encode(b)) == ordered<Descending>(b).
  template <bool Descending>
  __host__ __device__ static constexpr bits_type encode(bits_type b)
  {
    const bits_type t = twiddle(b);
    return Descending ? static_cast<bits_type>(~t) : t;
  }
  template <bool Descending>
  __host__ __device__ static constexpr bits_type decode(bits_type s)
  {
    return untwiddle(Descending ? static_cast<bits_type>(~s) : s);
  }
  //! The radix-order bits of an encoded key: equal keys (-0.0 and +0.0 too) get equal bits.
  template <bool Descending>
  __host__ __device__ static constexpr bits_type radix_bits(bits_type s)
  {
    if constexpr (kind == key_kind::floating_point)
    {
      // encode(-0.0) is 0111..1 ascending, 1000..0 descending; ordered() maps it onto +0.0's bits.
      constexpr bits_type minus_zero = Descending ? high_bit : static_cast<bits_type>(all_ones ^ high_bit);
      constexpr bits_type plus_zero  = Descending ? static_cast<bits_type>(all_ones ^ high_bit) : high_bit;
      return s == minus_zero ? plus_zero : s;
    }
    else
    {
      return s;
    }
  }
};


} // namespace sort_impl
} // namespace detail
} // namespace sweep
