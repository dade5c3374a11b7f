// one_to_one: the k-th source to the k-th target. Targets may repeat (PyNEST's arrays of node
// ids): a target's random values are keyed by its gid and by how often it came before.
#include <algorithm>
#include <unordered_map>

#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

void one_to_one(RuleContext& c) {
  const ConnectRequest& r = c.request;
  const bool distinct = std::adjacent_find(r.targets.begin(), r.targets.end(), [](uint32_t a, uint32_t b) {
                          return a >= b;
                        }) == r.targets.end();  // ascending: no target repeats
  std::unordered_map<uint32_t, uint64_t> earlier;
  for (uint32_t p : c.mine) {
    const uint64_t index = distinct ? 0 : earlier[r.targets[p]]++;
    if (r.allow_autapses || r.sources[p] != r.targets[p])
      c.sink.add(r.sources[p], r.targets[p], c.input(r.targets[p]), r.targets[p], index, p);
  }
}

void check(const RuleCall& c) {
  const size_t n_pre = c.request.sources.size(), n_post = c.request.targets.size();
  if (n_pre != n_post)
    throw BadParameterError("one_to_one needs pre and post of equal size, got " + std::to_string(n_pre) + " and " +
                            std::to_string(n_post));
}

std::optional<std::vector<uint64_t>> shape(const RuleCall& c) {
  return std::vector<uint64_t>{c.request.targets.size()};
}

std::vector<std::pair<uint32_t, uint32_t>> pairs(const RuleCall& c) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (size_t k = 0; k < c.request.sources.size(); ++k) out.emplace_back(c.request.sources[k], c.request.targets[k]);
  return out;
}

}  // namespace

RANVIER_REGISTER_CONNECTION_RULE(one_to_one, .connect = &one_to_one, .check = &check, .array_shape = &shape,
                                 .disconnect_pairs = &pairs, .per_source = true);

}  // namespace ranvier
