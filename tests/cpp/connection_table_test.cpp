// ConnectionTable::finalize: staged connections become per-source runs, in staging order
// within a source, with weights and delays kept once per source where a run shares them;
// runs whose delays differ are ordered by delay and target, multapses kept together.
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

TEST(ConnectionTable, SharedWeightsAndDelaysAreKeptOncePerSourceOrTable) {
  ConnectionTable shared(false, 0), per_source(false, 0), mixed(false, 0);
  for (uint32_t k = 0; k < 100; ++k) {
    shared.staging().push({k % 10, k, 3, 0, 1.25});
    per_source.staging().push({k % 10, k, 3 + k % 10 % 3, 0, 1.0 + k % 10});
    mixed.staging().push({k % 10, k, 3 + k % 2, 0, 1.0 + k});
  }
  shared.finalize();
  per_source.finalize();
  mixed.finalize();
  EXPECT_EQ(shared.weights().values().size(), 1u);
  EXPECT_EQ(shared.delays().stored(), 1u);
  EXPECT_EQ(per_source.weights().values().size(), 10u);
  EXPECT_EQ(per_source.delays().stored(), 10u);
  EXPECT_EQ(mixed.weights().values().size(), 100u);
  EXPECT_LT(shared.bytes(), per_source.bytes());
  EXPECT_LT(per_source.bytes(), mixed.bytes());
  for (size_t s = 0; s < 10; ++s)
    for (size_t c = per_source.range_at(s).begin; c < per_source.range_at(s).end; ++c) {
      EXPECT_EQ(per_source.weights().at(s, c), 1.0 + double(s));
      EXPECT_EQ(per_source.delays().at(s, c), 3 + s % 3);
      EXPECT_EQ(shared.weights().at(s, c), 1.25);
    }
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

// Per-source values of few kinds (excitatory and inhibitory sources) are kept as one-byte
// codes, up to 256 kinds; a source removed by Disconnect takes its code with it.
TEST(ConnectionTable, FewKindsOfPerSourceValuesAreCoded) {
  for (const uint32_t kinds : {2u, 256u, 257u}) {
    ConnectionTable t(false, 0);
    for (uint32_t k = 0; k < 3000; ++k) {
      const uint32_t source = k % 1000;
      t.staging().push({source, k, 300 + source % kinds, 0, -0.5 * double(source % kinds)});
    }
    t.finalize();
    EXPECT_EQ(t.weights().values().size(), kinds <= 256 ? kinds : 1000u);
    EXPECT_EQ(t.delays().stored(), kinds <= 256 ? kinds : 1000u);  // two bytes each: coded too
    EXPECT_EQ(t.weights().bytes() < 1000 * sizeof(double), kinds <= 256);
    t.erase({0, 1, 2});  // source 0's three connections: its run and code go
    ASSERT_EQ(t.sources().front(), 1u);
    for (size_t s = 0; s < t.sources().size(); ++s)
      for (size_t c = t.range_at(s).begin; c < t.range_at(s).end; ++c) {
        const uint32_t source = t.targets()[c] % 1000;
        ASSERT_EQ(t.sources()[s], source);
        EXPECT_EQ(t.weights().at(s, c), -0.5 * double(source % kinds));
        EXPECT_EQ(t.delays().at(s, c), 300 + source % kinds);
      }
  }
}

// Run offsets keep each run's distance from its group's base (64 runs) in the fewest bytes
// that hold them all once complete: 1 where runs are short (one rank of many), more for long
// ones; the same offsets either way.
TEST(RunOffsets, DistancesTakeTheFewestBytesThatHoldThem) {
  // runs of `run` to `run` + 2 connections: a group of 64 spans 63 * run + 63 from its first
  for (const auto [run, width] : {std::pair<size_t, size_t>{1, 1}, {3, 1}, {300, 2}, {70000, 4}}) {
    RunOffsets o;
    std::vector<size_t> expected;
    for (size_t k = 0, at = 0; k < 1000; ++k, at += run + k % 3) expected.push_back(at), o.push_back(at);
    o.finish();
    EXPECT_EQ(o.bytes(), 1000 * width + 16 * sizeof(size_t)) << run;
    ASSERT_EQ(o.size(), expected.size());
    for (size_t k = 0; k < expected.size(); ++k) ASSERT_EQ(o[k], expected[k]) << run << " " << k;
    EXPECT_EQ(o.back(), expected.back());
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

// Each run in (delay of its pair's first connection, target) order, and every connection's
// own values beside it.
void expect_ordered_by_delay(const ConnectionTable& t) {
  for (size_t s = 0; s < t.sources().size(); ++s) {
    const SourceRange r = t.range_at(s);
    for (size_t c = r.begin + 1; c < r.end; ++c) {
      const uint32_t t0 = t.targets()[c - 1], t1 = t.targets()[c];
      if (t0 == t1) continue;  // a multapse follows its pair's first connection
      size_t first0 = c - 1;
      while (first0 > r.begin && t.targets()[first0 - 1] == t0) --first0;
      const uint16_t d0 = t.delays().at(s, first0), d1 = t.delays().at(s, c);
      EXPECT_TRUE(d0 < d1 || (d0 == d1 && t0 < t1)) << "source " << t.sources()[s] << " at " << c;
    }
  }
}

TEST(ConnectionTable, RunsWithDelaysPerConnectionAreOrderedByDelayThenTarget) {
  // few connections over a wide range of delays, and many over a narrow one
  for (const uint32_t delays : {5000u, 7u}) {
    ConnectionTable t(false, 1);
    const uint32_t even = t.add_initial_record({0.25}), odd = t.add_initial_record({0.75});
    for (uint32_t k = 0; k < 3000; ++k) {
      const uint32_t target = (k * 7919u) % 500u, delay = 1 + (k * 104729u) % delays;
      t.staging().push({k % 3, target, delay, delay % 2 ? odd : even, double(target) + 1e-4 * delay});
    }
    t.finalize();
    expect_ordered_by_delay(t);
    for (size_t s = 0; s < 3; ++s)
      for (size_t c = t.range_at(s).begin; c < t.range_at(s).end; ++c) {
        const uint16_t d = t.delays().at(s, c);
        EXPECT_EQ(t.weights().at(s, c), double(t.targets()[c]) + 1e-4 * d);
        EXPECT_EQ(t.records().at(s, c)[0], d % 2 ? 0.75 : 0.25);
      }
  }
}

TEST(ConnectionTable, MultapsesStayInCreationOrderAtTheirFirstDelay) {
  ConnectionTable t(false, 0);
  // source 1 to target 9 three times (delays 5, 2, 8), around other targets
  t.staging().push({1, 4, 6, 0, 0.1});
  t.staging().push({1, 9, 5, 0, 1.0});
  t.staging().push({1, 3, 2, 0, 0.2});
  t.staging().push({1, 9, 2, 0, 2.0});
  t.staging().push({1, 7, 5, 0, 0.3});
  t.finalize();
  t.staging().push({1, 9, 8, 0, 3.0});  // a later Connect call
  t.staging().push({1, 2, 1, 0, 0.4});
  t.finalize();
  expect_ordered_by_delay(t);
  EXPECT_EQ(run_targets(t, 0), (std::vector<uint32_t>{2, 3, 7, 9, 9, 9, 4}));
  const SourceRange r = t.range_at(0);
  std::vector<double> w;
  for (size_t c = r.begin; c < r.end; ++c) w.push_back(t.weights().at(0, c));
  EXPECT_EQ(w, (std::vector<double>{0.4, 0.2, 0.3, 1.0, 2.0, 3.0, 0.1}));
}

TEST(ConnectionTable, RunsSharingTheirDelayKeepStagingOrder) {
  ConnectionTable t(false, 0);
  for (uint32_t k = 0; k < 20; ++k) t.staging().push({k % 2, 19 - k, 3 + k % 2, 0, 0.5});  // a delay per source
  t.finalize();
  EXPECT_EQ(t.delays().stored(), 2u);
  EXPECT_EQ(run_targets(t, 0), (std::vector<uint32_t>{19, 17, 15, 13, 11, 9, 7, 5, 3, 1}));
}

// A table with fewer connections than sources in its gid range (one rank of many) stages a
// plain list; it becomes blocks once dense. Both sort to runs in staging order.
TEST(ConnectionStaging, SparseTablesStayAListDenseOnesBecomeBlocks) {
  ConnectionTable sparse(false, 0), dense(false, 0);
  std::vector<std::vector<uint32_t>> expected(1000);
  for (uint32_t k = 0; k < 3000; ++k) {
    const uint32_t source = (k * 7u % 1000u) * 9973u;                  // 1,000 sources over 10^7 gids
    sparse.staging().push({source, k, 1 + source % 5, 0, double(k)});  // a delay per source
    expected[source / 9973u].push_back(k);
    dense.staging().push({k % 100, k, 1, 0, 0.5});
  }
  EXPECT_FALSE(sparse.staging().blocked());
  EXPECT_TRUE(dense.staging().blocked());
  sparse.finalize();
  dense.finalize();
  ASSERT_EQ(sparse.sources().size(), 1000u);
  for (size_t s = 0; s < 1000; ++s) {
    EXPECT_EQ(sparse.sources()[s], s * 9973u);
    EXPECT_EQ(run_targets(sparse, s), expected[s]);
    for (size_t c = sparse.range_at(s).begin; c < sparse.range_at(s).end; ++c) {
      EXPECT_EQ(sparse.weights().at(s, c), double(sparse.targets()[c]));
      EXPECT_EQ(sparse.delays().at(s, c), 1 + sparse.sources()[s] % 5);
    }
  }
  EXPECT_EQ(run_targets(dense, 7).size(), 30u);
  EXPECT_EQ(run_targets(dense, 7)[1], 107u);
}

// A sparse list undoes a failed call across its chunks (the list's first chunk holds 1,024),
// and keeps each column's values, constant or not, exactly.
TEST(ConnectionStaging, SparseListUndoesAcrossChunks) {
  ConnectionTable t(false, 0);
  ConnectionStaging& s = t.staging();
  const auto source = [](uint32_t k) { return (k * 7919u % 5000u) * 1009u; };  // 5,000 sources over 5e6 gids
  s.begin_call();
  for (uint32_t k = 0; k < 1500; ++k) s.push({source(k), k, 3, 0, 0.5});
  s.begin_call();
  for (uint32_t k = 1500; k < 3500; ++k) s.push({source(k), k, 1 + k % 7, 0, double(k)});
  s.undo_call();
  s.begin_call();
  for (uint32_t k = 1500; k < 1600; ++k) s.push({source(k), k, 9, 0, -double(k)});
  EXPECT_FALSE(s.blocked());
  EXPECT_EQ(s.size(), 1600u);
  t.finalize();
  ASSERT_EQ(t.size(), 1600u);
  for (size_t r = 0; r < t.sources().size(); ++r)
    for (size_t c = t.range_at(r).begin; c < t.range_at(r).end; ++c) {
      const uint32_t k = t.targets()[c];
      EXPECT_EQ(t.sources()[r], source(k));
      EXPECT_EQ(t.weights().at(r, c), k < 1500 ? 0.5 : -double(k));
      EXPECT_EQ(t.delays().at(r, c), k < 1500 ? 3 : 9);
    }
}

// Delays in one byte where all of a table's fit (below 256 steps), in two otherwise; the
// same values either way, also after Disconnect.
TEST(ConnectionTable, DelaysTakeOneByteWhereTheyFit) {
  for (const uint32_t longest : {255u, 256u}) {
    ConnectionTable t(false, 0);
    for (uint32_t k = 0; k < 1000; ++k) t.staging().push({k % 4, k, k == 999 ? longest : 1 + k % 200, 0, 0.5});
    t.finalize();
    EXPECT_EQ(t.delays().narrow(), longest == 255u);
    EXPECT_EQ(t.delays().bytes(), 1000 * (longest == 255u ? 1u : 2u));
    EXPECT_EQ(t.max_delay(), longest);
    EXPECT_EQ(t.min_delay(), 1);
    t.erase({0, 1, 2});
    for (size_t s = 0; s < 4; ++s)
      for (size_t c = t.range_at(s).begin; c < t.range_at(s).end; ++c) {
        const uint32_t k = t.targets()[c];
        EXPECT_EQ(t.delays().at(s, c), k == 999 ? longest : 1 + k % 200);
      }
  }
}

}  // namespace
}  // namespace ranvier
