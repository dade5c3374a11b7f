// The weight optimizers of NEST 3.10's e-prop synapses (gradient descent and Adam, Kingma & Ba
// 2015), as NEST applies them: a connection sums the gradients it is given and, once per batch
// of batch_size steps, moves its weight by the batch's mean gradient and clips it to [Wmin, Wmax].
// The settings are the synapse model's common parameters; the state lives in each connection's
// record.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ranvier {

struct WeightOptimizer {
  enum Kind { gradient_descent, adam };
  // A connection's state: the gradient summed since the last optimization, the batch it
  // belongs to (from 1), the learning rate it uses next, how many times it was optimized, and Adam's
  // moments and the powers of its betas.
  enum Slot { cumulative, batch, eta_now, times, m, v, beta_1_power, beta_2_power, n_slots };
  static constexpr double initial[n_slots] = {0.0, 1.0, 1e-4, 0.0, 0.0, 0.0, 1.0, 1.0};

  Kind kind = gradient_descent;
  int64_t batch_size = 1;
  double eta = 1e-4;
  // NEST's first optimization of a connection uses the first learning rate the model was set
  // to (or its default, where it never changed), later ones the current one.
  double eta_first = 1e-4;
  bool eta_changed = false;
  double w_min = -100.0, w_max = 100.0;
  bool each_step = true;  // optimize_each_step: the gradient of every step goes to the optimizer
  double beta_1 = 0.9, beta_2 = 0.999, epsilon = 1e-7;

  // The weight after adding `gradient` at step `update` (NEST's idx_current_update).
  double optimized(double* s, int64_t update, double gradient, double w) const {
    if (eta_changed && s[times] == 0.0) s[eta_now] = eta_first;
    s[cumulative] += gradient;
    const double current = double(1 + update / batch_size);
    if (s[batch] < current) {
      s[cumulative] /= double(batch_size);
      w = std::clamp(kind == adam ? adam_step(s, w, current) : descent_step(s, w), w_min, w_max);
      s[eta_now] = eta;
      s[times] += 1.0;
      s[batch] = current;
    }
    return w;
  }

 private:
  static double descent_step(double* s, double w) {
    w -= s[eta_now] * s[cumulative];
    s[cumulative] = 0.0;
    return w;
  }
  // One Adam step for every batch since the last (the later ones with no gradient).
  double adam_step(double* s, double w, double current) const {
    for (; s[batch] < current; s[batch] += 1.0) {
      s[beta_1_power] *= beta_1;
      s[beta_2_power] *= beta_2;
      const double alpha = s[eta_now] * std::sqrt(1.0 - s[beta_2_power]) / (1.0 - s[beta_1_power]);
      s[m] = beta_1 * s[m] + (1.0 - beta_1) * s[cumulative];
      s[v] = beta_2 * s[v] + (1.0 - beta_2) * s[cumulative] * s[cumulative];
      w -= alpha * s[m] / (std::sqrt(s[v]) + epsilon);
      s[cumulative] = 0.0;
    }
    return w;
  }
};

}  // namespace ranvier
