// A value that changes at given times (NEST's amplitude_times/amplitude_values and
// rate_times/rate_values): the checks and the lookup that step_current_generator and
// inhomogeneous_poisson_generator share. Times are absolute (ms, > 0, strictly increasing
// steps); off the grid they are refused unless allow_offgrid_times moves each to the end of
// its step.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
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

// Parameter indices of the times, the values and allow_offgrid_times in a device's values.
struct PiecewiseParameters {
  size_t times, values, offgrid;
  const char* times_name;
  const char* values_name;

  // The end of the step in which t lies (t itself on the grid).
  static int64_t stamp_of(double t, double h) { return int64_t(std::ceil(t / h - 1e-9)); }

  void validate(const Device& d, const std::vector<size_t>& changed, double h) const {
    const auto set = [&](size_t i) { return std::find(changed.begin(), changed.end(), i) != changed.end(); };
    const std::vector<double>& t = d.list(times);
    const std::vector<double>& v = d.list(values);
    if (set(times) != set(values))
      throw bad_value(set(times) ? times_name : values_name, listed(set(times) ? t : v),
                      std::string("set together with ") + (set(times) ? values_name : times_name));
    if (set(offgrid) && !set(times) && !t.empty())
      throw bad_value("allow_offgrid_times", d.flag(offgrid) ? "True" : "False",
                      std::string("set before ") + times_name + " or together with them");
    if (t.size() != v.size())
      throw bad_value(values_name, listed(v), "one value per time (" + std::to_string(t.size()) + ")");
    for (double x : v)
      if (std::isnan(x)) throw bad_value(values_name, listed(v), "free of NaN");
    int64_t previous = 0;
    for (double x : t) {
      if (!(x > 0)) throw bad_value(times_name, listed(t), "> 0");
      if (!d.flag(offgrid) && std::abs(std::rint(x / h) * h - x) > 1e-9 * std::max(1.0, x))
        throw bad_value(times_name, listed(t),
                        "on the grid of resolution " + std::to_string(h) + " ms (or allow_offgrid_times)");
      const int64_t stamp = stamp_of(x, h);
      if (stamp <= previous) throw bad_value(times_name, listed(t), "in strictly increasing steps");
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
