// The cases every forced tile schedule of copy_if runs against stock Thrust (test_copy_if_schedules.cu:
// in order, pipelined, bulk, and the specialised schedule): every load path, edge sizes, more tiles than the GPU holds blocks, misaligned
// starts, stencils, discard outputs, and a count past 2^31.
#pragma once

#include "copy_if_test.cuh"
#include "forced_schedule.cuh"

#include <sweep/detail/copy_if/dispatch.cuh>
#include <sweep/detail/util/device_info.hpp>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/equal.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <string>

using namespace sweep_test;

namespace
{
namespace ci = sweep::detail::copy_if_impl;
using ci::schedule_choice;

template <class T, schedule_choice S>
void sizes_and_selectivity(const char* name)
{
  const std::size_t tile = sweep_test::copy_if_tile<T>();
  const auto sizes       = sweep_test::edge_sizes(tile);
  const auto data        = sweep_test::random_vector<T>(sizes.back() + 16, sweep_test::test_seed() + 70);
  const T* raw           = thrust::raw_pointer_cast(data.data());
  for (std::size_t n : sizes)
  {
    for (unsigned pct : {0u, 50u, 100u})
    {
      check_schedule<T, S>(raw, n, keep_percent<T>{pct}, label(name, n, pct));
    }
  }
  // Misaligned starts: the vector path's partial first and last chunks, and unaligned output bodies.
  for (std::size_t in_offset : {1u, 7u})
  {
    for (std::size_t n : {std::size_t(17), 3 * tile - 9, 7 * tile + 5})
    {
      check_schedule<T, S>(raw + in_offset, n, keep_percent<T>{50},
                           label(name, n, 50) + " in+" + std::to_string(in_offset) + " out+5", 5);
    }
  }
}

//! More tiles than the resident grid holds: blocks loop, and (pipelined) hold a staged tile while
//! they load the next.
template <class T, schedule_choice S>
void many_tiles(const char* name, std::size_t tiles_per_sm)
{
  const std::size_t sms = static_cast<std::size_t>(sweep::detail::current_device_info().sm_count);
  const std::size_t n   = tiles_per_sm * sweep_test::copy_if_tile<T>() * sms + 3;
  const auto data       = sweep_test::random_vector<T>(n + 1, sweep_test::test_seed() + 71);
  const T* raw          = thrust::raw_pointer_cast(data.data());
  for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
  {
    check_schedule<T, S>(raw + 1, n, keep_percent<T>{pct}, label(name, n, pct) + " many tiles", 3);
  }
}

struct times_two
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t x) const
  {
    return x * 2u;
  }
};

template <schedule_choice S>
void other_paths()
{
  const std::size_t tile = sweep_test::copy_if_tile<s12>();
  const auto structs     = sweep_test::random_vector<s12>(37 * tile + 11, sweep_test::test_seed() + 72);
  for (std::size_t n : {std::size_t(1), tile, tile + 1, 37 * tile + 11})
  {
    // device_vector iterators unwrap to pointers; a 12-byte struct loads item by item.
    check_schedule<s12, S>(structs.begin(), n, keep_percent<s12>{50}, label("s12", n, 50));
  }
  const auto data = sweep_test::random_vector<std::uint32_t>(300 * sweep_test::copy_if_tile<std::uint32_t>() + 5,
                                                            sweep_test::test_seed() + 73);
  // A fancy iterator: the item-by-item load path.
  auto doubled = thrust::make_transform_iterator(data.begin(), times_two{});
  check_schedule<std::uint32_t, S>(doubled, data.size(), keep_percent<std::uint32_t>{50}, label("transform", data.size(), 50));

  // Stencil form: items of one type chosen by a stencil of another.
  const auto stencil = sweep_test::random_vector<std::uint8_t>(data.size(), sweep_test::test_seed() + 74);
  thrust::device_vector<std::uint32_t> expected(data.size() + 4), actual(data.size() + 4);
  sweep_test::poison(expected);
  sweep_test::poison(actual);
  const auto e_end = thrust::copy_if(thrust::device, data.begin(), data.end(), stencil.begin(), expected.begin(),
                                     keep_percent<std::uint8_t>{30});
  auto policy      = sweep::par;
  const std::uint64_t count =
    ci::dispatch<std::uint32_t, false, S>(policy, thrust::raw_pointer_cast(data.data()), data.size(),
                                          thrust::raw_pointer_cast(stencil.data()),
                                          thrust::raw_pointer_cast(actual.data()), keep_percent<std::uint8_t>{30});
  const std::size_t e_count = static_cast<std::size_t>(e_end - expected.begin());
  INFO("stencil, schedule " << schedule_name(S));
  REQUIRE(count == e_count);
  sweep_test::require_bitwise_equal(expected, actual, e_count, "stencil");
  sweep_test::require_poison_intact(actual, e_count, "stencil");

  // Discard output: the count only.
  const std::uint64_t kept =
    ci::dispatch<std::uint32_t, true, S>(policy, thrust::raw_pointer_cast(data.data()), data.size(), ci::no_stencil{},
                                         thrust::discard_iterator<>{}, keep_percent<std::uint32_t>{50});
  CHECK(kept == static_cast<std::uint64_t>(thrust::count_if(thrust::device, data.begin(), data.end(),
                                                            keep_percent<std::uint32_t>{50})));

  // Discard output chosen by a stencil: the items are never read (the specialised schedule copies no
  // tile), only the stencil's count matters; the input one item past a 16-byte boundary.
  const std::uint64_t kept_by_stencil = ci::dispatch<std::uint32_t, true, S>(
    policy, thrust::raw_pointer_cast(data.data()) + 1, data.size() - 1, thrust::raw_pointer_cast(stencil.data()) + 1,
    thrust::discard_iterator<>{}, keep_percent<std::uint8_t>{30});
  CHECK(kept_by_stencil == static_cast<std::uint64_t>(thrust::count_if(thrust::device, stencil.begin() + 1, stencil.end(),
                                                                       keep_percent<std::uint8_t>{30})));
}

