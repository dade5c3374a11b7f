// The built-in synapse models with NEST's parameter names and defaults (weight in pA or nS,
// delay and tau_plus in ms).
#include "synapses/synapse_model.hpp"

namespace ranvier {
namespace {

SynapseBases& bases = SynapseBases::instance();
[[maybe_unused]] const bool registered =
    bases.add("static_synapse", {SynapseKind::static_synapse, {{"weight", 1.0}, {"delay", 1.0}}}) &&
    bases.add("stdp_pl_synapse_hom", {SynapseKind::stdp_pl_hom,
                                      {{"weight", 1.0},
                                       {"delay", 1.0},
                                       {"tau_plus", 20.0, &StdpPlParameters::tau_plus},
                                       {"lambda", 0.1, &StdpPlParameters::lambda},
                                       {"alpha", 1.0, &StdpPlParameters::alpha},
                                       {"mu", 0.4, &StdpPlParameters::mu}}});

}  // namespace
}  // namespace ranvier
