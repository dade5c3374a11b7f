// NEST's diffusion_connection between Siegert neurons (models/siegert_neuron.cpp): the source's
// rate times drift_factor adds to the mean of the target's input, times diffusion_factor to
// its variance, within the cycle (kernel/coupling.hpp). Weight and delay are not its own:
// common parameters, so that Connect refuses them, as NEST does.
#include "synapses/synapse_model.hpp"

namespace ranvier {
namespace {

const SynapseBase model{.parameters = {{"weight", 2.0, "", true},  // as NEST's GetDefaults shows it; nothing reads it
                                       {"delay", 1.0, "ms", true},
                                       {"drift_factor", 1.0, ""},
                                       {"diffusion_factor", 1.0, ""}},
                        .secondary = SecondaryEvent::diffusion};
// NEST has no _hpc or _lbl variant of it
[[maybe_unused]] const bool registered = SynapseBases::instance().add("diffusion_connection", &model);

}  // namespace
}  // namespace ranvier
