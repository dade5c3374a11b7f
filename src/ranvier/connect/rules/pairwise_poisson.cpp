// pairwise_poisson: each (source, target) pair gets a Poisson-distributed number of
// connections of mean pairwise_avg_num_conns (NEST's rule; multapses must be allowed).
#include <algorithm>
#include <cmath>

#include "connect/connection_rule.hpp"

namespace ranvier {
namespace {

// A Poisson count of mean `part` by inversion of its distribution function from uniform u.
uint64_t poisson(double u, double part, double none) {
  double pmf = none, cdf = none;
  uint64_t n = 0;
  while (u >= cdf && pmf > 0.0) pmf *= part / double(++n), cdf += pmf;
  return n;
}

void pairwise_poisson(RuleContext& c) {
  const ConnectRequest& r = c.request;
  const double mean = c.params.real("pairwise_avg_num_conns");
  // a sum of parts of mean at most 50 each, so that exp(-part) stays far from underflow
  const uint64_t parts = std::max<uint64_t>(1, uint64_t(std::ceil(mean / 50.0)));
  const double part = mean / double(parts), none = std::exp(-part);
  for (uint32_t p : c.mine) {
    const uint32_t target = r.targets[p], target_input = c.input(target);
    const Stream draws = c.stream(Purpose::connect_count, target);
    uint64_t made = 0;
    for (size_t j = 0; j < r.sources.size(); ++j) {
      if (!r.allow_autapses && r.sources[j] == target) continue;
      uint64_t n = 0;
      for (uint64_t k = 0; k < parts; ++k) n += poisson(draws.uniform((uint64_t(j) << 20) | k), part, none);
      for (; n > 0; --n) c.sink.add(r.sources[j], target, target_input, target, made++, 0);
    }
  }
}

void check(const RuleCall& call) {
  if (!call.request.allow_multapses)
    throw bad_value("allow_multapses", "False", "True for rule pairwise_poisson (a pair may connect several times)");
}

}  // namespace

RANVIER_REGISTER_CONNECTION_RULE(pairwise_poisson,
                                 .parameters = {{"pairwise_avg_num_conns", RuleParameter::Kind::mean}},
                                 .connect = &pairwise_poisson, .check = &check);

}  // namespace ranvier
