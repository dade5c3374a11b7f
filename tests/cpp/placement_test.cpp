// Placement of neurons on virtual processes (rank, thread).
#include <gtest/gtest.h>

#include <map>

#include "kernel/placement.hpp"

namespace ranvier {
namespace {

TEST(Placement, RoundRobinOverAllVirtualProcesses) {  // NEST's: vp = gid mod (M T), rank = vp mod M
  const Placement p(PlacementPolicy::round_robin, 3, 2, 1);
  const RangeLayout r{1, 12};
  for (uint32_t gid = 1; gid <= 12; ++gid) {
    const VirtualProcess v = p.of(gid, r);
    EXPECT_EQ(v.rank, int(gid % 6 % 3));
    EXPECT_EQ(v.thread, int(gid % 6 / 3));
  }
}

TEST(Placement, ConsecutiveBlocksPerRank) {
  const Placement p(PlacementPolicy::consecutive, 4, 1, 1);
  const RangeLayout r{11, 8};
  std::vector<int> ranks;
  for (uint32_t gid = 11; gid < 19; ++gid) ranks.push_back(p.of(gid, r).rank);
  EXPECT_EQ(ranks, (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3}));
}

TEST(Placement, RandomGivesEqualCountsAndDependsOnTheSeed) {
  const Placement p(PlacementPolicy::random, 4, 2, 7), q(PlacementPolicy::random, 4, 2, 8);
  RangeLayout r{1, 800};
  r.shuffle = p.shuffle_for(1, 800);
  std::map<std::pair<int, int>, int> count;
  for (uint32_t gid = 1; gid <= 800; ++gid) ++count[{p.of(gid, r).rank, p.of(gid, r).thread}];
  ASSERT_EQ(count.size(), 8u);
  for (const auto& [vp, n] : count) EXPECT_EQ(n, 100);
  EXPECT_NE(r.shuffle, q.shuffle_for(1, 800));
}

TEST(Placement, LocalGidsAreExactlyTheOnesPlacedThere) {
  for (PlacementPolicy policy : {PlacementPolicy::round_robin, PlacementPolicy::consecutive, PlacementPolicy::random}) {
    const Placement p(policy, 3, 2, 5);
    RangeLayout r{4, 50};
    r.shuffle = p.shuffle_for(4, 50);
    size_t total = 0;
    for (int rank = 0; rank < 3; ++rank)
      for (int thread = 0; thread < 2; ++thread)
        for (uint32_t gid : p.local_gids(r, rank, thread)) {
          const VirtualProcess v = p.of(gid, r);
          EXPECT_EQ(v.rank, rank);
          EXPECT_EQ(v.thread, thread);
          ++total;
        }
    EXPECT_EQ(total, 50u);
  }
}

}  // namespace
}  // namespace ranvier
