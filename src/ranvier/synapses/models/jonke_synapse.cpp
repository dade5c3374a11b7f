// jonke_synapse: the STDP rule of Jonke et al. (2017), as NEST 3.10 has it, with parameters common
// to the model: each post spike since the last pre spike adds lambda (e^(mu_plus w) K+ - beta)
// (up to Wmax), the pre spike adds lambda (-alpha e^(mu_minus w) K- - beta) (down to 0); lambda
// = 0 leaves the weight alone. K+ is per connection.
#include <cmath>

#include "synapses/models/pair_stdp.hpp"

namespace ranvier {
namespace {

enum Parameter { kWeight, kDelay, kTauPlus, kLambda, kAlpha, kBeta, kMuPlus, kMuMinus, kWmax };

struct Rule {
  enum Slot { k_plus, last_spike };  // the record: Kplus, then the last pre spike
  double lambda, alpha, beta, mu_plus, mu_minus, w_max;
  const DecayTable& plus;  // exp(-steps h / tau_plus)
  double facilitate(double w, double kp, const double*) const {
    if (lambda == 0.0) return w;
    const double grown = w + lambda * (std::exp(mu_plus * w) * kp - beta);
    return grown < w_max ? grown : w_max;
  }
  double depress(double w, double k_minus, const double*) const {
    if (lambda == 0.0) return w;
    const double shrunk = w + lambda * (-alpha * std::exp(mu_minus * w) * k_minus - beta);
    return shrunk > 0.0 ? shrunk : 0.0;
  }
  double decay(int64_t steps, const double*) const { return plus(steps); }
  double tau_plus(const double*) const { return plus.tau(); }
  double sign(const double*) const { return 1.0; }  // weights stay >= 0
};

template <bool Record>
void deliver(const SynapseEvent& e) {
  const SynapseModel& m = e.model;
  deliver_pair_stdp<Record>(e, Rule{m.value(kLambda), m.value(kAlpha), m.value(kBeta), m.value(kMuPlus),
                                    m.value(kMuMinus), m.value(kWmax), m.pre_decay()});
}

// Ranvier keeps a plastic weight's sign (its input row) for the connection's life; NEST takes a
// negative weight here, which the first depression sets to 0.
void check_weight(double w, const SynapseModel& m, const double*) {
  if (!(w >= 0.0)) throw bad_value("weight", w, ">= 0 for " + m.name);
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"tau_plus", 20.0, "ms", true, is_positive, "> 0"},
                                       {"lambda", 0.01, "", true},
                                       {"alpha", 1.0, "", true},
                                       {"beta", 0.0, "", true},
                                       {"mu_plus", 0.0, "", true},
                                       {"mu_minus", 0.0, "", true},
                                       {"Wmax", 100.0, weight_unit, true},
                                       {"Kplus", 0.0, "", false, is_non_negative, ">= 0"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .plastic = true,
                        .state = {0.0},
                        .pre_trace_tau = "tau_plus",
                        .post_trace_tau = "tau_minus",
                        .check_weight = check_weight};
[[maybe_unused]] const bool registered = register_synapse("jonke_synapse", &model);

}  // namespace
}  // namespace ranvier
