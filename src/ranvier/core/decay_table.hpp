// exp(-m h / tau) for whole numbers of steps m: STDP traces decay over spike-time
// differences that are always whole steps, so the values of the first steps are computed
// once; later ones with the same expression, so the table changes no result.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace ranvier {

class DecayTable {
 public:
  static constexpr int64_t cached_steps = 4096;

  DecayTable(double tau_ms, double h_ms) : tau_(tau_ms), h_(h_ms), table_(cached_steps) {
    for (int64_t m = 0; m < cached_steps; ++m) table_[size_t(m)] = decay(m);
  }
  double tau() const { return tau_; }
  // Decay over m >= 0 steps.
  double operator()(int64_t m) const { return m < cached_steps ? table_[size_t(m)] : decay(m); }

 private:
  double decay(int64_t m) const { return std::exp(-double(m) * h_ / tau_); }

  double tau_, h_;
  std::vector<double> table_;
};

}  // namespace ranvier
