// NEST's ignore-and-spike mechanism (IgnoreAndSpikeMechanism): a neuron set to ignore_and_spike
// ignores its dynamics' spikes and spikes ignore_and_spike_offset after the offset was set, then
// every ignore_and_spike_interval. A model adds the variables (in this order) and asks `spikes`.
#pragma once
#include <cstdint>
#include <vector>

#include "core/errors.hpp"
#include "models/flush_clock.hpp"

namespace ranvier::ignore_and_spike {

inline std::vector<Variable> variables() {
  return {{"ignore_and_spike", 0.0, "", true},
          {"ignore_and_spike_offset", 1.0, "ms"},
          {"ignore_and_spike_interval", 100.0, "ms"}};
}

// NEST's checks, the variables from index `first` on.
inline void validate(const NeuronGroup& g, size_t i, int first) {
  const double offset = g.vars[size_t(first + 1)][i], interval = g.vars[size_t(first + 2)][i];
  if (!(offset > 0)) throw bad_value("ignore_and_spike_offset", offset, "> 0");
  if (!(interval > 0)) throw bad_value("ignore_and_spike_interval", interval, "> 0");
}

// Whether neuron i spikes in this step, `wants` where its dynamics decide; `countdown` holds the
// steps to its next forced spike (< 0: to be counted from the offset).
template <class Count>
bool spikes(const NeuronGroup& g, size_t i, int first, const UpdateContext& ctx, bool wants, Count& countdown) {
  if (g.vars[size_t(first)][i] == 0.0) return wants;
  if (countdown < 0) countdown = Count(whole_steps(ctx, g.vars[size_t(first + 1)][i]));
  if (--countdown != 0) return false;
  countdown = Count(whole_steps(ctx, g.vars[size_t(first + 2)][i]));
  return true;
}

}  // namespace ranvier::ignore_and_spike
