// NEST's gap_junction: a conductance (nS) between two neurons with gap junctions, made both
// ways (make_symmetric); no delay of its own: kernel/coupling.hpp carries the partners'
// potentials within the cycle.
#include "synapses/synapse_model.hpp"

namespace ranvier {
namespace {

const SynapseBase model{.parameters = {{"weight", 1.0, "nS"}, {"delay", 1.0, "ms", true}},
                        .secondary = SecondaryEvent::gap_junction};
// NEST has no _hpc or _lbl variant of it
[[maybe_unused]] const bool registered = SynapseBases::instance().add("gap_junction", &model);

}  // namespace
}  // namespace ranvier
