// e^x to within 2 ulp of the correctly rounded value, from +, -, * and bit operations only:
// the compiler vectorises it across lanes, and every lane gets the same bits as a scalar call
// (the C library's exp is a call the vectoriser cannot inline). The ODE solver uses it on
// doubles, the cable cells on vectors of doubles. x must lie in [-708, 709] (callers clamp),
// where e^x is a normal double.
#pragma once
#include <cstdint>
#include <cstring>

namespace ranvier {

// T is double or a GCC vector of doubles; Bits the 64-bit integer type of the same shape.
template <class T, class Bits>
[[gnu::always_inline]] inline T exp_series(const T& x) {
  // x = k ln2 + r, |r| <= ln2/2: adding 1.5 * 2^52 rounds x / ln2 to the integer k, held in the
  // low mantissa bits; ln 2 = hi + lo with k * hi exact.
  constexpr double shifter = 0x1.8p52;
  const T t = x * 1.4426950408889634 + shifter;
  const T k = t - shifter;
  const T r = (x - k * 0x1.62e42feep-1) - k * 0x1.a39ef35793c76p-33;
  // e^r by its Taylor series to degree 13: the remainder is below 2e-17 relative.
  T p = r * (1.0 / 6227020800.0) + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // 2^k: k sits in the low bits of t; move k + 1023 into the exponent field.
  const T s = t - t + shifter;
  Bits tb, sb;
  std::memcpy(&tb, &t, sizeof t);
  std::memcpy(&sb, &s, sizeof s);
  const Bits scale_bits = (tb - sb + 1023) << 52;
  T scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  return p * scale;
}

}  // namespace ranvier
