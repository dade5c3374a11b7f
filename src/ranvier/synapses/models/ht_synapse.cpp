// ht_synapse: the synaptic depression of Hill and Tononi (2005), as NEST 3.10 has it: a pool P
// of resources recovers towards 1 with tau_P between spikes; each spike transmits weight x P
// and then depletes the pool by the fraction delta_P. Everything is per connection.
#include "kernel/synapse_event.hpp"

namespace ranvier {
namespace {

// Record slots: the per-connection parameters after weight and delay, then the last spike (ms).
enum Slot { kTauP, kDeltaP, kP, kLastSpike };

// P recovers from the last spike (from 0 before the first, as in NEST: P is then 1 - (1 - P)
// decayed over the spike's time) and scales the weight; then the spike depletes it.
double transmit(double* r, double t_spike) {
  const double p = 1.0 - (1.0 - r[kP]) * std::exp(-(t_spike - r[kLastSpike]) / r[kTauP]);
  r[kP] = p * (1.0 - r[kDeltaP]);
  r[kLastSpike] = t_spike;
  return p;
}

template <bool Record>
void deliver(const SynapseEvent& e) {
  scatter_scaled<Record>(e, transmit);
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"tau_P", 500.0, "ms", false, is_positive, "> 0"},
                                       {"delta_P", 0.125, "", false, is_probability, "in [0, 1]"},
                                       {"P", 1.0, "", false, is_probability, "in [0, 1]"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .state = {0.0}};
[[maybe_unused]] const bool registered = register_synapse("ht_synapse", &model);

}  // namespace
}  // namespace ranvier
