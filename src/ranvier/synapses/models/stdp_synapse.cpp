// stdp_synapse and stdp_synapse_hom: STDP after Guetig et al. (2003), as NEST 3.10 has it
// (synapses/models/guetig.hpp; mu = 0 is additive, mu = 1 multiplicative STDP). stdp_synapse
// keeps every parameter per connection, stdp_synapse_hom shares them in the model; K+ is per
// connection in both.
#include "synapses/models/guetig.hpp"
#include "synapses/models/pair_stdp.hpp"

namespace ranvier {
namespace {

// stdp_synapse: the record holds the parameters, K+ and the last pre spike.
struct PerConnection {
  enum Slot { kTauPlus, kLambda, kAlpha, kMuPlus, kMuMinus, kWmax, k_plus, last_spike };
  double h;  // ms per step
  double facilitate(double w, double kp, const double* r) const { return guetig_of(r).facilitate(w, kp); }
  double depress(double w, double k_minus, const double* r) const { return guetig_of(r).depress(w, k_minus); }
  double decay(int64_t steps, const double* r) const { return std::exp(-double(steps) * h / r[kTauPlus]); }
  double tau_plus(const double* r) const { return r[kTauPlus]; }
  double sign(const double* r) const { return r[kWmax] >= 0.0 ? 1.0 : -1.0; }
};

// stdp_synapse_hom: the model holds the parameters (and the powers of its exponents); the
// record K+ and the last pre spike.
struct Common {
  enum Slot { k_plus, last_spike };
  enum Parameter { kWeight, kDelay, kTauPlus, kLambda, kAlpha, kMuPlus, kMuMinus, kWmax };
  GuetigRule<const PowerTable&> rule;
  const DecayTable& plus;
  double facilitate(double w, double kp, const double*) const { return rule.facilitate(w, kp); }
  double depress(double w, double k_minus, const double*) const { return rule.depress(w, k_minus); }
  double decay(int64_t steps, const double*) const { return plus(steps); }
  double tau_plus(const double*) const { return plus.tau(); }
  double sign(const double*) const { return rule.w_max >= 0.0 ? 1.0 : -1.0; }
};

template <bool Record>
void deliver_per_connection(const SynapseEvent& e) {
  deliver_pair_stdp<Record>(e, PerConnection{e.resolution});
}

template <bool Record>
void deliver_common(const SynapseEvent& e) {
  const SynapseModel& m = e.model;
  const GuetigRule<const PowerTable&> rule{m.value(Common::kLambda), m.value(Common::kAlpha), m.value(Common::kWmax),
                                           m.power(0), m.power(1)};
  deliver_pair_stdp<Record>(e, Common{rule, m.pre_decay()});
}

void check_per_connection(double w, const SynapseModel&, const double* record) {
  check_sign(w, record[PerConnection::kWmax]);
}
void check_common(double w, const SynapseModel& m, const double*) { check_sign(w, m.value(Common::kWmax)); }

// NEST's defaults; K+ is per connection in both models.
const SynapseBase per_connection{.parameters = {{"weight", 1.0, weight_unit},
                                                {"delay", 1.0, "ms"},
                                                {"tau_plus", 20.0, "ms", false, is_positive, "> 0"},
                                                {"lambda", 0.01, ""},
                                                {"alpha", 1.0, ""},
                                                {"mu_plus", 1.0, ""},
                                                {"mu_minus", 1.0, ""},
                                                {"Wmax", 100.0, weight_unit},
                                                {"Kplus", 0.0, "", false, is_non_negative, ">= 0"}},
                                 .deliver = {deliver_per_connection<false>, deliver_per_connection<true>},
                                 .plastic = true,
                                 .state = {0.0},
                                 .post_trace_tau = "tau_minus",
                                 .check_weight = check_per_connection};
const SynapseBase common{.parameters = {{"weight", 1.0, weight_unit},
                                        {"delay", 1.0, "ms"},
                                        {"tau_plus", 20.0, "ms", true, is_positive, "> 0"},
                                        {"lambda", 0.01, "", true},
                                        {"alpha", 1.0, "", true},
                                        {"mu_plus", 1.0, "", true},
                                        {"mu_minus", 1.0, "", true},
                                        {"Wmax", 100.0, weight_unit, true},
                                        {"Kplus", 0.0, "", false, is_non_negative, ">= 0"}},
                         .deliver = {deliver_common<false>, deliver_common<true>},
                         .plastic = true,
                         .state = {0.0},
                         .pre_trace_tau = "tau_plus",
                         .post_trace_tau = "tau_minus",
                         .exponents = {"mu_plus", "mu_minus"},
                         .check_weight = check_common};
[[maybe_unused]] const bool registered =
    register_synapse("stdp_synapse", &per_connection) && register_synapse("stdp_synapse_hom", &common);

}  // namespace
}  // namespace ranvier
