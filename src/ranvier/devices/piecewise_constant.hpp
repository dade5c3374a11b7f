// A value that changes at given times (NEST's amplitude_times/amplitude_values and
// rate_times/rate_values): the checks and the lookup that step_current_generator and
// inhomogeneous_poisson_generator share. Times are absolute (ms, > 0, strictly increasing
// steps) and kept as NEST keeps them when set (core/grid_times.hpp): within half a tic of a step
// on it; further off the grid refused unless allow_offgrid_times moves each to the end of its
// step.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/grid_times.hpp"
#include "devices/device_model.hpp"

namespace ranvier {

struct PiecewiseConstant final : PreparedStimulus {
  std::vector<int64_t> stamps;  // value i holds from the end of step stamps[i] - 1 on
  std::vector<double> values;
  // The value at the end of step `stamp` (0 before the first change); lookups for
  // ascending stamps move `next` on (start it at first()).
  size_t first(int64_t stamp) const {
    return size_t(std::upper_bound(stamps.begin(), stamps.end(), stamp) - stamps.begin());
  }
  double at(int64_t stamp, size_t& next) const {
    while (next < stamps.size() && stamps[next] <= stamp) ++next;
    return next == 0 ? 0.0 : values[next - 1];
  }
};

// NEST's sentences for a model's bad times and values (measured in NEST 3.10), carried in
// Ranvier's messages.
struct PiecewiseWords {
  const char* together;       // values set without times, or times without values
  const char* same_size;      // as many values as times
  const char* increasing;     // times in strictly increasing steps
  const char* positive;       // times after 0 (or after the current step)
  const char* offgrid_later;  // allow_offgrid_times set after the times
};

// Parameter indices of the times, the values and allow_offgrid_times in a device's values.
struct PiecewiseParameters {
  size_t times, values, offgrid;
  const char* times_name;
  const char* values_name;
  PiecewiseWords words;
  bool in_future = false;  // NEST refuses times at or before the current step (rate_times)

  // Ranvier's rule with NEST's sentence.
  static std::string with(const char* nest, const std::string& rule) { return rule + " (NEST: " + nest + ")"; }
  // The end of the step in which t lies (t itself on the grid).
  static int64_t stamp_of(double t, double h) { return int64_t(std::ceil(t / h - 1e-9)); }

  // Times just set as NEST keeps them (core/grid_times.hpp), and after the current step where
  // NEST asks it.
  void settle(Device& d, const std::vector<size_t>& changed, double h, int64_t tics_per_ms, int64_t now) const {
    if (std::find(changed.begin(), changed.end(), times) == changed.end()) return;
    std::vector<double>& t = std::get<std::vector<double>>(d.values[times]);
    const std::vector<double> given = t;
    for (double& x : t) {
      if (absurd_time(x, tics_per_ms)) continue;
      const int64_t s = grid_step(x, h, tics_per_ms, d.flag(offgrid), times_name, given);
      if (in_future && s <= now)
        throw bad_value(times_name, listed(given), with(words.positive, "after the current step"));
      x = ms_of_tics(s * tics_per_step(h, tics_per_ms), tics_per_ms);
    }
  }
  void validate(const Device& d, const std::vector<size_t>& changed, double h) const {
    const auto set = [&](size_t i) { return std::find(changed.begin(), changed.end(), i) != changed.end(); };
    const std::vector<double>& t = d.list(times);
    const std::vector<double>& v = d.list(values);
    if (set(times) != set(values))
      throw bad_value(
          set(times) ? times_name : values_name, listed(set(times) ? t : v),
          with(words.together, std::string("set together with ") + (set(times) ? values_name : times_name)));
    if (set(offgrid) && !set(times) && !t.empty())
      throw bad_value("allow_offgrid_times", d.flag(offgrid) ? "True" : "False",
                      with(words.offgrid_later, std::string("set before ") + times_name + " or together with them"));
    if (t.size() != v.size())
      throw bad_value(values_name, listed(v),
                      with(words.same_size, "one value per time (" + std::to_string(t.size()) + ")"));
    for (double x : v)
      if (std::isnan(x)) throw bad_value(values_name, listed(v), "free of NaN");
    int64_t previous = 0;
    for (double x : t) {
      if (!(x > 0)) throw bad_value(times_name, listed(t), with(words.positive, "> 0"));
      const int64_t stamp = stamp_of(x, h);
      if (stamp <= previous)
        throw bad_value(times_name, listed(t), with(words.increasing, "in strictly increasing steps"));
      previous = stamp;
    }
  }
  std::shared_ptr<const PiecewiseConstant> prepare(const Device& d, double h) const {
    auto out = std::make_shared<PiecewiseConstant>();
    for (double x : d.list(times)) out->stamps.push_back(stamp_of(x, h));
    out->values = d.list(values);
    return out;
  }
};

}  // namespace ranvier
