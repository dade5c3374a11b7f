// NEST's tripartite connectivity (TripartiteConnect): after the primary connections, each may
// be paired with a node of a third population (an astrocyte), which then gets a connection from
// the primary source (third_in) and makes one to the primary target (third_out). This is the
// third-factor rule third_factor_bernoulli_with_pool: each target has a pool of pool_size third
// nodes, drawn at random or its block of the third population in order, and each primary
// connection takes, with probability p, a node of its target's pool at random.
//
// The draws are keyed by the target's gid (Purpose::third_factor), and every rank draws for all
// primary connections in one order, so the choice depends on no partition.
#pragma once
#include <cstdint>
#include <vector>

namespace ranvier {

struct ThirdFactorRule {
  double p = 1.0;
  bool random_pool = true;
  uint64_t pool_size = 1;
};

// The third node each primary connection (sources[k], targets[k]) is paired with, 0 for none.
// The connections come sorted by target, a target's by source; positions[k] is the position of
// targets[k] in the primary Connect's post (block pools start from it).
std::vector<uint32_t> third_factor_partners(uint32_t seed, uint32_t call, const ThirdFactorRule& rule,
                                            const std::vector<uint32_t>& sources, const std::vector<uint32_t>& targets,
                                            const std::vector<uint32_t>& positions, const std::vector<uint32_t>& third,
                                            uint64_t n_post);

}  // namespace ranvier
