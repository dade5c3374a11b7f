// Time in tics, as NEST represents it: tics_per_ms is a kernel setting (NEST's default 1000,
// a tic of 1 us) and the resolution a whole number of tics. Times reach the user as the double
// nearest to the decimal grid time: one correctly rounded division of integer tics.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "core/errors.hpp"

namespace ranvier {

inline constexpr int64_t default_tics_per_ms = 1000;

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

inline double ms_of_tics(int64_t tics, int64_t tics_per_ms) { return double(tics) / double(tics_per_ms); }

}  // namespace ranvier
