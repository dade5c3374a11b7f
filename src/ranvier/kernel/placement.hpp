// Which virtual process (rank, thread) owns a neuron. Round-robin over all M x T virtual
// processes as in NEST (Ippen et al. 2017); as in Hines et al. (2011, Table 3), consecutive blocks of each Create
// call per rank, or a random shuffle with equal counts per rank; or by area (Lober et al. (2026)): each
// area on one rank, or on a group of ranks when there are more ranks than areas.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ranvier {

enum class PlacementPolicy { round_robin, consecutive, random, area };

PlacementPolicy placement_from_name(const std::string& name);
std::vector<std::string> placement_names();

struct VirtualProcess {
  int rank;
  int thread;
};

// How the neurons of one Create call are laid out.
struct RangeLayout {
  uint32_t first_gid = 0, count = 0;
  std::vector<uint32_t> shuffle;       // random placement: position -> slot
  int rank_first = 0, rank_count = 1;  // area placement: the ranks of the call's area
};

class Placement {
 public:
  Placement(PlacementPolicy policy, int ranks, int threads, uint32_t seed)
      : policy_(policy), ranks_(ranks), threads_(threads), seed_(seed) {}

  PlacementPolicy policy() const { return policy_; }
  int ranks() const { return ranks_; }
  // The random placement's shuffle of a Create call's positions (empty otherwise).
  std::vector<uint32_t> shuffle_for(uint32_t first_gid, uint32_t count) const;
  VirtualProcess of(uint32_t gid, const RangeLayout& r) const {
    const uint64_t q = gid - r.first_gid;
    switch (policy_) {
      case PlacementPolicy::consecutive:
        return {int(q * uint64_t(ranks_) / r.count), int(q % uint64_t(threads_))};
      case PlacementPolicy::random: {
        const uint32_t slot = r.shuffle[q];
        return {int(slot % uint32_t(ranks_)), int((slot / uint32_t(ranks_)) % uint32_t(threads_))};
      }
      case PlacementPolicy::area: {
        const uint64_t k = uint64_t(r.rank_count);
        return {r.rank_first + int(q % k), int((q / k) % uint64_t(threads_))};
      }
      default: {
        const uint32_t vp = gid % uint32_t(ranks_ * threads_);
        return {int(vp % uint32_t(ranks_)), int(vp / uint32_t(ranks_))};
      }
    }
  }
  // The gids of a Create call that live on (rank, thread), ascending.
  std::vector<uint32_t> local_gids(const RangeLayout& r, int rank, int thread) const;

 private:
  PlacementPolicy policy_;
  int ranks_, threads_;
  uint32_t seed_;
};

}  // namespace ranvier
