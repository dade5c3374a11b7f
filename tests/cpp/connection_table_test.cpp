// ConnectionTable::finalize: staged connections become per-source runs, in staging order
// within a source, with weights and delays kept once per source where a run shares them.
#include <gtest/gtest.h>

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

TEST(ConnectionStaging, TruncateUndoesAFailedCall) {
  ConnectionStaging s;
  for (uint32_t k = 0; k < ConnectionStaging::chunk_size + 10; ++k) s.push({k + 1, k, 1, 0, 0.0});
  s.truncate(5);
  EXPECT_EQ(s.size(), 5u);
  EXPECT_EQ(s.chunk_count(), 1u);
  EXPECT_EQ(s.min_source(), 1u);
  EXPECT_EQ(s.max_source(), 5u);
}

}  // namespace
}  // namespace ranvier
