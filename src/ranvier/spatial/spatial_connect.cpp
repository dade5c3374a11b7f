#include "spatial/spatial_connect.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ranvier::spatial {

SpatialConnect::SpatialConnect(SpatialRule rule)
    : r_(std::move(rule)),
      outdegree_(r_.kind == SpatialRule::Kind::fixed_outdegree),
      pool_(outdegree_ ? r_.targets : r_.sources),
      centres_(outdegree_ ? r_.sources : r_.targets),
      // NEST 3.10: pairwise_bernoulli tests target minus source (source minus target with
      // use_on_source); the fixed degrees test the drawn node minus the centre node
      mask_sign_(r_.kind != SpatialRule::Kind::pairwise_bernoulli || r_.use_on_source ? 1.0 : -1.0) {
  Box b = r_.mask.bounds();
  for (int k = 0; k < pool_.dims; ++k)
    images_ =
        images_ || (pool_.periodic && (b.lower[k] < -0.5 * pool_.extent[k] || b.upper[k] >= 0.5 * pool_.extent[k]));
  for (int k = 0; k < 3; ++k) {
    b.lower[k] += r_.mask_offset[k], b.upper[k] += r_.mask_offset[k];
    offset_ = offset_ || r_.mask_offset[k] != 0.0;
  }
  for (int k = 0; k < 3; ++k) {
    bounds_.lower[k] = mask_sign_ < 0 ? -b.upper[k] : b.lower[k];
    bounds_.upper[k] = mask_sign_ < 0 ? -b.lower[k] : b.upper[k];
  }
  index_ = std::make_unique<CellIndex>(pool_, bounds_);
}

bool SpatialConnect::holds(const double* x) const {
  const double z = pool_.dims == 3 ? x[2] : 0.0;
  if (r_.mask.contains(x[0], x[1], z)) return true;
  if (!images_) return false;
  const int images = pool_.dims == 3 ? 27 : 9;  // each dimension shifted by -1, 0 or +1 extents
  for (int m = 0; m < images; ++m) {
    double y[3] = {x[0], x[1], z};
    for (int k = 0, code = m; k < pool_.dims; ++k, code /= 3) y[k] += double(code % 3 - 1) * pool_.extent[k];
    if (m != images / 2 && r_.mask.contains(y[0], y[1], y[2])) return true;  // images / 2: no shift
  }
  return false;
}

PairGeometry SpatialConnect::pair(size_t source, size_t target, const double* displacement) const {
  return {r_.sources.at(source), r_.targets.at(target), displacement, pool_.dims};
}

template <typename Found>
void SpatialConnect::each_candidate(size_t centre, Found&& found) const {
  const double* c = centres_.at(centre);
  const std::vector<uint32_t>& members = index_->members();
  index_->candidates(c, bounds_, [&](size_t begin, size_t end) {
    double d[3];  // as the mask sees it; parameters use only its length and |components|
    for (size_t m = begin; m < end; ++m) {
      const uint32_t j = members[m];
      if (!offset_) {
        if (mask_sign_ > 0)
          pool_.displacement(c, pool_.at(j), d);
        else
          pool_.displacement(pool_.at(j), c, d);
        if (holds(d)) found(j, d);
        continue;
      }
      double from[3], seen[3];  // NEST wraps around the anchor
      const double* a = mask_sign_ > 0 ? c : pool_.at(j);
      for (int k = 0; k < pool_.dims; ++k) from[k] = a[k] + r_.mask_offset[k];
      pool_.displacement(from, mask_sign_ > 0 ? pool_.at(j) : c, seen);
      if (!holds(seen)) continue;
      pool_.displacement(c, pool_.at(j), d);
      found(j, d);
    }
  });
}

