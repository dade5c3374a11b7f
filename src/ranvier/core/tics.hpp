// Time in tics, as NEST represents it: tics_per_ms is a kernel setting (NEST's default 1000,
// a tic of 1 us) and the resolution a whole number of tics. Times reach the user as the double
// nearest to the decimal grid time: one correctly rounded division of integer tics.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/errors.hpp"

namespace ranvier {

inline constexpr int64_t default_tics_per_ms = 1000;
// The end of a window that never closes (a device's or a spike_train_injector's stop): NEST
// shows it as the largest double, and takes infinity for it.
inline constexpr double never_ms = std::numeric_limits<double>::max();

// The tics of one step of h ms; throws naming h unless it is a whole number (>= 1) of tics, and
// naming tics_per_ms unless that is positive (NEST's rules).
inline int64_t tics_per_step(double h, int64_t tics_per_ms) {
  if (tics_per_ms < 1) throw bad_value("tics_per_ms", tics_per_ms, "a positive integer");
  const double tics = h * double(tics_per_ms);
  const auto tics_named = [&] { return " (" + std::to_string(tics_per_ms) + " tics per ms)"; };
  if (!(std::round(tics) >= 1.0)) throw bad_value("resolution", h, "at least one tic" + tics_named());
  if (std::abs(tics - std::round(tics)) > 1e-9 * tics)
    throw bad_value("resolution", h, "a multiple of the tic length" + tics_named());
  return std::llround(tics);
}

// An off-grid time `offset` ms before the end of its step, in whole tics (the exchange carries
// these), taken up: the time's position from the step's start is rounded down to a whole tic,
// so that the dt step holding the time (where Arbor delivers an event; dt a whole number of
// tics) is exactly that of the time: floor(floor(x) / n) = floor(x / n). An offset within 1e-6
// tic above a whole tic counts as on it: decimal times such as 10.025 ms are a hair off in
// binary. 0: on the grid; step_tics: at the step's start.
inline uint32_t offset_in_tics(double offset, int64_t tics_per_ms, int64_t step_tics) {
  if (!(offset > 0.0)) return 0;
  return uint32_t(std::clamp<int64_t>(int64_t(std::ceil(offset * double(tics_per_ms) - 1e-6)), 0, step_tics));
}

inline double ms_of_tics(int64_t tics, int64_t tics_per_ms) { return double(tics) / double(tics_per_ms); }

// Grid times in ms as NEST's own arithmetic has them, for rules that compute with times as
// NEST does, to its last bit: a time's tics times the tic's length (Time::get_ms), a delay's
// steps times the step's length (Time::delay_steps_to_ms).
struct NestTime {
  int64_t step_tics = 100, tics_per_ms = default_tics_per_ms;
  double operator()(int64_t steps) const { return (1.0 / double(tics_per_ms)) * double(steps * step_tics); }
  double delay(int64_t steps) const { return double(steps) * (double(step_tics) / double(tics_per_ms)); }
};

// A duration (a refractory period) in whole steps as NEST's Time takes it: to the nearest tic,
// then up to a whole step (at h = 1 ms: 0.1 ms is one step, 1.4 ms two, 2.0 ms two).
inline int32_t duration_steps(double ms, int64_t tics_per_ms, int64_t step_tics) {
  const int64_t tics = std::max<int64_t>(std::llround(ms * double(tics_per_ms)), 0);
  return int32_t((tics + step_tics - 1) / step_tics);
}

// A device's origin, start or stop as NEST takes it: rounded to whole tics, then refused unless
// a whole number of steps; never_ms and above (infinity) are never_ms.
inline double grid_ms(const std::string& name, double ms, double h, int64_t tics_per_ms) {
  if (ms >= never_ms) return never_ms;
  if (!std::isfinite(ms)) return ms;
  const int64_t tics = std::llround(ms * double(tics_per_ms));
  if (tics % tics_per_step(h, tics_per_ms) != 0)
    throw bad_value(name, ms, "a multiple of the simulation resolution " + std::to_string(h) + " ms");
  return ms_of_tics(tics, tics_per_ms);
}

}  // namespace ranvier
