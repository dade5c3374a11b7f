// NEST's aeif_cond_alpha_multisynapse (models/aeif_multisynapse.hpp): each receptor's
// conductance an alpha function of time constant tau_syn.
#include "models/aeif_multisynapse.hpp"

namespace ranvier {
namespace {

struct Alpha {
  static constexpr const char* name = "aeif_cond_alpha_multisynapse";
  static std::vector<ListParameter> lists() {
    return {{"E_rev", {0.0}, "mV", "n_receptors", "g"}, {"tau_syn", {2.0}, "ms", "", ""}};
  }
  static void validate(const ListKind& kind) {
    for (double t : kind.at("tau_syn"))
      if (!(t > 0)) throw bad_value("tau_syn", listed(kind.at("tau_syn")), "> 0 throughout");
  }
  static void time_constants(const ListKind& kind, std::vector<double>& rise, std::vector<double>& decay,
                             std::vector<double>& g0) {
    rise = decay = kind.at("tau_syn");
    for (double t : decay) g0.push_back(M_E / t);
  }
};

using AeifCondAlphaMultisynapse = aeif_multisynapse::Model<Alpha>;

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(AeifCondAlphaMultisynapse);

}  // namespace ranvier