// Draws `degree` nodes of the pool for one centre node, each candidate with a chance in
// proportion to its p (NEST's choice for fixed degrees with a spatial p).
void SpatialConnect::draw_degree(const ThreadShare& share, size_t centre, uint32_t owner, const GidList& pool_gids,
                                 std::vector<uint32_t>& chosen) const {
  const bool autapses = share.autapses, multapses = share.multapses;
  const uint32_t seed = share.seed, call = share.call;
  // candidates in the cell index's order: the same on every thread and process
  std::vector<uint32_t> found;
  std::vector<double> p;
  const Stream p_stream(seed, Purpose::connect_count, call, owner);
  each_candidate(centre, [&](uint32_t j, const double* d) {
    found.push_back(j);
    p.push_back(r_.p.is_constant() ? r_.p.constant_value()
                                   : r_.p.value(outdegree_ ? pair(centre, j, d) : pair(j, centre, d), p_stream, j));
  });
  std::vector<double> cumulative(found.size());
  double total = 0.0;
  size_t allowed = 0;
  for (size_t i = 0; i < found.size(); ++i) {
    if (!(p[i] >= 0.0))
      throw BadParameterError("p must be >= 0 for every candidate of a fixed degree, got p = " + std::to_string(p[i]));
    if (!autapses && pool_gids[found[i]] == owner) p[i] = 0.0;
    if (p[i] > 0.0) ++allowed;
    cumulative[i] = total += p[i];
  }
  const char* name = outdegree_ ? "outdegree" : "indegree";
  const uint64_t degree = uint64_t(r_.degree);
  if (degree > 0 && (allowed == 0 || (!multapses && allowed < degree)))
    throw BadParameterError(std::string(name) + " = " + std::to_string(degree) + " exceeds the " +
                            std::to_string(allowed) + " possible partners inside the mask of node " +
                            std::to_string(owner) + (multapses ? "" : " without multapses"));
  std::vector<uint8_t> taken(multapses ? 0 : found.size(), 0);
  const Stream partners(seed, Purpose::connect_partner, call, owner);
  chosen.clear();
  for (uint64_t i = 0; chosen.size() < degree; ++i) {
    const double u = partners.uniform(i) * total;
    size_t k = size_t(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
    if (k >= found.size() || p[k] == 0.0) continue;
    if (!multapses) {
      if (taken[k]) continue;
      taken[k] = 1;
    }
    chosen.push_back(found[k]);
  }
}

void SpatialConnect::connect(const ThreadShare& share, const SpatialEmit& emit) const {
  const GidList &source_gids = share.source_gids, &target_gids = share.target_gids;
  const uint32_t seed = share.seed, call = share.call;
  const bool constant_weight = r_.weight.is_constant(), constant_delay = r_.delay.is_constant();
  double d[3];
  auto values = [&](size_t j, size_t t, uint32_t owner, uint64_t index, double& w, double& delay) {
    if (constant_weight && constant_delay) {
      w = r_.weight.constant_value(), delay = r_.delay.constant_value();
      return;
    }
    r_.sources.displacement(r_.targets.at(t), r_.sources.at(j), d);  // pool geometry, NEST's sign
    const PairGeometry g = pair(j, t, d);
    w = constant_weight ? r_.weight.constant_value()
                        : r_.weight.value(g, Stream(seed, Purpose::connect_weight, call, owner), index);
    delay = constant_delay ? r_.delay.constant_value()
                           : r_.delay.value(g, Stream(seed, Purpose::connect_delay, call, owner), index);
  };
  std::vector<uint32_t> chosen;
  double w = 0.0, delay = 0.0;
  switch (r_.kind) {
    case SpatialRule::Kind::pairwise_bernoulli:
      for (uint32_t t : share.mine) {
        const uint32_t owner = target_gids[t];
        const Stream coins(seed, Purpose::connect_partner, call, owner),
            p_stream(seed, Purpose::connect_count, call, owner);
        each_candidate(t, [&](uint32_t j, const double* d) {
          const double p = r_.p.is_constant() ? r_.p.constant_value() : r_.p.value(pair(j, t, d), p_stream, j);
          if (!(p >= 1.0) && !(coins.uniform(j) < p)) return;  // a NaN p connects nothing, as NEST skips it
          if (!share.autapses && source_gids[j] == owner) return;
          values(j, t, owner, j, w, delay);
          emit(j, t, w, delay);
        });
      }
      break;
    case SpatialRule::Kind::fixed_indegree:
      for (uint32_t t : share.mine) {
        draw_degree(share, t, target_gids[t], source_gids, chosen);
        for (size_t k = 0; k < chosen.size(); ++k) {
          values(chosen[k], t, target_gids[t], k, w, delay);
          emit(chosen[k], t, w, delay);
        }
      }
      break;
    case SpatialRule::Kind::fixed_outdegree:
      for (size_t s = 0; s < source_gids.size(); ++s) {
        draw_degree(share, s, source_gids[s], target_gids, chosen);
        for (size_t k = 0; k < chosen.size(); ++k) {
          if (!share.is_mine(chosen[k])) continue;
          values(s, chosen[k], source_gids[s], k, w, delay);
          emit(s, chosen[k], w, delay);
        }
      }
      break;
  }
}

}  // namespace ranvier::spatial
