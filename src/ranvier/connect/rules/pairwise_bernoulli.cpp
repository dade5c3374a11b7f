// pairwise_bernoulli: each (source, target) pair connects with probability p.
#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

void pairwise_bernoulli(RuleContext& c) {
  const ConnectRequest& r = c.request;
  const double probability = c.params.real("p");
  for (uint32_t p : c.mine) {
    const uint32_t target = r.targets[p], target_input = c.input(target);
    const Stream coins = c.stream(Purpose::connect_partner, target);
    uint64_t made = 0;
    for (size_t j = 0; j < r.sources.size(); ++j) {
      if (coins.uniform(j) >= probability) continue;
      if (!r.allow_autapses && r.sources[j] == target) continue;
      c.sink.add(r.sources[j], target, target_input, target, made++, 0);
    }
  }
}

}  // namespace

RANVIER_REGISTER_CONNECTION_RULE(pairwise_bernoulli, .parameters = {{"p", RuleParameter::Kind::probability}},
                                 .connect = &pairwise_bernoulli, .per_source = true);

}  // namespace ranvier
