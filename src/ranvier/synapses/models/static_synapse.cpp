// static_synapse: a fixed weight (pA or nS) and delay (ms) per connection.
#include "synapses/synapse_event.hpp"

namespace ranvier {
namespace {

void deliver(const SynapseEvent& e) {
  scatter_weights(e, e.table.weights().run(e.source_index, e.range.begin), e.table.weights().stride());
}

const SynapseBase model{{{"weight", 1.0}, {"delay", 1.0}}, deliver, false, false, true};
[[maybe_unused]] const bool registered = register_synapse("static_synapse", &model);

}  // namespace
}  // namespace ranvier
