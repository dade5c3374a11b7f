// static_synapse: a fixed weight (pA or nS) and delay (ms) per connection.
#include "kernel/synapse_event.hpp"

namespace ranvier {
namespace {

template <bool Record>
void deliver(const SynapseEvent& e) {
  scatter_weights<Record>(e, e.weights(), e.table.weights().stride());
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit}, {"delay", 1.0, "ms"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .from_devices = true};
[[maybe_unused]] const bool registered = register_synapse("static_synapse", &model);

}  // namespace
}  // namespace ranvier
