// Which virtual process (rank, thread) owns a neuron. Round-robin over all M x T virtual
// processes as in NEST (seed 000), or, as in seed 003 (Table 3), consecutive blocks of each
// Create call per rank, or a random shuffle with equal counts per rank.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ranvier {

enum class PlacementPolicy { round_robin, consecutive, random };

PlacementPolicy placement_from_name(const std::string& name);

struct VirtualProcess {
  int rank;
  int thread;
};

class Placement {
 public:
  Placement(PlacementPolicy policy, int ranks, int threads, uint32_t seed)
      : policy_(policy), ranks_(ranks), threads_(threads), seed_(seed) {}

  PlacementPolicy policy() const { return policy_; }
  int ranks() const { return ranks_; }
  // Per Create call: the random placement's shuffle of positions (empty otherwise).
  std::vector<uint32_t> shuffle_for(uint32_t first_gid, uint32_t count) const;
  VirtualProcess of(uint32_t gid, uint32_t first_gid, uint32_t count,
                    const std::vector<uint32_t>& shuffle) const {
    switch (policy_) {
      case PlacementPolicy::consecutive: {
        const uint64_t q = gid - first_gid;
        return {int(q * uint64_t(ranks_) / count), int(q % uint64_t(threads_))};
      }
      case PlacementPolicy::random: {
        const uint32_t q = shuffle[gid - first_gid];
        return {int(q % uint32_t(ranks_)), int((q / uint32_t(ranks_)) % uint32_t(threads_))};
      }
      default: {
        const uint32_t vp = gid % uint32_t(ranks_ * threads_);
        return {int(vp % uint32_t(ranks_)), int(vp / uint32_t(ranks_))};
      }
    }
  }
  // The gids of a Create call that live on (rank, thread), ascending.
  std::vector<uint32_t> local_gids(uint32_t first_gid, uint32_t count, const std::vector<uint32_t>& shuffle,
                                   int rank, int thread) const;

 private:
  PlacementPolicy policy_;
  int ranks_, threads_;
  uint32_t seed_;
};

}  // namespace ranvier
