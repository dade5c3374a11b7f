// Exchange methods that run on one process: local, and the dry run's synthetic ranks; the
// compact spike entry of multisend and rma.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "exchange/spike_entry.hpp"
#include "exchange/spike_exchange.hpp"

namespace ranvier {
namespace {

TEST(SpikeEntry, RoundTripsASpikeWithinItsCycle) {
  const int64_t origin = 1000;
  for (const LagCode code : {LagCode{1}, LagCode{26}})  // on the grid; off it, 25 units per step
    for (int64_t stamp = origin + 1; stamp <= origin + 15; ++stamp)
      for (uint32_t offset = 0; offset < code.offsets; offset += 5) {
        const Spike s{123456, offset, stamp};
        const Spike back = to_spike(to_entry(s, origin, code), origin, code);
        EXPECT_EQ(back.gid, s.gid);
        EXPECT_EQ(back.stamp, s.stamp);
        EXPECT_EQ(back.offset, s.offset);
      }
}

TEST(Exchange, LocalReturnsTheSpikesAndCountsThem) {
  auto comm = single_process_communicator();
  ExchangeSetup setup;
  setup.comm = comm.get();
  auto method = make_exchange("local");
  method->prepare(setup);
  const std::vector<Spike> local = {{3, 0, 11}, {5, 0, 12}};
  std::vector<Spike> received;
  method->exchange(local, 10, received);
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[1].gid, 5u);
  EXPECT_EQ(method->counters().sent, 2u);
  EXPECT_EQ(method->counters().received, 2u);
}

TEST(Exchange, DryRunCopiesSpikesToThePretendedRanksWhereTheyHaveTargets) {
  auto comm = single_process_communicator();
  ExchangeSetup setup;
  setup.comm = comm.get();
  setup.dry_run_ranks = 4;
  setup.max_gid = 12;
  // two tables' sources: 9 and 10 in both, 12 in one, 3 and 5 (before and at a local gid)
  const std::vector<uint32_t> one{3, 5, 9, 10}, two{9, 10, 12};
  setup.table_sources = {&one, &two};
  auto method = make_exchange("dry_run");
  method->prepare(setup);
  std::vector<Spike> received;
  method->exchange({{4, 0, 1}, {8, 0, 2}}, 0, received);
  // the local spikes, and gid + r (r = 1..3) where a table has that source: 5 for 4; 9, 10 for 8
  std::vector<std::pair<uint32_t, int64_t>> got;
  for (const Spike& s : received) got.emplace_back(s.gid, s.stamp);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::pair<uint32_t, int64_t>>{{4, 1}, {5, 1}, {8, 2}, {9, 2}, {10, 2}}));
}

TEST(Exchange, UnknownMethodNamesTheParameter) {
  try {
    make_exchange("telepathy");
    FAIL();
  } catch (const BadParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("spike_exchange = telepathy"), std::string::npos);
  }
}

}  // namespace
}  // namespace ranvier
