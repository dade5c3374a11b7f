#include "connect/third_factor.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "core/rng.hpp"

namespace ranvier {

namespace {

// pool_size distinct positions in [0, n) in ascending order (Floyd's sampling), from the
// target's stream at draws `next` on.
std::vector<uint64_t> random_pool(const Stream& s, uint64_t& next, uint64_t n, uint64_t size) {
  std::vector<uint64_t> pool;
  for (uint64_t j = n - size; j < n; ++j) {
    const uint64_t t = s.below(next++, j + 1);
    pool.push_back(std::find(pool.begin(), pool.end(), t) == pool.end() ? t : j);
  }
  std::sort(pool.begin(), pool.end());
  return pool;
}

}  // namespace

std::vector<uint32_t> third_factor_partners(uint32_t seed, uint32_t call, const ThirdFactorRule& rule,
                                            const std::vector<uint32_t>& sources, const std::vector<uint32_t>& targets,
                                            const std::vector<uint32_t>& positions, const std::vector<uint32_t>& third,
                                            uint64_t n_post) {
  const uint64_t n_third = third.size();
  if (rule.pool_size < 1 || rule.pool_size > n_third)
    throw bad_value("pool_size", rule.pool_size, "in [1, " + std::to_string(n_third) + "] (the third population)");
  if (!(rule.p >= 0.0 && rule.p <= 1.0)) throw bad_value("p", rule.p, "in [0, 1]");
  if (!rule.random_pool && n_post * rule.pool_size != n_third && !(rule.pool_size == 1 && n_post % n_third == 0))
    throw bad_value("pool_size", rule.pool_size,
                    "such that block pools fit: post (" + std::to_string(n_post) + ") x pool_size = the third (" +
                        std::to_string(n_third) + "), or 1 where post is a multiple of the third; else use " +
                        "pool_type 'random'");
  std::vector<uint32_t> partner(targets.size(), 0);
  for (size_t begin = 0; begin < targets.size();) {
    size_t end = begin;
    while (end < targets.size() && targets[end] == targets[begin]) ++end;
    const Stream s(seed, Purpose::third_factor, call, targets[begin]);
    uint64_t next = 0;
    std::vector<uint64_t> pool;
    if (rule.random_pool) {
      pool = random_pool(s, next, n_third, rule.pool_size);
    } else {  // the target's block: pool_size nodes from its position, or one per n_post / n_third targets
      const uint64_t first =
          rule.pool_size > 1 ? positions[begin] * rule.pool_size : positions[begin] / (n_post / n_third);
      for (uint64_t j = 0; j < rule.pool_size; ++j) pool.push_back(first + j);
    }
    for (size_t k = begin; k < end; ++k) {
      if (!(s.uniform(next++) < rule.p)) continue;
      const uint64_t j = rule.pool_size == 1 ? 0 : s.below(next++, rule.pool_size);
      partner[k] = third[pool[j]];
    }
    begin = end;
  }
  return partner;
}

}  // namespace ranvier
