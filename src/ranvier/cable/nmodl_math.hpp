// What code generated from NMODL (python/ranvier/nmodl/cpp.py) computes with: NMODL's functions
// per lane of a Lanes, conversions of numbers and conditions to Lanes and masks, and the
// interface it implements (mechanism_kind.hpp).
#pragma once
#include <cmath>
#include <cstddef>

#include "cable/lanes.hpp"
#include "cable/mechanism_kind.hpp"

namespace ranvier::cable {

inline constexpr LaneBits kEveryLane = LaneBits{} - 1;

[[gnu::always_inline]] inline Lanes lanes(double x) { return broadcast(x); }
[[gnu::always_inline]] inline Lanes lanes(const Lanes& x) { return x; }
// A condition's lanes: a comparison's mask, or where a number is not 0.
[[gnu::always_inline]] inline LaneBits mask_of(const LaneBits& m) { return m; }
[[gnu::always_inline]] inline LaneBits mask_of(const Lanes& x) { return x != 0.0; }
[[gnu::always_inline]] inline LaneBits mask_of(double x) { return x != 0.0 ? kEveryLane : LaneBits{}; }

// libm's function on every lane (exp has its own, branch-free: lanes.hpp).
template <typename F>
[[gnu::always_inline]] inline Lanes each_lane(F f, const Lanes& x) {
  Lanes out;
  for (size_t l = 0; l < kLanes; ++l) out[l] = f(x[l]);
  return out;
}
template <typename F>
[[gnu::always_inline]] inline Lanes each_lane(F f, const Lanes& x, const Lanes& y) {
  Lanes out;
  for (size_t l = 0; l < kLanes; ++l) out[l] = f(x[l], y[l]);
  return out;
}
#define RANVIER_NMODL_FUNCTION(name)                            \
  inline Lanes name##_lanes(const Lanes& x) {                   \
    return each_lane([](double a) { return std::name(a); }, x); \
  }
#define RANVIER_NMODL_FUNCTION2(name)                                           \
  inline Lanes name##_lanes(const Lanes& x, const Lanes& y) {                   \
    return each_lane([](double a, double b) { return std::name(a, b); }, x, y); \
  }
RANVIER_NMODL_FUNCTION(log)
RANVIER_NMODL_FUNCTION(log10)
RANVIER_NMODL_FUNCTION(sqrt)
RANVIER_NMODL_FUNCTION(sin)
RANVIER_NMODL_FUNCTION(cos)
RANVIER_NMODL_FUNCTION(tan)
RANVIER_NMODL_FUNCTION(tanh)
RANVIER_NMODL_FUNCTION(floor)
RANVIER_NMODL_FUNCTION(ceil)
RANVIER_NMODL_FUNCTION2(pow)
RANVIER_NMODL_FUNCTION2(fmin)
RANVIER_NMODL_FUNCTION2(fmax)
#undef RANVIER_NMODL_FUNCTION
#undef RANVIER_NMODL_FUNCTION2
[[gnu::always_inline]] inline Lanes fabs_lanes(const Lanes& x) { return x < 0.0 ? -x : x; }

}  // namespace ranvier::cable
