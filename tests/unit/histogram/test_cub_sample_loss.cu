// Host-only: the GPU tests' rule for when cub::DeviceHistogram (CCCL 3.0.1) loses samples
// (tests/gpu/histogram/cub_sample_loss.hpp) checked against a model of CUB's two-stage counting
// built from CUB's own bin functors, over every value of the 8- and 16-bit sample types; and the
// widened samples the tests give CUB instead get sweep's bins. No GPU is touched.
#include <sweep/detail/histogram/bin_transforms.hpp>

#include "cub_bin_oracle.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "../../gpu/histogram/cub_sample_loss.hpp"

namespace
{

//! CUB 3.0.1's bin for one sample of HistogramEven as its kernels count it (agent_histogram.cuh):
//! a privatized bin, counted only if >= 0, then StoreOutput's
//! `output_decode_op.BinSelect((SampleT) privatized_bin, ...)`, counted only if >= 0. 8-bit
//! samples: privatized = PassThruTransform (`(int) sample`, 256 bins), output = ScaleTransform;
//! wider samples: privatized = ScaleTransform, output = PassThruTransform. -1: not counted.
template <class SampleT, class LevelT>
int cub_even_two_stage(int bins, LevelT lower, LevelT upper, SampleT sample)
{
  sweep_test::cub_scale_transform<SampleT, LevelT> scale;
  sweep_test::cub_pass_thru_transform<SampleT, LevelT> pass{};
  if (!sweep_test::cub_init_scale<SampleT, LevelT>(scale, bins, lower, upper))
  {
    FAIL("CUB refuses " << bins << " bins over [" << +lower << ", " << +upper << ")");
  }
  int privatized = -1;
  if constexpr (sizeof(SampleT) == 1)
  {
    pass.template BinSelect<cub::LOAD_DEFAULT>(sample, privatized, true);
  }
  else
  {
    scale.template BinSelect<cub::LOAD_DEFAULT>(sample, privatized, true);
  }
  if (privatized < 0)
  {
    return -1;
  }
  int output = -1;
  if constexpr (sizeof(SampleT) == 1)
  {
    scale.template BinSelect<cub::LOAD_DEFAULT>(static_cast<SampleT>(privatized), output, true);
  }
  else
  {
    pass.template BinSelect<cub::LOAD_DEFAULT>(static_cast<SampleT>(privatized), output, true);
  }
  return output >= 0 ? output : -1; // StoreOutput: `if (output_bin >= 0) atomicAdd(...)`
}

//! HistogramRange the same way: the search (an upper bound over the levels, sample converted to
//! LevelT) is the privatized stage for wider samples and the output stage for 8-bit samples.
template <class SampleT, class LevelT>
int cub_range_two_stage(const std::vector<LevelT>& levels, SampleT sample)
{
  sweep_test::cub_pass_thru_transform<SampleT, LevelT> pass{};
  const int bins = static_cast<int>(levels.size()) - 1;
  auto search    = [&](SampleT s) {
    const int bin = static_cast<int>(std::upper_bound(levels.begin(), levels.end(), static_cast<LevelT>(s)) - levels.begin()) - 1;
    return bin < bins ? bin : -1;
  };
  int privatized = -1;
  if constexpr (sizeof(SampleT) == 1)
  {
    pass.template BinSelect<cub::LOAD_DEFAULT>(sample, privatized, true);
  }
  else
  {
    privatized = search(sample);
  }
  if (privatized < 0)
  {
    return -1;
  }
  if constexpr (sizeof(SampleT) == 1)
  {
    return search(static_cast<SampleT>(privatized));
  }
  else
  {
    int output = -1;
    pass.template BinSelect<cub::LOAD_DEFAULT>(static_cast<SampleT>(privatized), output, true);
    return output >= 0 ? output : -1;
  }
}

//! Even bins over the whole value range of T (int levels [lowest, max + 1)), every value of T:
//! CUB's two-stage count loses a sample iff cub_loses_samples says so; on int-widened samples
//! it never does and gives sweep's bin for every value.
template <class T>
void check_even_every_value(int bins)
{
  const int lower = std::numeric_limits<T>::lowest();
  const int upper = std::numeric_limits<T>::max() + 1;
  const auto op   = sweep::detail::histogram_impl::even_transform<T, int>::make(bins, lower, upper);
  int lost        = 0;
  for (int v = lower; v < upper; ++v)
  {
    const T s       = static_cast<T>(v);
    const int exact = op(s);
    const int native  = cub_even_two_stage<T, int>(bins, lower, upper, s);
    const int widened = cub_even_two_stage<sweep_test::cub_widened_t, int>(bins, lower, upper, v);
    // Every value is inside [lower, upper); CUB drops a sample, it never moves it to another bin.
    if (exact < 0 || widened != exact || (native != exact && native != -1))
    {
      FAIL("sample " << v << ", bins " << bins << ": sweep " << exact << ", CUB " << native << ", CUB widened " << widened);
    }
    lost += native != exact;
  }
  INFO("sample bytes " << sizeof(T) << (std::is_signed<T>::value ? " signed" : " unsigned") << ", bins " << bins
                       << ", samples CUB's two stages lose: " << lost);
  CHECK((lost > 0) == sweep_test::cub_loses_samples<T>(bins));
}

//! Range bins: levels lowest, lowest + step, ... (the last at max + 1), every value of T.
template <class T>
void check_range_every_value(int bins)
{
  const long long lower = std::numeric_limits<T>::lowest();
  const long long span  = static_cast<long long>(std::numeric_limits<T>::max()) + 1 - lower;
  std::vector<int> levels;
  for (int i = 0; i <= bins; ++i)
  {
    levels.push_back(static_cast<int>(lower + span * i / bins));
  }
  const sweep::detail::histogram_impl::range_transform<T, int> op{levels.data(), static_cast<int>(levels.size())};
  int lost = 0;
  for (long long v = lower; v < lower + span; ++v)
  {
    const T s         = static_cast<T>(v);
    const int exact   = op(s);
    const int native  = cub_range_two_stage<T, int>(levels, s);
    const int widened = cub_range_two_stage<sweep_test::cub_widened_t, int>(levels, static_cast<int>(v));
    if (widened != exact || (native != exact && native != -1))
    {
      FAIL("sample " << v << ", bins " << bins << ": sweep " << exact << ", CUB " << native << ", CUB widened " << widened);
    }
    lost += native != exact;
  }
  INFO("sample bytes " << sizeof(T) << (std::is_signed<T>::value ? " signed" : " unsigned") << ", bins " << bins
                       << ", samples CUB's two stages lose: " << lost);
  CHECK((lost > 0) == sweep_test::cub_loses_samples<T>(bins));
}

} // namespace

