#include "models/clopath_history.hpp"

#include <algorithm>
#include <cmath>

namespace ranvier {

namespace {
enum Parameter { A_LTD, A_LTP, u_ref_squared, theta_plus, theta_minus, A_LTD_const, delay_u_bars };
}  // namespace

void ClopathHistory::write(const NeuronGroup& g, size_t i, int first, int64_t stamp, double h, double u,
                           double u_bar_plus, double u_bar_minus, double u_bar_bar, uint32_t incoming, int64_t keep) {
  auto p = [&](Parameter k) { return g.vars[size_t(first + k)][i]; };
  if (delayed_plus_.empty()) {  // NEST sizes the delays once, at its first preparation
    const size_t steps = size_t(std::llround(p(delay_u_bars) / h)) + 1;
    delayed_plus_.assign(steps, 0.0), delayed_minus_.assign(steps, 0.0);
  }
  delayed_plus_[next_] = u_bar_plus, delayed_minus_[next_] = u_bar_minus;
  next_ = (next_ + 1) % delayed_plus_.size();
  const double plus = delayed_plus_[next_], minus = delayed_minus_[next_];
  if (!incoming) return;
  if (u > p(theta_plus) && plus > p(theta_minus))
    ltp_.push(stamp, p(A_LTP) * (u - p(theta_plus)) * (plus - p(theta_minus)) * h, incoming);
  if (minus > p(theta_minus)) {
    while (!ltd_.empty() && ltd_.front().stamp < stamp - keep) ltd_.pop_front();
    const double dw = p(A_LTD_const) != 0.0
                          ? p(A_LTD) * (minus - p(theta_minus))
                          : p(A_LTD) * u_bar_bar * u_bar_bar * (minus - p(theta_minus)) / p(u_ref_squared);
    ltd_.push_back({stamp, dw});
  }
}

double ClopathHistory::depression(int64_t stamp) const {
  const auto it = std::lower_bound(ltd_.begin(), ltd_.end(), stamp,
                                   [](const StepHistory::Entry& e, int64_t s) { return e.stamp < s; });
  return it != ltd_.end() && it->stamp == stamp ? it->value : 0.0;
}

void ClopathHistory::save(std::vector<double>& out) const {
  out.push_back(double(next_));
  for (const std::vector<double>* delayed : {&delayed_plus_, &delayed_minus_}) {
    out.push_back(double(delayed->size()));
    out.insert(out.end(), delayed->begin(), delayed->end());
  }
  ltp_.save(out);
  out.push_back(double(ltd_.size()));
  for (const StepHistory::Entry& e : ltd_) out.insert(out.end(), {double(e.stamp), e.value});
}

const double* ClopathHistory::load(const double* from) {
  next_ = size_t(*from++);
  for (std::vector<double>* delayed : {&delayed_plus_, &delayed_minus_}) {
    const size_t n = size_t(*from++);
    delayed->assign(from, from + n);
    from += n;
  }
  from = ltp_.load(from);
  ltd_.resize(size_t(*from++));
  for (StepHistory::Entry& e : ltd_) e = {int64_t(from[0]), from[1]}, from += 2;
  return from;
}

}  // namespace ranvier
