// NEST 3.10's urbanczik_synapse (Urbanczik and Senn 2014): at each spike of its source the
// synapse integrates its target's Urbanczik history (models/urbanczik.hpp) since the source's
// last spike, through its dendritic delay, weighted by the postsynaptic potential its spikes
// evoke in the dendrite (the difference of the presynaptic traces with the dendrite's membrane
// and synaptic time constants); the weight is its value at the first spike plus that integral
// less its low-pass filtered version (tau_Delta), scaled by eta, within [Wmin, Wmax]. The spike
// transmits the new weight. Times in ms as NEST computes them.
#include <cmath>
#include <limits>

#include "kernel/synapse_event.hpp"
#include "models/urbanczik.hpp"

namespace ranvier {
namespace {

// The record: parameters, then the weight the learning started from (NaN until the first
// spike, which takes the weight then), the integrals, the traces and the last spike's step (-1: none).
enum Slot {
  tau_Delta,
  eta,
  Wmin,
  Wmax,
  init_weight,
  PI_integral,
  PI_exp_integral,
  tau_L_trace,
  tau_s_trace,
  last_spike
};

template <bool Record>
void deliver(const SynapseEvent& e) {
  const double t_spike = e.time(e.stamp);
  deliver_learnt<Record>(e, [&](const InputOwner& owner, double* r, int64_t d, double w) {
    UrbanczikState& state = urbanczik_state(*owner.group);
    const UrbanczikState::Dendrite& dendrite = state.dendrite[owner.neuron];
    if (std::isnan(r[init_weight])) r[init_weight] = w;
    const bool before = r[last_spike] < 0.0;  // no spike yet: NEST's t_lastspike of -1 ms
    const double d_ms = e.time.delay(d), t_last = before ? -1.0 : e.time(int64_t(r[last_spike]));
    const double tau_L = dendrite.C_m / dendrite.g_L;
    const double tau_s = w > 0.0 ? dendrite.tau_syn_ex : dendrite.tau_syn_in;
    const int64_t from = before ? std::numeric_limits<int64_t>::min() : int64_t(r[last_spike]) - d;
    double dPI_exp_integral = 0.0;
    state.histories[owner.neuron].visit(from, e.stamp - d, [&](int64_t stamp, double dPI) {
      const double t_up = e.time(stamp) + d_ms;
      const double minus_delta_t_up = t_last - t_up, minus_t_down = t_up - t_spike;
      const double PI =
          (r[tau_L_trace] * std::exp(minus_delta_t_up / tau_L) - r[tau_s_trace] * std::exp(minus_delta_t_up / tau_s)) *
          dPI;
      r[PI_integral] += PI;
      dPI_exp_integral += std::exp(minus_t_down / r[tau_Delta]) * PI;
    });
    r[PI_exp_integral] = std::exp((t_last - t_spike) / r[tau_Delta]) * r[PI_exp_integral] + dPI_exp_integral;
    w = r[PI_integral] - r[PI_exp_integral];
    w = r[init_weight] + w * 15.0 * dendrite.C_m * tau_s * r[eta] / (dendrite.g_L * (tau_L - tau_s));
    w = w > r[Wmax] ? r[Wmax] : (w < r[Wmin] ? r[Wmin] : w);
    r[tau_L_trace] = r[tau_L_trace] * std::exp((t_last - t_spike) / tau_L) + 1.0;
    r[tau_s_trace] = r[tau_s_trace] * std::exp((t_last - t_spike) / tau_s) + 1.0;
    r[last_spike] = double(e.stamp);
    return w;
  });
}

// NEST: the weight has the sign of Wmax (zero counting as negative for Wmax).
void check_weight(double w, const SynapseModel&, const double* r) {
  if (std::signbit(w) != std::signbit(r[Wmax]) || (w >= 0.0) != (r[Wmax] > 0.0))
    throw bad_value("weight", w, "of the sign of Wmax = " + std::to_string(r[Wmax]));
}

const SynapseBase urbanczik{.parameters = {{"weight", 1.0, weight_unit},
                                           {"delay", 1.0, "ms"},
                                           {"tau_Delta", 100.0, "ms", false, is_positive, "> 0"},
                                           {"eta", 0.07, ""},
                                           {"Wmin", 0.0, weight_unit},
                                           {"Wmax", 100.0, weight_unit}},
                            .deliver = {deliver<false>, deliver<true>},
                            .plastic = true,
                            .own_records = true,
                            .post_history = PostHistory::urbanczik,
                            .state = {std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0, 0.0, 0.0, -1.0},
                            .check_weight = check_weight};
[[maybe_unused]] const bool registered = register_synapse("urbanczik_synapse", &urbanczik);

}  // namespace
}  // namespace ranvier
