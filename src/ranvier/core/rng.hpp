// Counter-based random streams (Philox4x32-10). A stream is keyed by (seed, purpose) and
// addressed by (a, b, index): the same numbers come out whichever thread or process asks,
// which is what makes connectivity and spikes independent of the partition.
#pragma once
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ranvier {

enum class Purpose : uint32_t {
  connect_partner = 1,
  connect_weight = 2,  // a collocated synapse spec's index in the bits above 8 (LocalNetwork::collocate)
  connect_delay = 3,   // likewise
  connect_count = 4,
  node_parameter = 5,
  poisson_input = 6,
  neuron_intrinsic = 7,
  placement = 8,
  stimulus = 9,  // random currents and trains of stimulating devices other than poisson_generator
  // SynapseCollection.set: (call, source), index (target, multapse); the synapse model's
  // kernel id in the bits above 8
  connection_parameter = 10,
  synapse_transmission = 16,  // bernoulli_synapse: (source, target), index (spike step, multapse)
  // quantal_stp_synapse: (source, target), index (spike step, multapse, trial); the synapse
  // model's kernel id in the bits above 8
  synapse_release = 17,
  // structural plasticity's pairing and removals: (update step, its step's high word, entry
  // and phase), index the draw (kernel/structural_plasticity.cpp)
  structural_plasticity = 18,
  // TripartiteConnect's third-factor pools and pairings: (call, primary target), index the draw
  third_factor = 19,
  // NESTML synapses' random functions in their presynaptic handler: (source, target), index
  // (spike step, multapse, draw); the synapse model's kernel id in the bits above 8
  synapse_draws = 20,
  connect_receptor = 21,  // as connect_weight: a receptor_type drawn per connection
};

struct Block {
  uint32_t w[4];
};

namespace philox {
constexpr uint64_t mul0 = 0xD2511F53u, mul1 = 0xCD9E8D57u;
constexpr uint32_t bump0 = 0x9E3779B9u, bump1 = 0xBB67AE85u;
}  // namespace philox

inline Block philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1) {
  using namespace philox;
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = mul0 * c0, p1 = mul1 * c2;
    const uint32_t hi0 = uint32_t(p0 >> 32), lo0 = uint32_t(p0);
    const uint32_t hi1 = uint32_t(p1 >> 32), lo1 = uint32_t(p1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += bump0;
    k1 += bump1;
  }
  return Block{{c0, c1, c2, c3}};
}

// Is the AVX2 path of philox4x32_10_lanes taken? Chosen once at start-up: where the CPU
// has AVX2, unless RANVIER_SIMD=off (which tests use to compare both paths). Builds are
// portable by default; the fast path is found at run time, not at compile time.
extern const bool use_avx2;
#if defined(__x86_64__)
void philox4x32_10_lanes_avx2(uint32_t c0, uint32_t c1, uint32_t c2, const uint32_t c3[4], uint32_t k0, uint32_t k1,
                              Block out[4]);
#endif

// Four blocks whose counters differ in c3 only (four streams that differ in b, at one
// index): the same numbers as four philox4x32_10 calls, computed side by side where the
// CPU has AVX2 (one 64-bit lane per block).
inline void philox4x32_10_lanes(uint32_t c0, uint32_t c1, uint32_t c2, const uint32_t c3[4], uint32_t k0, uint32_t k1,
                                Block out[4]) {
#if defined(__x86_64__)
  if (use_avx2) return philox4x32_10_lanes_avx2(c0, c1, c2, c3, k0, k1, out);
#endif
  for (int lane = 0; lane < 4; ++lane) out[lane] = philox4x32_10(c0, c1, c2, c3[lane], k0, k1);
}

// Uniform in [0, 1) with 53 random bits.
inline double to_unit(uint32_t hi, uint32_t lo) {
  const int64_t bits = int64_t(((uint64_t(hi) << 32) | lo) >> 11);  // signed: one instruction to double
  return double(bits) * 0x1.0p-53;
}

// The 64-bit word at half index & 1 of a block: two consecutive indices share one block.
inline uint64_t word_of(const Block& r, uint64_t index) {
  const unsigned half = unsigned(index & 1) * 2;
  return (uint64_t(r.w[half]) << 32) | r.w[half + 1];
}

// The 64-bit words of eight consecutive blocks (index in c0 and c1, as Stream::block), in
// index order: the draws of 16 consecutive indices, eight blocks side by side where the CPU
// has AVX2.
constexpr unsigned run_words = 16;
#if defined(__x86_64__)
void philox4x32_10_words_avx2(uint64_t index, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1,
                              uint64_t out[run_words]);
#endif
inline void philox4x32_10_words(uint64_t index, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1,
                                uint64_t out[run_words]) {
#if defined(__x86_64__)
  if (use_avx2) return philox4x32_10_words_avx2(index, c2, c3, k0, k1, out);
#endif
  for (unsigned j = 0; j < run_words; j += 2) {
    const Block r = philox4x32_10(uint32_t(index + j / 2), uint32_t((index + j / 2) >> 32), c2, c3, k0, k1);
    out[j] = word_of(r, 0), out[j + 1] = word_of(r, 1);
  }
}

