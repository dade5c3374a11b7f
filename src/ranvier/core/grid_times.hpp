// Times a user sets (spike times, the change times of piecewise constant devices) as NEST 3.10
// keeps them (measured there): a time within half a tic of a step is that step's time; another
// moves to the end of its step where off-grid times are allowed and is refused otherwise. The
// messages carry NEST's words, which its users' scripts may match.
#pragma once
#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "core/tics.hpp"

namespace ranvier {

// The step at whose end time t of the list `given` (parameter `name`) lies as NEST keeps it.
inline int64_t grid_step(double t, double h, int64_t tics_per_ms, bool allow_offgrid, const char* name,
                         const std::vector<double>& given) {
  const int64_t step_tics = tics_per_step(h, tics_per_ms);
  const int64_t tics = std::llround(t * double(tics_per_ms));
  if (tics % step_tics == 0) return tics / step_tics;
  if (!allow_offgrid) {
    std::ostringstream rule;
    rule << "on the grid (Time point " << t << " is not representable in current resolution " << h
         << " ms), or off it with allow_offgrid_times";
    throw bad_value(name, listed(given), rule.str());
  }
  return tics / step_tics + (tics > 0);  // the end of the step it lies in
}

// Whether ms is a whole multiple of `unit` (ms), to NEST's tolerance for times given in ms.
inline bool whole_multiple(double ms, double unit) {
  return std::isfinite(ms) && std::fabs(std::round(ms / unit) * unit - ms) <= 1e-9 * std::max(1.0, std::fabs(ms));
}

// A time far beyond any simulation (tics would overflow): left to the model's checks.
inline bool absurd_time(double t, int64_t tics_per_ms) { return !(std::abs(t) * double(tics_per_ms) < 1e18); }

// Spike times (spike_generator without precise_times, spike_train_injector): sorted, not 0,
// on the grid as above; with shift_now a time at the current step moves one step on.
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
    if (absurd_time(t, tics_per_ms)) continue;
    int64_t s = grid_step(t, h, tics_per_ms, rules.allow_offgrid, "spike_times", given);
    if (rules.shift_now && s == rules.now) ++s;
    times[k] = ms_of_tics(s * step_tics, tics_per_ms);
  }
}

}  // namespace ranvier
