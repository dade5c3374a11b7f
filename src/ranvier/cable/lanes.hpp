// The values of one node (or mechanism instance) for kLanes cells at once, as a GCC/Clang vector
// type: every operation is the same instruction sequence for every lane (straight-line, no
// branches on the cell), which is what makes a cell's results independent of its lane. exp is our
// own, branch-free, so that the hh update vectorises too (libm's exp is a call per lane).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "core/exp_series.hpp"
#include "core/simd_clones.hpp"  // the functions that step cells: exp is our own, the same in each

// Lanes are returned by value only from always-inlined functions, so GCC's note that their calling
// convention differs with and without AVX-512 does not apply; it would also be raised where the
// includer uses them, hence no push/pop.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace ranvier::cable {

inline constexpr size_t kLanes = 8;
using Lanes = double __attribute__((vector_size(kLanes * sizeof(double))));
using LaneBits = int64_t __attribute__((vector_size(kLanes * sizeof(int64_t))));

// Arrays of Lanes aligned to their size: the alignment of a vector type depends on the target it
// is compiled for, and code for wider vectors is chosen at run time (cable_group.cpp).
template <class T>
struct SizeAligned {
  using value_type = T;
  SizeAligned() = default;
  template <class U>
  SizeAligned(const SizeAligned<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(sizeof(T)))); }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t(sizeof(T))); }
  bool operator==(const SizeAligned&) const { return true; }
};
using LaneRows = std::vector<Lanes, SizeAligned<Lanes>>;

[[gnu::always_inline]] inline Lanes broadcast(double x) { return Lanes{} + x; }

// exp(x) within 2 ulp (core/exp_series.hpp), x clamped to [-708, 709].
[[gnu::always_inline]] inline Lanes exp_lanes(const Lanes& arg) {
  Lanes x = arg < -708.0 ? broadcast(-708.0) : arg;
  x = x > 709.0 ? broadcast(709.0) : x;
  return exp_series<Lanes, LaneBits>(x);
}

// hh.mod's x / (exp(x/y) - 1), 0/0-free near x = 0.
[[gnu::always_inline]] inline Lanes vtrap(const Lanes& x, double y) {
  const Lanes ratio = x / y;
  const Lanes near_zero = y * (1.0 - ratio / 2.0);
  const Lanes general = x / (exp_lanes(ratio) - 1.0);
  return ((ratio < 1e-6) & (ratio > -1e-6)) ? near_zero : general;
}

// hh.mod's rates (without tables): steady states and rates (1/tau, per ms) of m, h, n at v (mV),
// with q10 = 3^((celsius - 6.3)/10).
struct HHRates {
  Lanes minf, mrate, hinf, hrate, ninf, nrate;
};
[[gnu::always_inline]] inline HHRates hh_rates(const Lanes& v, const Lanes& q10) {
  HHRates r;
  Lanes alpha = 0.1 * vtrap(-(v + 40.0), 10.0), beta = 4.0 * exp_lanes(-(v + 65.0) / 18.0);
  Lanes sum = alpha + beta;
  r.mrate = q10 * sum;
  r.minf = alpha / sum;
  alpha = 0.07 * exp_lanes(-(v + 65.0) / 20.0);
  beta = 1.0 / (exp_lanes(-(v + 35.0) / 10.0) + 1.0);
  sum = alpha + beta;
  r.hrate = q10 * sum;
  r.hinf = alpha / sum;
  alpha = 0.01 * vtrap(-(v + 55.0), 10.0);
  beta = 0.125 * exp_lanes(-(v + 65.0) / 80.0);
  sum = alpha + beta;
  r.nrate = q10 * sum;
  r.ninf = alpha / sum;
  return r;
}

inline double hh_q10(double celsius) { return std::pow(3.0, (celsius - 6.3) / 10.0); }

}  // namespace ranvier::cable
