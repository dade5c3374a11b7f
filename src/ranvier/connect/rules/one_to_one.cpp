// one_to_one: the k-th source to the k-th target.
#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

void one_to_one(RuleContext& c) {
  const ConnectRequest& r = c.request;
  for (uint32_t p : c.mine)
    if (r.allow_autapses || r.sources[p] != r.targets[p])
      c.sink.add(r.sources[p], r.targets[p], c.input(r.targets[p]), r.targets[p], 0, p);
}

}  // namespace

RANVIER_REGISTER_CONNECTION_RULE(one_to_one, {}, &one_to_one);

}  // namespace ranvier
