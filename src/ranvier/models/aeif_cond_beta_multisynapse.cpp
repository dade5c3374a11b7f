// NEST's aeif_cond_beta_multisynapse (models/aeif_multisynapse.hpp): each receptor's
// conductance a difference of exponentials, rising with tau_rise and decaying with tau_decay,
// scaled to peak at the weight (an alpha function where the two are equal).
#include "models/aeif_multisynapse.hpp"
#include "models/beta_peak.hpp"

namespace ranvier {
namespace {

struct Beta {
  static constexpr const char* name = "aeif_cond_beta_multisynapse";
  static std::vector<ListParameter> lists() {
    return {{"E_rev", {0.0}, "mV", "n_receptors", "g"},
            {"tau_rise", {2.0}, "ms", "", ""},
            {"tau_decay", {20.0}, "ms", "", ""}};
  }
  static void validate(const ListKind& kind) {
    const std::vector<double>&rise = kind.at("tau_rise"), &decay = kind.at("tau_decay");
    for (size_t q = 0; q < rise.size(); ++q) {
      if (!(rise[q] > 0)) throw bad_value("tau_rise", listed(rise), "> 0 throughout");
      if (!(decay[q] > 0)) throw bad_value("tau_decay", listed(decay), "> 0 throughout");
      if (!(decay[q] >= rise[q])) throw bad_value("tau_decay", listed(decay), ">= tau_rise throughout");
    }
  }
  static void time_constants(const ListKind& kind, std::vector<double>& rise, std::vector<double>& decay,
                             std::vector<double>& g0) {
    rise = kind.at("tau_rise");
    decay = kind.at("tau_decay");
    for (size_t q = 0; q < rise.size(); ++q) g0.push_back(beta_peak_factor(rise[q], decay[q]));
  }
};

using AeifCondBetaMultisynapse = aeif_multisynapse::Model<Beta>;

}  // namespace

RANVIER_REGISTER_NEURON_MODEL(AeifCondBetaMultisynapse);

}  // namespace ranvier
