#include "core/rng.hpp"

#include <cstdlib>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ranvier {

namespace {
bool simd_allowed() {
  const char* setting = std::getenv("RANVIER_SIMD");
  return !setting || std::strcmp(setting, "off") != 0;
}
}  // namespace

#if defined(__x86_64__)
const bool use_avx2 = simd_allowed() && __builtin_cpu_supports("avx2");

__attribute__((target("avx2"))) void philox4x32_10_lanes_avx2(uint32_t c0, uint32_t c1, uint32_t c2,
                                                             const uint32_t c3[4], uint32_t k0, uint32_t k1,
                                                             Block out[4]) {
  using namespace philox;
  const __m256i low = _mm256_set1_epi64x(0xffffffffll);
  const __m256i m0 = _mm256_set1_epi64x(int64_t(mul0)), m1 = _mm256_set1_epi64x(int64_t(mul1));
  __m256i x0 = _mm256_set1_epi64x(c0), x1 = _mm256_set1_epi64x(c1), x2 = _mm256_set1_epi64x(c2);
  __m256i x3 = _mm256_setr_epi64x(c3[0], c3[1], c3[2], c3[3]);
  for (int round = 0; round < 10; ++round) {
    const __m256i p0 = _mm256_mul_epu32(x0, m0), p1 = _mm256_mul_epu32(x2, m1);
    x0 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), x1), _mm256_set1_epi64x(k0));
    x2 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), x3), _mm256_set1_epi64x(k1));
    x1 = _mm256_and_si256(p1, low);
    x3 = _mm256_and_si256(p0, low);
    k0 += bump0;
    k1 += bump1;
  }
  alignas(32) uint64_t w[4][4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(w[0]), x0);
  _mm256_store_si256(reinterpret_cast<__m256i*>(w[1]), x1);
  _mm256_store_si256(reinterpret_cast<__m256i*>(w[2]), x2);
  _mm256_store_si256(reinterpret_cast<__m256i*>(w[3]), x3);
  for (int lane = 0; lane < 4; ++lane)
    out[lane] = Block{{uint32_t(w[0][lane]), uint32_t(w[1][lane]), uint32_t(w[2][lane]), uint32_t(w[3][lane])}};
}
#else
const bool use_avx2 = false;
#endif

PoissonTable::PoissonTable(double mean) {
  constexpr uint64_t one = uint64_t(1) << 32;
  double p = std::exp(-mean), cumulative = p;
  for (uint32_t k = 1; p > 0.0 && cumulative < 1.0; ++k) {
    const uint64_t t = uint64_t(std::llround(std::ldexp(cumulative, 32)));
    if (t >= one) break;
    threshold_.push_back(t);
    p *= mean / k;
    cumulative += p;
  }
  threshold_.push_back(one);
  const uint64_t width = one >> guide_bits;
  uint32_t k = 0;  // thresholds at or below the range's first word
  for (uint64_t first = 0; first < one; first += width) {
    while (threshold_[k] <= first) ++k;
    const bool holds_threshold = threshold_[k] <= first + width - 1;
    guide_.push_back(2 * k + (holds_threshold ? 1 : 0));
  }
}

uint32_t Stream::poisson(uint64_t index, double mean) const {
  if (mean <= 0.0) return 0;
  if (mean < PoissonTable::max_mean) return PoissonTable(mean)(block(index).w[0]);
  // Transformed rejection with squeeze (Hoermann 1993, PTRS); candidates come from a
  // sub-stream so that each index keeps owning exactly one output.
  const double slam = std::sqrt(mean), loglam = std::log(mean);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  const Stream sub(seed_, Purpose(purpose_), a_ ^ 0x5bd1e995u, b_ ^ uint32_t(index));
  for (uint64_t trial = 0;; ++trial) {
    const Block r = sub.block((index >> 32) * 1000003u + trial);
    const double u = to_unit(r.w[0], r.w[1]) - 0.5, v = to_unit(r.w[2], r.w[3]);
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + mean + 0.43);
    if (us >= 0.07 && v <= vr) return uint32_t(k);
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(inv_alpha) - std::log(a / (us * us) + b) <=
        -mean + k * loglam - std::lgamma(k + 1))
      return uint32_t(k);
  }
}

}  // namespace ranvier
