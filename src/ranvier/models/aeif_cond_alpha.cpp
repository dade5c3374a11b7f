// NEST's aeif_cond_alpha (models/aeif_cond_alpha.hpp).
#include "models/aeif_cond_alpha.hpp"

namespace ranvier {

using aeif::AeifCondAlpha;
RANVIER_REGISTER_NEURON_MODEL(AeifCondAlpha);

}  // namespace ranvier