// The ziggurat of the standard normal with 256 layers of equal area (Marsaglia and Tsang
// 2000): layer i has half-width x[i] (x[0] the base's, tail included) and exp(-x^2 / 2) is
// f[i] at its lower edge; x[256] = 0.
struct Ziggurat {
  static constexpr int layers = 256;
  static constexpr double r = 3.6541528853610088;  // where the tail begins
  double x[layers + 1], f[layers + 1];
  Ziggurat();
};
extern const Ziggurat ziggurat;

// Poisson counts of a small mean by inversion: the cumulative distribution scaled to 32-bit
// thresholds once; a draw is the number of thresholds at or below one random word. A guide
// table (Chen and Asau) gives that number for each range of words that holds no threshold,
// so nearly every draw is one lookup; the few ranges that do hold one search from their
// lowest count. The result is the same as a search from 0.
class PoissonTable {
 public:
  static constexpr double max_mean = 30.0;  // larger means use rejection sampling
  explicit PoissonTable(double mean);
  uint32_t operator()(uint32_t word) const {
    const uint32_t g = guide_[word >> (32 - guide_bits)];
    uint32_t k = g >> 1;
    if (g & 1)
      while (word >= threshold_[k]) ++k;  // the last threshold, 2^32, stops every search
    return k;
  }

 private:
  static constexpr int guide_bits = 10;
  std::vector<uint64_t> threshold_;  // 2^32 P(count <= k)
  std::vector<uint32_t> guide_;      // per range of words: 2 x (count at its start) + (holds a threshold)
};

class Stream {
 public:
  Stream(uint32_t seed, Purpose purpose, uint32_t a, uint32_t b)
      : seed_(seed), purpose_(uint32_t(purpose)), a_(a), b_(b) {}

  Block block(uint64_t index) const {
    return philox4x32_10(uint32_t(index), uint32_t(index >> 32), a_, b_, seed_, purpose_);
  }
  // The blocks at `index` of the four streams (seed, purpose, a, b[lane]).
  static void blocks(uint32_t seed, Purpose purpose, uint32_t a, const uint32_t b[4], uint64_t index, Block out[4]) {
    philox4x32_10_lanes(uint32_t(index), uint32_t(index >> 32), a, b, seed, uint32_t(purpose), out);
  }
  // The words of indices 2 block .. 2 block + run_words - 1 (philox4x32_10_words).
  void words(uint64_t block, uint64_t out[run_words]) const {
    philox4x32_10_words(block, a_, b_, seed_, purpose_, out);
  }
  double uniform(uint64_t index) const {
    const Block r = block(index);
    return to_unit(r.w[0], r.w[1]);
  }
  // Uniform integer in [0, n) by 64-bit multiply-shift (bias below 2^-32); two consecutive
  // indices share one block.
  uint64_t below(uint64_t index, uint64_t n) const { return below_in(block(index >> 1), index, n); }
  static uint64_t below_in(const Block& r, uint64_t index, uint64_t n) {
    return uint64_t((__uint128_t(word_of(r, index)) * n) >> 64);
  }
  // Standard normal by the ziggurat, one 64-bit word per index (two indices share a block;
  // the layer, the sign and the position come from disjoint bits of the word, as Doornik
  // (2005) advises). Nearly every word lands inside its layer's rectangle; the rest go on
  // in blocks of their own key (normal_edge).
  double normal(uint64_t index) const { return normal_from(word_of(block(index >> 1), index), index); }
  double normal_from(uint64_t word, uint64_t index) const {
    const unsigned layer = unsigned(word & 255);
    const double x = double(int64_t(word >> 11)) * 0x1.0p-53 * ziggurat.x[layer];
    // the sign by bit, not by branch: half of all branches on it would be mispredicted
    if (x < ziggurat.x[layer + 1]) [[likely]]
      return std::bit_cast<double>(std::bit_cast<uint64_t>(x) ^ ((word & 256) << 55));
    return normal_edge(word, index);
  }
  // out[i] = normal(first + i) for i < n: each block computed once, eight at a time.
  void normals(uint64_t first, size_t n, double* out) const;
  // Poisson count of the given mean; one block per index, extra blocks from a sub-stream.
  uint32_t poisson(uint64_t index, double mean) const;

 private:
  double normal_edge(uint64_t word, uint64_t index) const;
  double normal_tail(uint64_t index, uint32_t round) const;
  // Block `round` of the normal at `index` beyond its first word: a key of its own, so
  // these blocks are no other index's.
  Block edge_block(uint64_t index, uint32_t round) const {
    return philox4x32_10(uint32_t(index), uint32_t(index >> 32), a_, b_, seed_, purpose_ ^ 0x80000000u ^ (round << 16));
  }

  uint32_t seed_, purpose_, a_, b_;
};

// A stream read index after index (partner draws): the words of run_words indices at a
// time (Stream::words), each block computed once.
class SequentialStream {
 public:
  explicit SequentialStream(const Stream& s) : s_(s) {}
  uint64_t below(uint64_t index, uint64_t n) {
    const uint64_t first = index & ~uint64_t(run_words - 1);
    if (first != first_) s_.words(first >> 1, words_), first_ = first;
    return uint64_t((__uint128_t(words_[index - first]) * n) >> 64);
  }

 private:
  Stream s_;
  uint64_t words_[run_words]{};
  uint64_t first_ = UINT64_MAX;  // words_ holds indices first_ .. first_ + run_words - 1
};

}  // namespace ranvier
