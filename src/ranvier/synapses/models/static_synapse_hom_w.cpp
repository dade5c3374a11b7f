// static_synapse_hom_w: a static synapse whose weight is common to the model (SetDefaults or
// CopyModel change it for every connection at once); each connection keeps its delay.
#include "synapses/synapse_event.hpp"

namespace ranvier {
namespace {

enum Parameter { kWeight, kDelay };

void deliver(const SynapseEvent& e) {
  const double w = e.model.value(kWeight);
  scatter_weights(e, &w, 0);
}

const SynapseBase model{{{"weight", 1.0, true}, {"delay", 1.0}}, deliver, false, true};
[[maybe_unused]] const bool registered = register_synapse("static_synapse_hom_w", &model);

}  // namespace
}  // namespace ranvier