TEST_CASE("CUB 3.0.1 loses negative int8 samples; widened to int it does not", "[histogram][cub_reference]")
{
  for (int bins : {1, 2, 7, 200, 255, 256, 257, 1024})
  {
    check_even_every_value<std::int8_t>(bins);
    check_even_every_value<std::uint8_t>(bins);
    check_range_every_value<std::int8_t>(bins);
    check_range_every_value<std::uint8_t>(bins);
  }
  // The H200 failure of commit 51c68cc (int8, [-100, 100), 1 bin, levels int): CUB keeps only the
  // samples in [0, 100).
  for (int v = -128; v < 128; ++v)
  {
    const int native = cub_even_two_stage<std::int8_t, int>(1, -100, 100, static_cast<std::int8_t>(v));
    CHECK(native == ((v >= 0 && v < 100) ? 0 : -1));
  }
}

TEST_CASE("CUB 3.0.1 loses int16 bins past 32767; widened to int it does not", "[histogram][cub_reference]")
{
  for (int bins : {1, 255, 4096, 32767, 32768, 32769, 58113, 65536})
  {
    check_even_every_value<std::int16_t>(bins);
    check_even_every_value<std::uint16_t>(bins);
  }
  for (int bins : {1000, 32768, 32769, 65536})
  {
    check_range_every_value<std::int16_t>(bins);
    check_range_every_value<std::uint16_t>(bins);
  }
  // The H200 failure of commit 51c68cc: int16 sample 4758, [-30000, 30000), 65536 bins (levels
  // int) is bin 37965, which CUB casts to int16 (-27571) and drops.
  const auto op = sweep::detail::histogram_impl::even_transform<std::int16_t, int>::make(65536, -30000, 30000);
  CHECK(op(std::int16_t(4758)) == 37965);
  CHECK(cub_even_two_stage<std::int16_t, int>(65536, -30000, 30000, std::int16_t(4758)) == -1);
  CHECK(cub_even_two_stage<int, int>(65536, -30000, 30000, 4758) == 37965);
}

TEST_CASE("the tests' CUB widening rule", "[histogram][cub_reference]")
{
  CHECK(sweep_test::cub_loses_samples<std::int8_t>(1));
  CHECK_FALSE(sweep_test::cub_loses_samples<std::uint8_t>(65536));
  CHECK_FALSE(sweep_test::cub_loses_samples<std::int16_t>(32768));
  CHECK(sweep_test::cub_loses_samples<std::int16_t>(32769));
  CHECK_FALSE(sweep_test::cub_loses_samples<std::uint16_t>(65536));
  CHECK(sweep_test::cub_loses_samples<std::uint16_t>(65537));
  CHECK_FALSE(sweep_test::cub_loses_samples<int>(std::numeric_limits<int>::max()));
  CHECK_FALSE(sweep_test::cub_loses_samples<float>(65536));
  CHECK(sweep_test::cub_may_lose_samples_v<std::int8_t>);
  CHECK(sweep_test::cub_may_lose_samples_v<std::int16_t>);
  CHECK(sweep_test::cub_may_lose_samples_v<std::uint16_t>);
  CHECK_FALSE(sweep_test::cub_may_lose_samples_v<std::uint8_t>);
  CHECK_FALSE(sweep_test::cub_may_lose_samples_v<int>);
}
