// ConnectionTable::finalize: staged connections become per-source runs, in staging order
// within a source, with weights and delays kept once per source where a run shares them.
#include <gtest/gtest.h>

#include <cmath>

#include "synapses/connection_table.hpp"

namespace ranvier {
namespace {

std::vector<uint32_t> run_targets(const ConnectionTable& t, size_t source_index) {
  const SourceRange r = t.range_at(source_index);
  return {t.targets() + r.begin, t.targets() + r.end};
}

TEST(ConnectionTable, SortsBySourceKeepingStagingOrder) {
  ConnectionTable t(false, 0);
  t.staging().push({30, 1, 2, 0, 0.5});
  t.staging().push({10, 4, 2, 0, 0.5});
  t.staging().push({30, 0, 2, 0, 0.5});
  t.staging().push({20, 7, 2, 0, 0.5});
  t.staging().push({10, 2, 2, 0, 0.5});
  t.finalize();
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t.staging().size(), 0u);
  EXPECT_EQ(t.sources(), (std::vector<uint32_t>{10, 20, 30}));
  EXPECT_EQ(run_targets(t, 0), (std::vector<uint32_t>{4, 2}));
  EXPECT_EQ(run_targets(t, 1), (std::vector<uint32_t>{7}));
  EXPECT_EQ(run_targets(t, 2), (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(t.seek(15, 0), 1u);
  EXPECT_EQ(t.seek(31, 0), 3u);
}

TEST(ConnectionTable, SharedWeightsAndDelaysAreKeptOncePerSource) {
  ConnectionTable shared(false, 0), mixed(false, 0);
  for (uint32_t k = 0; k < 100; ++k) {
    shared.staging().push({k % 10, k, 3, 0, 1.25});
    mixed.staging().push({k % 10, k, 3 + k % 2, 0, 1.0 + k});
  }
  shared.finalize();
  mixed.finalize();
  EXPECT_EQ(shared.weights().values().size(), 10u);
  EXPECT_EQ(shared.delays().values().size(), 10u);
  EXPECT_EQ(mixed.weights().values().size(), 100u);
  EXPECT_LT(shared.bytes(), mixed.bytes());
  EXPECT_EQ(shared.min_delay(), 3);
  EXPECT_EQ(mixed.max_delay(), 4);
  // connection k of source 3 (staged as 3, 13, 23, ...) keeps its own weight and delay
  const SourceRange r = mixed.range_at(3);
  for (size_t c = r.begin; c < r.end; ++c) {
    const uint32_t staged = mixed.targets()[c];
    EXPECT_EQ(mixed.weights().at(3, c), 1.0 + staged);
    EXPECT_EQ(mixed.delays().at(3, c), 3 + staged % 2);
  }
}

TEST(ConnectionTable, LaterConnectionsFollowTheExistingOnesOfTheirSource) {
  ConnectionTable t(false, 0);
  t.staging().push({5, 1, 1, 0, 1.0});
  t.staging().push({8, 2, 1, 0, 1.0});
  t.finalize();
  t.staging().push({5, 3, 1, 0, 1.0});
  t.staging().push({6, 4, 1, 0, 1.0});
  t.finalize();
  EXPECT_EQ(t.sources(), (std::vector<uint32_t>{5, 6, 8}));
  EXPECT_EQ(run_targets(t, 0), (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(run_targets(t, 1), (std::vector<uint32_t>{4}));
}

TEST(ConnectionStaging, UndoCallRemovesOnlyTheFailedCall) {
  ConnectionTable t(false, 0);
  ConnectionStaging& s = t.staging();
  s.begin_call();
  for (uint32_t k = 0; k < 10; ++k) s.push({k * 100, k, 1, 0, 0.5});
  s.begin_call();  // spans several chunks of one block and blocks the first call never reached
  for (uint32_t k = 0; k < StagingChunk::max_capacity + 10; ++k) s.push({k % 3 + 300, k, 2, 0, 1.5});
  for (uint32_t k = 0; k < 10; ++k) s.push({5000 + k, k, 2, 0, 1.5});
  s.undo_call();
  EXPECT_EQ(s.size(), 10u);
  s.push({200, 77, 3, 0, 0.5});
  t.finalize();
  EXPECT_EQ(t.size(), 11u);
  EXPECT_EQ(t.sources(), (std::vector<uint32_t>{0, 100, 200, 300, 400, 500, 600, 700, 800, 900}));
  EXPECT_EQ(run_targets(t, 2), (std::vector<uint32_t>{2, 77}));
  EXPECT_EQ(t.max_delay(), 3);
}

// Chunks keep a column as one value until another comes: a change late in a chunk, and
// values equal as numbers but not as bits, must still come out exactly.
TEST(ConnectionStaging, ColumnsKeepEveryValueExactly) {
  ConnectionTable t(false, 0);
  const size_t n = StagingChunk::max_capacity + 100;
  for (size_t k = 0; k < n; ++k) {
    const double w = k == 1000 ? -0.0 : (k == n - 3 ? 0.1 + 0.2 : 0.0);
    t.staging().push({uint32_t(k % 2), uint32_t(k), k == n - 1 ? 7u : 1u, 0, w});
  }
  t.finalize();
  ASSERT_EQ(t.size(), n);
  ASSERT_EQ(t.weights().values().size(), n);  // source 1 holds 0.0 and 0.1 + 0.2
  for (uint32_t s = 0; s < 2; ++s)
    for (size_t c = t.range_at(s).begin; c < t.range_at(s).end; ++c) {
      const uint32_t k = t.targets()[c];
      EXPECT_EQ(k % 2, s);
      const double w = t.weights().at(s, c);
      EXPECT_EQ(std::signbit(w), k == 1000);
      EXPECT_EQ(w, k == n - 3 ? 0.1 + 0.2 : 0.0);
      EXPECT_EQ(t.delays().at(s, c), k == n - 1 ? 7 : 1);
    }
}

}  // namespace
}  // namespace ranvier
