// fixed_indegree: each target draws `indegree` sources (one value, or one per target).
#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

void fixed_indegree(RuleContext& c) {
  const ConnectRequest& r = c.request;
  for (uint32_t p : c.mine) {
    const uint64_t degree = r.degrees.empty() ? uint64_t(r.degree) : uint64_t(r.degrees[p]);
    const auto& sources = c.draw_sources(p, degree);
    const uint32_t target = r.targets[p], target_input = c.input(target);
    for (size_t k = 0; k < sources.size(); ++k)
      c.sink.add(r.sources[sources[k]], target, target_input, target, k, r.degrees.empty() ? p * degree + k : 0);
  }
}

}  // namespace

RANVIER_REGISTER_CONNECTION_RULE(fixed_indegree, {"indegree"}, &fixed_indegree);

}  // namespace ranvier
