// fixed_total_number: N connections between the sources and targets.
#include <algorithm>

#include "connect/connection_rule.hpp"
#include "core/binomial.hpp"

namespace ranvier {
namespace {

// The number of connections of each target is drawn identically on every thread; then each
// thread draws the sources of its own targets as fixed_indegree does. With multapses the
// counts are a multinomial drawn as a chain of binomials in target order (what the targets
// before left, each next target's share 1 / the targets still to come), so every thread pays
// O(targets), not O(N). Without multapses a target can fill up: N sequential uniform choices,
// each choice of a full target drawn again.
void fixed_total_number(RuleContext& c) {
  const ConnectRequest& r = c.request;
  const GidList& pre = r.sources;
  const GidList& post = r.targets;
  const uint64_t n = c.params.count("N");
  std::vector<uint64_t> count(post.size(), 0);
  if (r.allow_multapses) {
    uint64_t left = n;
    for (size_t p = 0; p < post.size() && left > 0; ++p) {
      count[p] = binomial(c.stream(Purpose::connect_count, uint32_t(p)), left, 1.0 / double(post.size() - p));
      left -= count[p];
    }
  } else {
    SequentialStream targets(c.stream(Purpose::connect_count, 0));
    std::vector<uint8_t> in_pre(post.size(), 0);
    for (size_t p = 0; p < post.size(); ++p) in_pre[p] = std::binary_search(pre.begin(), pre.end(), post[p]);
    for (uint64_t i = 0, made = 0; made < n; ++i) {
      const size_t p = size_t(targets.below(i, post.size()));
      const uint64_t cap = pre.size() - (!r.allow_autapses && in_pre[p] ? 1 : 0);
      if (count[p] >= cap) continue;
      ++count[p];
      ++made;
    }
  }
  for (uint32_t p : c.mine) {
    const auto& sources = c.draw_sources(p, count[p]);
    const uint32_t target_input = c.input(post[p]);
    for (size_t k = 0; k < sources.size(); ++k) c.sink.add(pre[sources[k]], post[p], target_input, post[p], k, 0);
  }
}

void check(const RuleCall& c) {
  const ConnectRequest& r = c.request;
  const uint64_t partners = uint64_t(r.sources.size()) * r.targets.size() - (r.allow_autapses ? 0 : c.shared());
  const uint64_t n = c.count("N");
  if (n > 0 && partners == 0)  // every pair an autapse, which are not allowed: drawing would never end
    throw BadParameterError("N = " + std::to_string(n) +
                            " but every pair is a node with itself, with allow_autapses = False");
  if (r.allow_multapses) return;
  if (n > partners)
    throw BadParameterError("N = " + std::to_string(n) + " exceeds the " + std::to_string(partners) +
                            " possible partners without multapses (NEST: Total number of connections cannot exceed "
                            "product of source and target population sizes.)");
}

}  // namespace

RANVIER_REGISTER_CONNECTION_RULE(fixed_total_number, .parameters = {{"N", RuleParameter::Kind::count}},
                                 .connect = &fixed_total_number, .check = &check);

}  // namespace ranvier
