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

namespace {
// Ten rounds on `sets` x 4 blocks side by side, one 64-bit lane per block; independent sets
// interleave so that one set's multiplies wait while another's run.
template <int sets>
__attribute__((target("avx2"))) inline void rounds_avx2(__m256i x0[], __m256i x1[], __m256i x2[], __m256i x3[],
                                                        uint32_t k0, uint32_t k1) {
  using namespace philox;
  const __m256i low = _mm256_set1_epi64x(0xffffffffll);
  const __m256i m0 = _mm256_set1_epi64x(int64_t(mul0)), m1 = _mm256_set1_epi64x(int64_t(mul1));
  for (int round = 0; round < 10; ++round) {
    const __m256i key0 = _mm256_set1_epi64x(k0), key1 = _mm256_set1_epi64x(k1);
    for (int s = 0; s < sets; ++s) {
      const __m256i p0 = _mm256_mul_epu32(x0[s], m0), p1 = _mm256_mul_epu32(x2[s], m1);
      x0[s] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), x1[s]), key0);
      x2[s] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), x3[s]), key1);
      x1[s] = _mm256_and_si256(p1, low);
      x3[s] = _mm256_and_si256(p0, low);
    }
    k0 += bump0;
    k1 += bump1;
  }
}
}  // namespace

__attribute__((target("avx2"))) void philox4x32_10_lanes_avx2(uint32_t c0, uint32_t c1, uint32_t c2,
                                                              const uint32_t c3[4], uint32_t k0, uint32_t k1,
                                                              Block out[4]) {
  __m256i x0[1] = {_mm256_set1_epi64x(c0)}, x1[1] = {_mm256_set1_epi64x(c1)}, x2[1] = {_mm256_set1_epi64x(c2)};
  __m256i x3[1] = {_mm256_setr_epi64x(c3[0], c3[1], c3[2], c3[3])};
  rounds_avx2<1>(x0, x1, x2, x3, k0, k1);
  alignas(32) uint64_t w[4][4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(w[0]), x0[0]);
  _mm256_store_si256(reinterpret_cast<__m256i*>(w[1]), x1[0]);
  _mm256_store_si256(reinterpret_cast<__m256i*>(w[2]), x2[0]);
  _mm256_store_si256(reinterpret_cast<__m256i*>(w[3]), x3[0]);
  for (int lane = 0; lane < 4; ++lane)
    out[lane] = Block{{uint32_t(w[0][lane]), uint32_t(w[1][lane]), uint32_t(w[2][lane]), uint32_t(w[3][lane])}};
}

__attribute__((target("avx2"))) void philox4x32_10_words_avx2(uint64_t index, uint32_t c2, uint32_t c3, uint32_t k0,
                                                              uint32_t k1, uint64_t out[run_words]) {
  constexpr int sets = run_words / 8;
  const __m256i low = _mm256_set1_epi64x(0xffffffffll);
  __m256i x0[sets], x1[sets], x2[sets], x3[sets];
  for (int s = 0; s < sets; ++s) {
    const __m256i i = _mm256_add_epi64(_mm256_set1_epi64x(int64_t(index + 4 * s)), _mm256_setr_epi64x(0, 1, 2, 3));
    x0[s] = _mm256_and_si256(i, low);
    x1[s] = _mm256_srli_epi64(i, 32);
    x2[s] = _mm256_set1_epi64x(c2);
    x3[s] = _mm256_set1_epi64x(c3);
  }
  rounds_avx2<sets>(x0, x1, x2, x3, k0, k1);
  for (int s = 0; s < sets; ++s) {  // a block's words in index order: w0 w1, then w2 w3
    const __m256i first = _mm256_or_si256(_mm256_slli_epi64(x0[s], 32), x1[s]);
    const __m256i second = _mm256_or_si256(_mm256_slli_epi64(x2[s], 32), x3[s]);
    const __m256i lo = _mm256_unpacklo_epi64(first, second), hi = _mm256_unpackhi_epi64(first, second);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * s), _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * s + 4), _mm256_permute2x128_si256(lo, hi, 0x31));
  }
}
#else
const bool use_avx2 = false;
#endif

Ziggurat::Ziggurat() {
  // Every layer has the area v of the base: the rectangle below f(r) plus the tail beyond r.
  const auto f_of = [](double at) { return std::exp(-0.5 * at * at); };
  const double v = r * f_of(r) + std::sqrt(M_PI / 2) * std::erfc(r / std::sqrt(2.0));
  x[0] = v / f_of(r);
  x[1] = r;
  for (int i = 1; i < layers - 1; ++i) x[i + 1] = std::sqrt(-2.0 * std::log(v / x[i] + f_of(x[i])));
  x[layers] = 0.0;
  for (int i = 0; i <= layers; ++i) f[i] = f_of(x[i]);
}

const Ziggurat ziggurat;

double Stream::normal_edge(uint64_t word, uint64_t index) const {
  for (uint32_t round = 0;; ++round) {
    const unsigned layer = unsigned(word & 255);
    const double sign = word & 256 ? -1.0 : 1.0;
    const double x = double(int64_t(word >> 11)) * 0x1.0p-53 * ziggurat.x[layer];
    if (x < ziggurat.x[layer + 1]) return sign * x;
    if (layer == 0) return sign * normal_tail(index, round);
    // the wedge between the layer's rectangle and the curve: a uniform height decides
    const Block e = edge_block(index, round);
    const double height = ziggurat.f[layer] + to_unit(e.w[0], e.w[1]) * (ziggurat.f[layer + 1] - ziggurat.f[layer]);
    if (height < std::exp(-0.5 * x * x)) return sign * x;
    word = word_of(e, 1);
  }
}

// Beyond r by Marsaglia's (1964) exponential rejection.
double Stream::normal_tail(uint64_t index, uint32_t round) const {
  for (;; ++round) {
    const Block e = edge_block(index, round);
    const double a = -std::log(1.0 - to_unit(e.w[0], e.w[1])) / Ziggurat::r;
    const double b = -std::log(1.0 - to_unit(e.w[2], e.w[3]));
    if (2.0 * b > a * a) return Ziggurat::r + a;
  }
}

void Stream::normals(uint64_t first, size_t n, double* out) const {
  size_t i = 0;
  if (n > 0 && (first & 1)) out[i++] = normal(first);
  for (; i + run_words <= n; i += run_words) {
    uint64_t w[run_words];
    words((first + i) >> 1, w);
    for (unsigned j = 0; j < run_words; ++j) out[i + j] = normal_from(w[j], first + i + j);
  }
  for (; i + 1 < n; i += 2) {
    const Block r = block((first + i) >> 1);
    out[i] = normal_from(word_of(r, 0), first + i);
    out[i + 1] = normal_from(word_of(r, 1), first + i + 1);
  }
  if (i < n) out[i] = normal(first + i);
}

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
    if (std::log(v) + std::log(inv_alpha) - std::log(a / (us * us) + b) <= -mean + k * loglam - std::lgamma(k + 1))
      return uint32_t(k);
  }
}

}  // namespace ranvier
