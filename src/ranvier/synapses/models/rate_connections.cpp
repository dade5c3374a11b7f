// NEST's rate connections between rate neurons (models/rate_neurons.cpp): a weight and, for
// the delayed one, a delay. An instantaneous connection's delay is the kernel's communication
// interval, which the user cannot set (kernel/coupling.hpp): a common parameter, so that
// Connect refuses it (NEST's has_delay is False).
#include "synapses/synapse_model.hpp"

namespace ranvier {
namespace {

const SynapseBase delayed{.parameters = {{"weight", 1.0, ""}, {"delay", 1.0, "ms"}},
                          .secondary = SecondaryEvent::delayed_rate};
const SynapseBase instantaneous{.parameters = {{"weight", 1.0, ""}, {"delay", 1.0, "ms", true}},
                                .secondary = SecondaryEvent::instantaneous_rate};
// NEST has no _hpc or _lbl variants of these
[[maybe_unused]] const bool registered = SynapseBases::instance().add("rate_connection_delayed", &delayed) &&
                                         SynapseBases::instance().add("rate_connection_instantaneous", &instantaneous);

}  // namespace
}  // namespace ranvier
