// NEST's sic_connection: an astrocyte's slow inward current (models/astrocyte_lr_1994.cpp) into
// a neuron that takes it (aeif_cond_alpha_astro), times the weight, after the delay
// (kernel/coupling.hpp delivers it as it does delayed rates).
#include "synapses/synapse_model.hpp"

namespace ranvier {
namespace {

const SynapseBase sic{.parameters = {{"weight", 1.0, ""}, {"delay", 1.0, "ms"}},
                      .secondary = SecondaryEvent::slow_inward_current};
[[maybe_unused]] const bool registered = SynapseBases::instance().add("sic_connection", &sic);

}  // namespace
}  // namespace ranvier