//! Index i is kept unless i % 4 == 3.
struct keep_three_of_four
{
  __host__ __device__ bool operator()(std::uint64_t i) const
  {
    return i % 4 != 3;
  }
};

//! A low word w is kept unless w % 4 == 3 (the items are the low words of their indices, so the same
//! items are kept as by keep_three_of_four on the indices, the low words' wrap at 2^32 included).
struct not_three_mod_four
{
  __host__ __device__ bool operator()(std::uint32_t w) const
  {
    return w % 4 != 3;
  }
};

struct low_word
{
  __host__ __device__ std::uint32_t operator()(std::uint64_t i) const
  {
    return static_cast<std::uint32_t>(i);
  }
};

//! The k-th kept index.
struct kept_index
{
  __host__ __device__ std::uint64_t operator()(std::uint64_t k) const
  {
    return (k / 3) * 4 + k % 3;
  }
};

template <schedule_choice S>
void past_2_31()
{
  // 2^31 + 5 items of 4 bytes in, about 6.4 GB out: offsets and the count need 64 bits.
  const std::uint64_t n        = (std::uint64_t(1) << 31) + 5;
  const std::uint64_t selected = n - n / 4;
  if (!sweep_test::device_has_memory(4 * selected + 64))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  thrust::counting_iterator<std::uint64_t> index(0);
  auto low_words = thrust::make_transform_iterator(index, low_word{});
  thrust::device_vector<std::uint32_t> out(selected + 16);
  sweep_test::poison(out);
  auto policy = sweep::par;
  const std::uint64_t count = ci::dispatch<std::uint32_t, false, S>(policy, low_words, n, index,
                                                                    thrust::raw_pointer_cast(out.data()), keep_three_of_four{});
  INFO("schedule " << schedule_name(S));
  REQUIRE(count == selected);
  auto expected = thrust::make_transform_iterator(thrust::make_transform_iterator(index, kept_index{}), low_word{});
  CHECK(thrust::equal(thrust::device, out.begin(), out.begin() + selected, expected));
  sweep_test::require_poison_intact(out, selected, "past 2^31");

  // The same items from memory, one item past a 16-byte boundary: the vector load path (the bulk
  // schedule's copies), tile bases and offsets past 2^31 items.
  if (!sweep_test::device_has_memory(4 * (n + 8) + 4 * selected + 64))
  {
    WARN("vector path skipped: not enough device memory");
    return;
  }
  thrust::device_vector<std::uint32_t> items(n + 1);
  thrust::copy(thrust::device, low_words, low_words + n, items.begin() + 1);
  sweep_test::poison(out);
  const std::uint64_t vector_count = ci::dispatch<std::uint32_t, false, S>(
    policy, thrust::raw_pointer_cast(items.data()) + 1, n, ci::no_stencil{}, thrust::raw_pointer_cast(out.data()),
    not_three_mod_four{});
  INFO("vector path");
  REQUIRE(vector_count == selected);
  CHECK(thrust::equal(thrust::device, out.begin(), out.begin() + selected, expected));
  sweep_test::require_poison_intact(out, selected, "past 2^31, vector path");
}

} // namespace

namespace
{
//! A block of a launch with fewer tiles than blocks takes one tile and looks for a next one; with a
//! lone tile it takes none. Every tile shape: lone, first and last partial, full.
template <schedule_choice S>
void few_tiles()
{
  const std::size_t tile = sweep_test::copy_if_tile<std::uint8_t>();
  const auto bytes       = sweep_test::random_vector<std::uint8_t>(5 * tile + 64, sweep_test::test_seed() + 75);
  for (std::size_t n : {std::size_t(1), tile - 1, tile + 1, 5 * tile + 33})
  {
    check_schedule<std::uint8_t, S>(thrust::raw_pointer_cast(bytes.data()) + 3, n, keep_percent<std::uint8_t>{50},
                                    label("uint8", n, 50) + " in+3 out+1", 1);
  }
  const std::size_t ftile = sweep_test::copy_if_tile<float>();
  const auto floats       = sweep_test::random_vector<float>(4 * ftile + 8, sweep_test::test_seed() + 76);
  check_schedule<float, S>(thrust::raw_pointer_cast(floats.data()), 4 * ftile + 7, keep_percent<float>{95},
                           label("float", 4 * ftile + 7, 95));
  const auto structs = sweep_test::random_vector<s12>(3 * sweep_test::copy_if_tile<s12>() + 1, sweep_test::test_seed() + 77);
  check_schedule<s12, S>(structs.begin(), structs.size(), keep_percent<s12>{50}, label("s12", structs.size(), 50));
}

template <schedule_choice S>
void vector_paths()
{
  sizes_and_selectivity<std::uint8_t, S>("uint8");
  sizes_and_selectivity<std::uint16_t, S>("uint16");
  sizes_and_selectivity<float, S>("float");
  sizes_and_selectivity<std::uint64_t, S>("uint64");
  sizes_and_selectivity<s16, S>("s16");
}

template <schedule_choice S>
void more_tiles_than_blocks()
{
  many_tiles<float, S>("float", 40);
  many_tiles<std::uint8_t, S>("uint8", 12);
  many_tiles<std::uint16_t, S>("uint16", 12);
  many_tiles<std::uint64_t, S>("uint64", 20);
}
} // namespace
