// stdp_pl_synapse_hom: power-law STDP (Morrison et al. 2007) with parameters common to the
// model: facilitation by lambda w^mu K+, depression by lambda alpha w K-.
#include "synapses/models/pair_stdp.hpp"

namespace ranvier {
namespace {

// Positions in the parameter list below.
enum Parameter { kWeight, kDelay, kTauPlus, kLambda, kAlpha, kMu };

struct Rule {
  enum Slot { k_plus, last_spike };  // the record: Kplus (NEST's per-connection parameter), then hidden state
  double lambda, alpha;
  const PowerTable& w_mu;  // w^mu
  const DecayTable& plus;  // exp(-steps h / tau_plus)
  double facilitate(double w, double kp, const double*) const { return w + lambda * w_mu(w) * kp; }
  double depress(double w, double k_minus, const double*) const {
    const double next = w - lambda * alpha * w * k_minus;
    return next > 0.0 ? next : 0.0;
  }
  double decay(int64_t steps, const double*) const { return plus(steps); }
  double tau_plus(const double*) const { return plus.tau(); }
  double sign(const double*) const { return 1.0; }  // weights stay >= 0
};

template <bool Record>
void deliver(const SynapseEvent& e) {
  deliver_pair_stdp<Record>(e,
                            Rule{e.model.value(kLambda), e.model.value(kAlpha), e.model.power(0), e.model.pre_decay()});
}

void check_weight(double w, const SynapseModel& m, const double*) {
  if (!(w >= 0.0)) throw bad_value("weight", w, ">= 0 for " + m.name);
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"tau_plus", 20.0, "ms", true, is_positive, "> 0"},
                                       {"lambda", 0.1, "", true},
                                       {"alpha", 1.0, "", true},
                                       {"mu", 0.4, "", true},
                                       {"Kplus", 0.0, "", false, is_non_negative, ">= 0"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .plastic = true,
                        .state = {0.0},
                        .pre_trace_tau = "tau_plus",
                        .post_trace_tau = "tau_minus",
                        .exponents = {"mu"},
                        .check_weight = check_weight};
[[maybe_unused]] const bool registered = register_synapse("stdp_pl_synapse_hom", &model);

}  // namespace
}  // namespace ranvier
