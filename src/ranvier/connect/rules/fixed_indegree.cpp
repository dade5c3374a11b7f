// fixed_indegree: each target draws `indegree` sources (one value, or one per target).
#include <algorithm>

#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

void fixed_indegree(RuleContext& c) {
  const ConnectRequest& r = c.request;
  const std::vector<int64_t>* degrees = c.params.per_target("indegree");
  const uint64_t one = degrees ? 0 : c.params.count("indegree");
  for (uint32_t p : c.mine) {
    const uint64_t degree = degrees ? uint64_t((*degrees)[p]) : one;
    const auto& sources = c.draw_sources(p, degree);
    const uint32_t target = r.targets[p], target_input = c.input(target);
    for (size_t k = 0; k < sources.size(); ++k)
      c.sink.add(r.sources[sources[k]], target, target_input, target, k, degrees ? 0 : p * degree + k);
  }
}

// Without multapses a target has as many partners as sources (one fewer without autapses
// when some source is also a target). With them, only a target whose one source is itself,
// without autapses, has none (drawing for it would never end; NEST's does not).
void check(const RuleCall& c) {
  const ConnectRequest& r = c.request;
  const std::vector<int64_t>* degrees = c.per_target("indegree");
  if (!r.allow_autapses && r.sources.size() == 1) {
    const auto self = std::find(r.targets.begin(), r.targets.end(), r.sources[0]);
    if (self != r.targets.end() && (degrees ? (*degrees)[size_t(self - r.targets.begin())] : c.count("indegree")) > 0)
      throw BadParameterError("indegree > 0 for node " + std::to_string(r.sources[0]) +
                              ", whose only possible source is itself, with allow_autapses = False");
  }
  if (r.allow_multapses) return;
  const uint64_t partners = r.sources.size() - (r.allow_autapses || c.shared() == 0 ? 0 : 1);
  uint64_t most = 0;
  if (degrees)
    for (int64_t d : *degrees) most = std::max(most, uint64_t(d));
  else
    most = c.count("indegree");
  if (most > partners)
    throw BadParameterError(
        "indegree = " + std::to_string(most) + " exceeds the " + std::to_string(partners) +
        " possible partners without multapses (NEST: Indegree cannot be larger than population size.)");
}

// weights and delays: one per (target, k-th input), for one in-degree only
std::optional<std::vector<uint64_t>> shape(const RuleCall& c) {
  if (c.per_target("indegree")) return std::nullopt;
  return std::vector<uint64_t>{c.request.targets.size(), c.count("indegree")};
}

}  // namespace

RANVIER_REGISTER_CONNECTION_RULE(fixed_indegree, .parameters = {{"indegree", RuleParameter::Kind::count_per_target}},
                                 .connect = &fixed_indegree, .check = &check, .array_shape = &shape);

}  // namespace ranvier
