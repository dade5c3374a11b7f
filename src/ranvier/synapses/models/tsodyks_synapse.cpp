// tsodyks_synapse and tsodyks_synapse_hom: short-term depression and facilitation after
// Tsodyks et al. (2000), eqs. 3 and 4 solved exactly between spikes, as NEST 3.10 does:
// resources recover (x), are in use (y, decaying with tau_psc) or inactive (z = 1 - x - y); u
// facilitates with tau_fac. Each spike releases u x of the resources, which scales the weight.
// tsodyks_synapse keeps everything per connection, tsodyks_synapse_hom shares the weight, U
// and the time constants in the model. (NEST's hom variant, as read in its source, computes
// the decay of z with exp rather than expm1: values differ in the last bits, within 1e-12 of
// NEST's run in tests/test_synapse_models.py.)
#include "kernel/synapse_event.hpp"

namespace ranvier {
namespace {

struct Tsodyks {
  double U, tau_psc, tau_fac, tau_rec;
  // Advances the state (x, y, u, then the last spike in ms) to a spike; returns u x released.
  double release(double* s, double t_spike) const {
    enum { x, y, u, last };
    const double h = t_spike - s[last];  // from 0 before the first spike, as in NEST
    const double p_uu = tau_fac == 0.0 ? 0.0 : std::exp(-h / tau_fac);
    const double p_yy = std::exp(-h / tau_psc);
    const double p_zz = std::expm1(-h / tau_rec);  // decay of z, minus 1
    const double p_xy = (p_zz * tau_rec - (p_yy - 1.0) * tau_psc) / (tau_psc - tau_rec);
    const double z = 1.0 - s[x] - s[y];
    s[u] *= p_uu;
    s[x] += p_xy * s[y] - p_zz * z;
    s[y] *= p_yy;
    s[u] += U * (1.0 - s[u]);
    const double released = s[u] * s[x];
    s[x] -= released;
    s[y] += released;
    s[last] = t_spike;
    return released;
  }
};

// Record slots of tsodyks_synapse: the per-connection parameters after weight and delay, then
// the last spike (ms); tsodyks_synapse_hom's record starts at kX.
enum Slot { kU, kTauPsc, kTauFac, kTauRec, kX, kY, kUse, kLastSpike };
enum Parameter { kWeight, kDelay, kCommonU, kCommonTauPsc, kCommonTauFac, kCommonTauRec };

template <bool Record>
void deliver(const SynapseEvent& e) {
  scatter_scaled<Record>(e, [](double* r, double t_spike) {
    return Tsodyks{r[kU], r[kTauPsc], r[kTauFac], r[kTauRec]}.release(r + kX, t_spike);
  });
}

template <bool Record>
void deliver_common(const SynapseEvent& e) {
  const SynapseModel& m = e.model;
  const Tsodyks rule{m.value(kCommonU), m.value(kCommonTauPsc), m.value(kCommonTauFac), m.value(kCommonTauRec)};
  const double w = m.value(kWeight);
  scatter_scaled<Record>(e, &w, 0, [&](double* r, double t_spike) { return rule.release(r, t_spike); });
}

// x + y <= 1, from the first of the two in the record.
template <size_t first>
void check(const double* r) {
  if (!(r[first] + r[first + 1] <= 1.0)) throw bad_value("x + y", r[first] + r[first + 1], "<= 1");
}

const SynapseBase model{.parameters = {{"weight", 1.0, weight_unit},
                                       {"delay", 1.0, "ms"},
                                       {"U", 0.5, "", false, is_probability, "in [0, 1]"},
                                       {"tau_psc", 3.0, "ms", false, is_positive, "> 0"},
                                       {"tau_fac", 0.0, "ms", false, is_non_negative, ">= 0"},
                                       {"tau_rec", 800.0, "ms", false, is_positive, "> 0"},
                                       {"x", 1.0, ""},
                                       {"y", 0.0, ""},
                                       {"u", 0.0, "", false, is_probability, "in [0, 1]"}},
                        .deliver = {deliver<false>, deliver<true>},
                        .state = {0.0},
                        .check = check<kX>};
const SynapseBase common{.parameters = {{"weight", 1.0, weight_unit, true},
                                        {"delay", 1.0, "ms"},
                                        {"U", 0.5, "", true, is_probability, "in [0, 1]"},
                                        {"tau_psc", 3.0, "ms", true, is_positive, "> 0"},
                                        {"tau_fac", 0.0, "ms", true, is_non_negative, ">= 0"},
                                        {"tau_rec", 800.0, "ms", true, is_positive, "> 0"},
                                        {"x", 1.0, ""},
                                        {"y", 0.0, ""},
                                        {"u", 0.0, "", false, is_probability, "in [0, 1]"}},
                         .deliver = {deliver_common<false>, deliver_common<true>},
                         .common_weight = true,
                         .state = {0.0},
                         .check = check<0>};
[[maybe_unused]] const bool registered =
    register_synapse("tsodyks_synapse", &model) && register_synapse("tsodyks_synapse_hom", &common);

}  // namespace
}  // namespace ranvier
