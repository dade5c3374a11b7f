// all_to_all: every source to every target.
#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

void all_to_all(RuleContext& c) {
  const ConnectRequest& r = c.request;
  const size_t n_pre = r.sources.size();
  for (uint32_t p : c.mine) {
    const uint32_t target = r.targets[p], target_input = c.input(target);
    for (size_t j = 0; j < n_pre; ++j)
      if (r.allow_autapses || r.sources[j] != target)
        c.sink.add(r.sources[j], target, target_input, target, j, p * n_pre + j);
  }
}

// weights and delays: one per (target, source)
std::optional<std::vector<uint64_t>> shape(const RuleCall& c) {
  return std::vector<uint64_t>{c.request.targets.size(), c.request.sources.size()};
}

// every source with every target, source by source
std::vector<std::pair<uint32_t, uint32_t>> pairs(const RuleCall& c) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (uint32_t source : c.request.sources)
    for (uint32_t target : c.request.targets) out.emplace_back(source, target);
  return out;
}

}  // namespace

RANVIER_REGISTER_CONNECTION_RULE(all_to_all, .connect = &all_to_all, .array_shape = &shape, .disconnect_pairs = &pairs,
                                 .per_source = true);

}  // namespace ranvier
