// What NEST 3.10's e-prop neurons share (models/eprop_iaf.cpp, models/eprop_readout.cpp): the
// history's parameter and recordable, the surrogate gradients of the recurrent neurons, their
// flush events and NEST's ignore-and-spike mechanism (a neuron that ignores its input and
// spikes at fixed intervals).
#pragma once
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "models/eprop_model.hpp"
#include "models/flush_clock.hpp"
#include "models/ignore_and_spike.hpp"

namespace ranvier::eprop {

// The surrogate gradient (pseudo-derivative) psi of a recurrent neuron's spike at potential v
// relative to threshold v_th, 0 while refractory; the choices of surrogate_gradient_function.
inline const std::vector<std::string> surrogate_names = {"piecewise_linear", "exponential", "fast_sigmoid_derivative",
                                                         "arctan_derivative"};
inline double surrogate(int choice, int32_t refractory, double v, double v_th, double height, double width) {
  if (refractory > 0) return 0.0;
  switch (choice) {
    case 1:
      return height * std::exp(-std::abs(v - v_th) / width);
    case 2:
      return height * std::pow(1.0 + std::abs(v - v_th) / width, -2.0);
    case 3:
      return height / (1.0 + std::pow((v - v_th) / width, 2.0));
    default:
      return height * std::max(0.0, 1.0 - std::abs(v - v_th) / width);
  }
}

constexpr double infinite = std::numeric_limits<double>::infinity();
constexpr double lowest = -std::numeric_limits<double>::max();

// The variable every e-prop neuron has, and its recordable beyond its variables.
inline const Variable cutoff_variable{"eprop_isi_trace_cutoff", infinite, "ms"};
inline const char* const history_duration = "eprop_history_duration";

// The flush and ignore-and-spike variables of the recurrent neurons, in this order.
inline std::vector<Variable> spike_mechanism_variables() {
  std::vector<Variable> v = {{"flush_event_send_interval", infinite, "ms"}};
  for (const Variable& m : ignore_and_spike::variables()) v.push_back(m);
  return v;
}

// NEST's checks of those, at variable index `first` on.
inline void validate_spike_mechanisms(const NeuronGroup& g, size_t i, int first) {
  if (!(g.vars[size_t(first)][i] > 0)) throw bad_value("flush_event_send_interval", g.vars[size_t(first)][i], "> 0");
  ignore_and_spike::validate(g, i, first + 1);
}

// Whether neuron i spikes in step t (`wants`: its dynamics say so, unless ignore_and_spike
// forces its spikes); a flush event where it does not and one is due.
inline bool spike_or_flush(NeuronGroup& g, size_t i, int first, UpdateContext& ctx, int lag, bool wants) {
  EpropState& s = static_cast<EpropState&>(*g.state);
  const bool spiked = ignore_and_spike::spikes(g, i, first + 1, ctx, wants, s.steps_to_spike[i]);
  if (spiked) ctx.spike(g, i, lag);
  s.flushes.step(g, i, ctx, lag, spiked, g.vars[size_t(first)][i]);
  return spiked;
}

}  // namespace ranvier::eprop
