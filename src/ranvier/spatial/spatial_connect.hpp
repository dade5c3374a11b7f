// Spatial connection rules (NEST's pairwise_bernoulli, fixed_indegree and fixed_outdegree
// with masks and spatial parameters). Each thread builds the connections of its own targets
// (fixed_outdegree: every thread draws every source's targets and keeps its own), and every
// random number comes from a stream keyed by the connection's owner, so the network does
// not depend on how nodes fall into threads and processes.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/gid_list.hpp"
#include "spatial/cell_index.hpp"
#include "spatial/layer_geometry.hpp"
#include "spatial/mask.hpp"
#include "spatial/parameter.hpp"

namespace ranvier::spatial {

struct SpatialRule {
  enum class Kind { pairwise_bernoulli, fixed_indegree, fixed_outdegree };
  Kind kind = Kind::pairwise_bernoulli;
  bool use_on_source = false;      // pairwise_bernoulli: the mask is centred on the source
  LayerGeometry sources, targets;  // positions in the order of the request's sources / targets
  Mask mask;
  double mask_offset[3] = {0, 0, 0};  // the anchor of a single shape: displacements wrap around it
  Parameter p, weight, delay;         // p of fixed degrees weights the choice among the candidates
  int64_t degree = 0;
};

// NEST's rules that take masks and spatial parameters, by name, with the conn_spec keys each
// takes beyond rule, mask and the flags, and the key of its degree (none: null). all_to_all
// is pairwise_bernoulli with p = 1 (spatial weights or delays) and takes no mask.
struct SpatialRuleForm {
  SpatialRule::Kind kind;
  std::vector<std::string> parameters;
  const char* degree = nullptr;
};
inline const std::map<std::string, SpatialRuleForm>& spatial_rule_forms() {
  using Kind = SpatialRule::Kind;
  static const std::map<std::string, SpatialRuleForm> forms = {
      {"pairwise_bernoulli", {Kind::pairwise_bernoulli, {"mask", "p", "use_on_source"}}},
      {"fixed_indegree", {Kind::fixed_indegree, {"mask", "p", "indegree"}, "indegree"}},
      {"fixed_outdegree", {Kind::fixed_outdegree, {"mask", "p", "outdegree"}, "outdegree"}},
      {"all_to_all", {Kind::pairwise_bernoulli, {}}}};
  return forms;
}

// One connection: source and target as positions in the request's lists, weight, delay (ms).
using SpatialEmit = std::function<void(size_t source, size_t target, double weight, double delay)>;

// One thread's share of a Connect call: the nodes of both layers, which targets are its own,
// the call's flags and where its random streams start.
struct ThreadShare {
  const std::vector<uint32_t>& mine;    // positions of this thread's targets
  std::function<bool(size_t)> is_mine;  // is the target at this position its own (fixed_outdegree)
  const GidList& source_gids;           // the layers' nodes, in layer order
  const GidList& target_gids;
  bool autapses = true, multapses = true;
  uint32_t seed = 0, call = 0;
};

class SpatialConnect {
 public:
  explicit SpatialConnect(SpatialRule rule);
  void connect(const ThreadShare& share, const SpatialEmit& emit) const;

 private:
  // Calls found(j, displacement) for each node j of the `pool` layer (sources, or targets
  // for fixed_outdegree) inside the mask around node `centre` of the other layer.
  template <typename Found>
  void each_candidate(size_t centre, Found&& found) const;
  void draw_degree(const ThreadShare& share, size_t centre, uint32_t owner, const GidList& pool_gids,
                   std::vector<uint32_t>& chosen) const;
  PairGeometry pair(size_t source, size_t target, const double* displacement) const;

  SpatialRule r_;
  bool outdegree_;
  const LayerGeometry& pool_;
  const LayerGeometry& centres_;
  double mask_sign_;  // the mask sees pool minus centre minus offset (centre minus pool for use_on_source)
  bool offset_ = false;
  // On a periodic layer, a mask reaching past half the extent on a side also holds the images
  // of a displacement a whole extent away (NEST's queries wrap round); holds() tries them.
  bool images_ = false;
  bool holds(const double* x) const;
  Box bounds_;  // of the mask, in the pool's frame
  std::unique_ptr<CellIndex> index_;
};

}  // namespace ranvier::spatial
