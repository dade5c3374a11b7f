// tsodyks2_synapse: short-term depression and facilitation after Tsodyks and Markram (1997)
// and Fuhrmann et al. (2002), as NEST 3.10 updates it: at each spike after the first, x
// recovers towards 1 with tau_rec from what the last spike left (x - u x) and u relaxes
// towards U with tau_fac; the weight is scaled by x u. Everything is per connection.
#include "kernel/synapse_event.hpp"

namespace ranvier {
namespace {

// Record slots: the per-connection parameters after weight and delay, then the last spike
// (ms; -1 before the first).
enum Slot { kU, kUse, kX, kTauRec, kTauFac, kLastSpike };

double update(double* r, double t_spike) {
  if (r[kLastSpike] >= 0.0) {
    const double h = t_spike - r[kLastSpike];
    const double x_decay = std::exp(-h / r[kTauRec]);
    const double u_decay = r[kTauFac] == 0.0 ? 0.0 : std::exp(-h / r[kTauFac]);
    r[kX] = 1.0 + (r[kX] - r[kX] * r[kUse] - 1.0) * x_decay;
    r[kUse] = r[kU] + r[kUse] * (1.0 - r[kU]) * u_decay;
  }
  r[kLastSpike] = t_spike;
  return r[kX] * r[kUse];
}

template <bool Record>
void deliver(const SynapseEvent& e) {
  scatter_scaled<Record>(e, update);
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"U", 0.5, "", false, is_probability, "in [0, 1]"},
                                       {"u", 0.5, "", false, is_probability, "in [0, 1]"},
                                       {"x", 1.0, ""},
                                       {"tau_rec", 800.0, "ms", false, is_positive, "> 0"},
                                       {"tau_fac", 0.0, "ms", false, is_non_negative, ">= 0"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .state = {-1.0}};
[[maybe_unused]] const bool registered = register_synapse("tsodyks2_synapse", &model);

}  // namespace
}  // namespace ranvier
