// Philox4x32-10 against the known-answer vectors of its authors (Salmon et al. 2011,
// Random123), and the streams built on it.
#include <gtest/gtest.h>

#include <cmath>

#include "core/rng.hpp"

namespace ranvier {
namespace {

void expect_block(const Block& b, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3) {
  EXPECT_EQ(b.w[0], w0);
  EXPECT_EQ(b.w[1], w1);
  EXPECT_EQ(b.w[2], w2);
  EXPECT_EQ(b.w[3], w3);
}

TEST(Philox, KnownAnswers) {
  expect_block(philox4x32_10(0, 0, 0, 0, 0, 0), 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8);
  expect_block(philox4x32_10(~0u, ~0u, ~0u, ~0u, ~0u, ~0u), 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd);
  expect_block(philox4x32_10(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0), 0xd16cfe09,
               0x94fdcceb, 0x5001e420, 0x24126ea1);
}

TEST(Philox, FourLanesEqualFourCalls) {  // whichever path (AVX2 or portable) this CPU takes
  const uint32_t c3[4] = {7, 8, 1u << 31, ~0u};
  Block lanes[4];
  philox4x32_10_lanes(1, 2, 3, c3, 4, 5, lanes);
  for (int l = 0; l < 4; ++l) {
    const Block one = philox4x32_10(1, 2, 3, c3[l], 4, 5);
    for (int w = 0; w < 4; ++w) EXPECT_EQ(lanes[l].w[w], one.w[w]) << "lane " << l;
  }
}

TEST(Philox, WordsOfARunEqualThoseOfSingleBlocks) {  // consecutive blocks, across a carry into c1
  for (uint64_t index : {uint64_t(0), uint64_t(0xfffffffd)}) {
    uint64_t words[run_words];
    philox4x32_10_words(index, 3, 9, 4, 5, words);
    for (uint64_t j = 0; j < run_words; ++j) {
      const uint64_t b = index + j / 2;
      EXPECT_EQ(words[j], word_of(philox4x32_10(uint32_t(b), uint32_t(b >> 32), 3, 9, 4, 5), j)) << "word " << j;
    }
  }
}

TEST(Stream, DependsOnlyOnItsKeyAndIndex) {
  const Stream a(1, Purpose::connect_weight, 10, 20), same(1, Purpose::connect_weight, 10, 20);
  const Stream other_purpose(1, Purpose::connect_delay, 10, 20);
  EXPECT_EQ(a.uniform(99), same.uniform(99));
  EXPECT_NE(a.uniform(99), a.uniform(100));
  EXPECT_NE(a.uniform(99), other_purpose.uniform(99));
}

TEST(Stream, UniformMomentsAndBelowRange) {
  const Stream s(42, Purpose::node_parameter, 0, 0);
  constexpr int n = 200000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    const double u = s.uniform(uint64_t(i));
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u, sum2 += u * u;
    ASSERT_LT(s.below(uint64_t(i), 7), 7u);
  }
  // mean 1/2, variance 1/12; 5 standard errors
  EXPECT_NEAR(sum / n, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(sum2 / n - (sum / n) * (sum / n), 1.0 / 12, 5 * std::sqrt(1.0 / 180 / n));
}

TEST(Stream, SequentialStreamReadsTheSameNumbers) {
  const Stream s(3, Purpose::connect_partner, 5, 6);
  SequentialStream seq(s);
  for (uint64_t i = 0; i < 100; ++i) EXPECT_EQ(seq.below(i, 1000), s.below(i, 1000));
}

TEST(PoissonTable, CountsMatchThePoissonDistribution) {
  const double mean = 1.7;
  const PoissonTable table(mean);
  const Stream s(9, Purpose::poisson_input, 1, 2);
  constexpr int n = 400000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    const double k = table(s.block(uint64_t(i)).w[0]);
    sum += k, sum2 += k * k;
  }
  EXPECT_NEAR(sum / n, mean, 5 * std::sqrt(mean / n));
  EXPECT_NEAR(sum2 / n - (sum / n) * (sum / n), mean, 0.02);
  EXPECT_EQ(table(0), 0u);            // the lowest word: no event
  EXPECT_GT(table(0xffffffffu), 5u);  // the highest: far in the tail
}

}  // namespace
}  // namespace ranvier
