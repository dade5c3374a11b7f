#include "kernel/placement.hpp"

#include <numeric>
#include <stdexcept>

#include "core/rng.hpp"

namespace ranvier {

PlacementPolicy placement_from_name(const std::string& name) {
  if (name == "round_robin") return PlacementPolicy::round_robin;
  if (name == "consecutive") return PlacementPolicy::consecutive;
  if (name == "random") return PlacementPolicy::random;
  throw std::invalid_argument("placement must be round_robin, consecutive or random, got placement = " + name);
}

std::vector<uint32_t> Placement::shuffle_for(uint32_t first_gid, uint32_t count) const {
  if (policy_ != PlacementPolicy::random) return {};
  // Fisher-Yates keyed by the call's first gid: the same on every rank.
  std::vector<uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  const Stream stream(seed_, Purpose::placement, first_gid, 0);
  for (uint32_t i = count; i > 1; --i) std::swap(order[i - 1], order[stream.below(i, i)]);
  return order;
}

std::vector<uint32_t> Placement::local_gids(uint32_t first_gid, uint32_t count,
                                            const std::vector<uint32_t>& shuffle, int rank, int thread) const {
  std::vector<uint32_t> gids;
  if (policy_ == PlacementPolicy::round_robin) {
    const uint32_t n_vps = uint32_t(ranks_ * threads_), vp = uint32_t(rank + thread * ranks_);
    const uint32_t first = first_gid + (vp + n_vps - first_gid % n_vps) % n_vps;
    for (uint64_t g = first; g < uint64_t(first_gid) + count; g += n_vps) gids.push_back(uint32_t(g));
    return gids;
  }
  for (uint32_t g = first_gid; g < first_gid + count; ++g) {
    const VirtualProcess v = of(g, first_gid, count, shuffle);
    if (v.rank == rank && v.thread == thread) gids.push_back(g);
  }
  return gids;
}

}  // namespace ranvier
