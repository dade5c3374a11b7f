// static_synapse_hom_w: a static synapse whose weight is common to the model (SetDefaults or
// CopyModel change it for every connection at once); each connection keeps its delay.
#include "kernel/synapse_event.hpp"

namespace ranvier {
namespace {

enum Parameter { kWeight, kDelay };

template <bool Record>
void deliver(const SynapseEvent& e) {
  const double w = e.model.value(kWeight);
  scatter_weights<Record>(e, &w, 0);
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit, true}, {"delay", 1.0, "ms"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .common_weight = true,
                        .from_devices = true};
[[maybe_unused]] const bool registered = register_synapse("static_synapse_hom_w", &model);

}  // namespace
}  // namespace ranvier
