// symmetric_pairwise_bernoulli (NEST's rule): for each target j and source i (i != j), with
// probability p, a connection i -> j and its mirror j -> i. Every decision is drawn from j's
// stream at i's position, so each node makes the connections that end at it: as a target from
// its own draws, as a source from the draws of the targets that chose it. Where sources and
// targets overlap, a pair may be chosen both ways and then connects twice each way, as in NEST.
#include <algorithm>

#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

void symmetric_pairwise_bernoulli(RuleContext& c) {
  const ConnectRequest& r = c.request;
  const double probability = c.params.real("p");
  // the local nodes at which connections end: targets (their own draws) and sources (mirrors)
  std::vector<uint32_t> ends;
  for (uint32_t p : c.mine) ends.push_back(r.targets[p]);
  for (uint32_t s : r.sources)
    if (c.local(s)) ends.push_back(s);
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  for (uint32_t node : ends) {
    const uint32_t input = c.input(node);
    uint64_t made = 0;
    if (std::binary_search(r.targets.begin(), r.targets.end(), node)) {
      const Stream coins = c.stream(Purpose::connect_partner, node);
      for (size_t i = 0; i < r.sources.size(); ++i)
        if (r.sources[i] != node && coins.uniform(i) < probability)
          c.sink.add(r.sources[i], node, input, node, made++, 0);
    }
    const auto at = std::find(r.sources.begin(), r.sources.end(), node);
    if (at == r.sources.end()) continue;
    const size_t position = size_t(at - r.sources.begin());
    for (uint32_t target : r.targets)
      if (target != node && c.stream(Purpose::connect_partner, target).uniform(position) < probability)
        c.sink.add(target, node, input, node, made++, 0);
  }
}

void check(const RuleCall& call) {
  if (call.request.allow_autapses)
    throw bad_value("allow_autapses", "True", "False for rule symmetric_pairwise_bernoulli");
  if (!call.request.allow_multapses)
    throw bad_value("allow_multapses", "False", "True for rule symmetric_pairwise_bernoulli");
}

}  // namespace

RANVIER_REGISTER_CONNECTION_RULE(symmetric_pairwise_bernoulli, .parameters = {{"p", RuleParameter::Kind::probability}},
                                 .connect = &symmetric_pairwise_bernoulli, .check = &check, .both_ways = true);

}  // namespace ranvier
