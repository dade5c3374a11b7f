// fixed_outdegree: each source draws `outdegree` targets.
#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

// Every thread draws every source's targets and keeps its own: the price of keying the
// choice by source, which keeps the network independent of the thread count.
void fixed_outdegree(RuleContext& c) {
  const ConnectRequest& r = c.request;
  const GidList& pre = r.sources;
  const GidList& post = r.targets;
  const uint64_t degree = c.params.count("outdegree");
  std::vector<uint8_t> hit(r.allow_multapses ? 0 : post.size(), 0);
  std::vector<uint32_t> picked;
  for (size_t q = 0; q < pre.size(); ++q) {
    SequentialStream partners(c.stream(Purpose::connect_partner, pre[q]));
    picked.clear();
    for (uint64_t i = 0; picked.size() < degree; ++i) {
      const uint32_t j = uint32_t(partners.below(i, post.size()));
      if (!r.allow_autapses && post[j] == pre[q]) continue;
      if (!r.allow_multapses) {
        if (hit[j]) continue;
        hit[j] = 1;
      }
      picked.push_back(j);
    }
    for (size_t k = 0; k < picked.size(); ++k) {
      const uint32_t j = picked[k];
      if (!r.allow_multapses) hit[j] = 0;
      if (c.local(post[j])) c.sink.add(pre[q], post[j], c.input(post[j]), pre[q], k, q * degree + k);
    }
  }
}

void check(const RuleCall& c) {
  const ConnectRequest& r = c.request;
  const uint64_t degree = c.count("outdegree");
  // a source whose one target is itself, without autapses, has no partner at all
  if (!r.allow_autapses && r.targets.size() == 1 && c.shared() > 0 && degree > 0)
    throw BadParameterError("outdegree = " + std::to_string(degree) + " for node " + std::to_string(r.targets[0]) +
                            ", whose only possible target is itself, with allow_autapses = False");
  if (r.allow_multapses) return;
  const uint64_t partners = r.targets.size() - (r.allow_autapses || c.shared() == 0 ? 0 : 1);
  if (degree > partners)
    throw BadParameterError(
        "outdegree = " + std::to_string(degree) + " exceeds the " + std::to_string(partners) +
        " possible partners without multapses (NEST: Outdegree cannot be larger than population size.)");
}

// weights and delays: one per (source, k-th output)
std::optional<std::vector<uint64_t>> shape(const RuleCall& c) {
  return std::vector<uint64_t>{c.request.sources.size(), c.count("outdegree")};
}

}  // namespace

RANVIER_REGISTER_CONNECTION_RULE(fixed_outdegree, .parameters = {{"outdegree", RuleParameter::Kind::count}},
                                 .connect = &fixed_outdegree, .check = &check, .array_shape = &shape,
                                 .per_source = true);

}  // namespace ranvier
