// Spike times as NEST keeps them when a user sets them (spike_generator without precise_times,
// spike_train_injector; measured in NEST 3.10): sorted, not 0; a time within half a tic of a
// step is that step's time; another moves to the end of its step with allow_offgrid_times and
// is refused otherwise; with shift_now_spikes a time at the current step moves one step on.
// The messages carry NEST's words, which its users' scripts may match.
#pragma once
#include <cmath>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "core/tics.hpp"

namespace ranvier {

struct SpikeTimeRules {
  bool allow_offgrid = false, shift_now = false;
  int64_t now = 0;  // the current step, counted from the times' origin
};

inline void settle_spike_times(std::vector<double>& times, double h, int64_t tics_per_ms, const SpikeTimeRules& rules) {
  const std::vector<double> given = times;
  const int64_t step_tics = tics_per_step(h, tics_per_ms);
  for (size_t k = 0; k < times.size(); ++k) {
    const double t = given[k];
    if (std::isnan(t) || (k > 0 && given[k - 1] > t))
      throw bad_value("spike_times", listed(given), "sorted in non-descending order");
    if (t == 0.0 && !rules.shift_now)
      throw bad_value("spike_times", listed(given), "free of 0 (a spike time cannot be set to 0)");
    if (!(std::abs(t) * double(tics_per_ms) < 1e18)) continue;  // the absurd: the model's checks name it
    const int64_t tics = std::llround(t * double(tics_per_ms));
    int64_t s = tics / step_tics;
    if (tics % step_tics != 0) {
      if (!rules.allow_offgrid) {
        std::ostringstream rule;
        rule << "on the grid (Time point " << t << " is not representable in current resolution " << h
             << " ms), or off it with allow_offgrid_times";
        throw bad_value("spike_times", listed(given), rule.str());
      }
      s += tics > 0;  // the end of the step it lies in
    }
    if (rules.shift_now && s == rules.now) ++s;
    times[k] = ms_of_tics(s * step_tics, tics_per_ms);
  }
}

}  // namespace ranvier
