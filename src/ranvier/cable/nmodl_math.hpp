// What code generated from NMODL (python/ranvier/nmodl/cpp.py) computes with: NMODL's functions
// per lane of a Lanes, conversions of numbers and conditions to Lanes and masks, and the
// interface it implements (mechanism_kind.hpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

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

// NMODL's implicit solves (SOLVE ... METHOD sparse | derivimplicit, LINEAR blocks): N unknowns per
// lane, the matrix column-major (NMODL's nmodl_eigen_j[row + N * column]). Gaussian elimination
// with partial pivoting, lane by lane: J y = b, y into b.
template <size_t N>
void solve_lane(double (&a)[N * N], double (&b)[N]) {
  for (size_t c = 0; c < N; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < N; ++r)
      if (std::fabs(a[r + N * c]) > std::fabs(a[pivot + N * c])) pivot = r;
    if (pivot != c) {
      for (size_t k = c; k < N; ++k) std::swap(a[c + N * k], a[pivot + N * k]);
      std::swap(b[c], b[pivot]);
    }
    for (size_t r = c + 1; r < N; ++r) {
      const double f = a[r + N * c] / a[c + N * c];
      for (size_t k = c + 1; k < N; ++k) a[r + N * k] -= f * a[c + N * k];
      b[r] -= f * b[c];
    }
  }
  for (size_t c = N; c-- > 0;) {
    for (size_t k = c + 1; k < N; ++k) b[c] -= a[c + N * k] * b[k];
    b[c] /= a[c + N * c];
  }
}

// y = J^-1 b in every lane.
template <size_t N>
void solve_lanes(const Lanes (&j)[N * N], const Lanes (&b)[N], Lanes (&y)[N]) {
  for (size_t l = 0; l < kLanes; ++l) {
    double a[N * N], x[N];
    for (size_t k = 0; k < N * N; ++k) a[k] = j[k][l];
    for (size_t k = 0; k < N; ++k) x[k] = b[k][l];
    solve_lane<N>(a, x);
    for (size_t k = 0; k < N; ++k) y[k][l] = x[k];
  }
}

// NEURON's Newton iterations for implicit steps: until no unknown moves by more than the
// tolerance (scoplib's CONVERGE), at most this many.
inline constexpr int kNewtonIterations = 20;
inline constexpr double kNewtonTolerance = 1e-8;

inline bool any_lane(const LaneBits& m) {
  for (size_t l = 0; l < kLanes; ++l)
    if (m[l]) return true;
  return false;
}

// One Newton step on F(x) = 0 (f = F(x), j its Jacobian) in the lanes still iterating: x -= J^-1
// F(x), and a lane whose unknowns all moved less than the tolerance stops. Lane by lane, so that a
// cell's iterations do not depend on the cells beside it.
template <size_t N>
void newton_step(Lanes (&x)[N], const Lanes (&f)[N], const Lanes (&j)[N * N], LaneBits& iterating) {
  for (size_t l = 0; l < kLanes; ++l) {
    if (!iterating[l]) continue;
    double a[N * N], dx[N];
    for (size_t k = 0; k < N * N; ++k) a[k] = j[k][l];
    for (size_t k = 0; k < N; ++k) dx[k] = f[k][l];
    solve_lane<N>(a, dx);
    double largest = 0.0;
    for (size_t k = 0; k < N; ++k) x[k][l] -= dx[k], largest = std::max(largest, std::fabs(dx[k]));
    if (largest < kNewtonTolerance) iterating[l] = 0;
  }
}

// A LINEAR block: J x = f.
template <size_t N>
void linear_solve(Lanes (&x)[N], const Lanes (&f)[N], const Lanes (&j)[N * N]) {
  solve_lanes<N>(j, f, x);
}

}  // namespace ranvier::cable
