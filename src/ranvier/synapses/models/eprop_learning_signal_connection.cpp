// NEST 3.10's eprop_learning_signal_connection and its _bsshslm_2020 twin (the same connection
// in NEST): carries an e-prop readout's error signal, times its weight, to the history of a
// recurrent e-prop neuron as a learning signal (kernel/coupling.hpp, models/eprop_model.hpp).
#include "synapses/synapse_model.hpp"

namespace ranvier {
namespace {

const SynapseBase learning_signal{.parameters = {{"weight", 1.0, ""}, {"delay", 1.0, "ms"}},
                                  .secondary = SecondaryEvent::learning_signal};
[[maybe_unused]] const bool registered =
    SynapseBases::instance().add("eprop_learning_signal_connection", &learning_signal) &&
    SynapseBases::instance().add("eprop_learning_signal_connection_bsshslm_2020", &learning_signal);

}  // namespace
}  // namespace ranvier
