// tsodyks_synapse: short-term depression and facilitation after Tsodyks et al. (2000), eqs. 3
// and 4 solved exactly between spikes, as NEST 3.10 does: resources recover (x), are in use
// (y, decaying with tau_psc) or inactive (z = 1 - x - y); u facilitates with tau_fac. Each
// spike releases u x of the resources, which scales the weight. Everything is per connection.
#include "kernel/synapse_event.hpp"

namespace ranvier {
namespace {

// Record slots: the per-connection parameters after weight and delay, then the last spike (ms).
enum Slot { kU, kTauPsc, kTauFac, kTauRec, kX, kY, kUse, kLastSpike };

double update(double* r, double t_spike) {
  const double h = t_spike - r[kLastSpike];  // from 0 before the first spike, as in NEST
  const double p_uu = r[kTauFac] == 0.0 ? 0.0 : std::exp(-h / r[kTauFac]);
  const double p_yy = std::exp(-h / r[kTauPsc]);
  const double p_zz = std::expm1(-h / r[kTauRec]);  // decay of z, minus 1
  const double p_xy = (p_zz * r[kTauRec] - (p_yy - 1.0) * r[kTauPsc]) / (r[kTauPsc] - r[kTauRec]);
  const double z = 1.0 - r[kX] - r[kY];
  r[kUse] *= p_uu;
  r[kX] += p_xy * r[kY] - p_zz * z;
  r[kY] *= p_yy;
  r[kUse] += r[kU] * (1.0 - r[kUse]);
  const double released = r[kUse] * r[kX];
  r[kX] -= released;
  r[kY] += released;
  r[kLastSpike] = t_spike;
  return released;
}

template <bool Record>
void deliver(const SynapseEvent& e) {
  scatter_scaled<Record>(e, update);
}

void check(const double* r) {
  if (!(r[kX] + r[kY] <= 1.0)) throw bad_value("x + y", r[kX] + r[kY], "<= 1");
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"U", 0.5, "", false, is_probability, "in [0, 1]"},
                                       {"tau_psc", 3.0, "ms", false, is_positive, "> 0"},
                                       {"tau_fac", 0.0, "ms", false, is_non_negative, ">= 0"},
                                       {"tau_rec", 800.0, "ms", false, is_positive, "> 0"},
                                       {"x", 1.0, ""},
                                       {"y", 0.0, ""},
                                       {"u", 0.0, "", false, is_probability, "in [0, 1]"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .state = {0.0},
                        .check = check};
[[maybe_unused]] const bool registered = register_synapse("tsodyks_synapse", &model);

}  // namespace
}  // namespace ranvier
