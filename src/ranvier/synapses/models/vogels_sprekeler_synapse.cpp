// vogels_sprekeler_synapse: inhibitory plasticity after Vogels et al. (2011), as NEST 3.10
// has it. Each post spike adds eta K+ (the pre trace, decaying with tau, seen at that post
// spike); each pre spike adds eta K- (the post trace of the target, with its tau_minus) and
// subtracts the constant alpha eta. |w| stays in [0, |Wmax|], w takes the sign of Wmax.
// Every parameter and K+ are per connection.
#include "synapses/models/pair_stdp.hpp"

namespace ranvier {
namespace {

struct Rule {
  enum Slot { kTau, kEta, kAlpha, kWmax, k_plus, last_spike };
  double h;  // ms per step
  static double facilitated(double w, double trace, const double* r) {
    const double grown = std::abs(w) + r[kEta] * trace;
    return std::copysign(grown < std::abs(r[kWmax]) ? grown : r[kWmax], r[kWmax]);
  }
  double facilitate(double w, double kp, const double* r) const { return facilitated(w, kp, r); }
  // at a pre spike: the post trace's facilitation, then the constant depression
  double depress(double w, double k_minus, const double* r) const {
    const double shrunk = std::abs(facilitated(w, k_minus, r)) - r[kAlpha] * r[kEta];
    return std::copysign(shrunk > 0.0 ? shrunk : 0.0, r[kWmax]);
  }
  double decay(int64_t steps, const double* r) const { return std::exp(-double(steps) * h / r[kTau]); }
  double tau_plus(const double* r) const { return r[kTau]; }
  double sign(const double* r) const { return std::signbit(r[kWmax]) ? -1.0 : 1.0; }
};

template <bool Record>
void deliver(const SynapseEvent& e) {
  deliver_pair_stdp<Record>(e, Rule{e.resolution});
}

// NEST: "Weight and Wmax must have same sign" (a zero weight has any sign).
void check_weight(double w, const SynapseModel&, const double* r) {
  if (w != 0.0 && std::signbit(w) != std::signbit(r[Rule::kWmax]))
    throw bad_value("weight", w, "of the sign of Wmax = " + std::to_string(r[Rule::kWmax]));
}

const SynapseBase model{.parameters = {{"weight", 0.5, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"tau", 20.0, "ms", false, is_positive, "> 0"},
                                       {"eta", 0.001, ""},
                                       {"alpha", 0.12, ""},
                                       {"Wmax", 1.0, weight_unit},
                                       {"Kplus", 0.0, "", false, is_non_negative, ">= 0"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .plastic = true,
                        .state = {0.0},
                        .post_trace_tau = "tau_minus",
                        .check_weight = check_weight};
[[maybe_unused]] const bool registered = register_synapse("vogels_sprekeler_synapse", &model);

}  // namespace
}  // namespace ranvier
