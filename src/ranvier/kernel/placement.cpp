#include "kernel/placement.hpp"
#include "core/errors.hpp"

#include <numeric>
#include <stdexcept>

#include "core/rng.hpp"

namespace ranvier {

namespace {
constexpr PlacementPolicy policies[] = {PlacementPolicy::round_robin, PlacementPolicy::consecutive,
                                        PlacementPolicy::random, PlacementPolicy::area};
constexpr const char* policy_names[] = {"round_robin", "consecutive", "random", "area"};
}  // namespace

PlacementPolicy placement_from_name(const std::string& name) {
  for (size_t k = 0; k < std::size(policies); ++k)
    if (name == policy_names[k]) return policies[k];
  std::string names;
  for (const char* known : policy_names) names += std::string(names.empty() ? "" : ", ") + known;
  throw bad_value("placement", name, "one of " + names);
}

std::vector<std::string> placement_names() { return {std::begin(policy_names), std::end(policy_names)}; }

std::vector<uint32_t> Placement::shuffle_for(uint32_t first_gid, uint32_t count) const {
  if (policy_ != PlacementPolicy::random) return {};
  // Fisher-Yates keyed by the call's first gid: the same on every rank.
  std::vector<uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  const Stream stream(seed_, Purpose::placement, first_gid, 0);
  for (uint32_t i = count; i > 1; --i) std::swap(order[i - 1], order[stream.below(i, i)]);
  return order;
}

std::vector<uint32_t> Placement::local_gids(const RangeLayout& r, int rank, int thread) const {
  std::vector<uint32_t> gids;
  const uint64_t end = uint64_t(r.first_gid) + r.count;
  if (policy_ == PlacementPolicy::round_robin) {
    const uint32_t n_vps = uint32_t(ranks_ * threads_), vp = uint32_t(rank + thread * ranks_);
    const uint32_t first = r.first_gid + (vp + n_vps - r.first_gid % n_vps) % n_vps;
    for (uint64_t g = first; g < end; g += n_vps) gids.push_back(uint32_t(g));
    return gids;
  }
  if (policy_ == PlacementPolicy::area) {
    if (rank < r.rank_first || rank >= r.rank_first + r.rank_count) return gids;
    const uint64_t k = uint64_t(r.rank_count), step = k * uint64_t(threads_);
    for (uint64_t q = uint64_t(rank - r.rank_first) + k * uint64_t(thread); r.first_gid + q < end; q += step)
      gids.push_back(uint32_t(r.first_gid + q));
    return gids;
  }
  for (uint64_t g = r.first_gid; g < end; ++g) {
    const VirtualProcess v = of(uint32_t(g), r);
    if (v.rank == rank && v.thread == thread) gids.push_back(uint32_t(g));
  }
  return gids;
}

}  // namespace ranvier
