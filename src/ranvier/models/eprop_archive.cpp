#include "models/eprop_model.hpp"

#include <iterator>

namespace ranvier {

void EpropArchive::missing(Entries::iterator it, int64_t t, uint32_t gid) const {
  throw KernelStateError(
      "e-prop: neuron " + std::to_string(gid) + " has no history entry at step " + std::to_string(t) + " (" +
      (it == history.end() ? std::string("its history ends before") : "it holds step " + std::to_string(it->t)) +
      "); its e-prop synapses must exist from its first update on");
}

void EpropArchive::erase_used(int64_t t_spike, int64_t t_previous) {
  auto mark = std::lower_bound(marks.begin(), marks.end(), t_spike);
  if (mark != marks.end() && mark->t == t_spike)
    ++mark->count;
  else
    marks.insert(mark, {t_spike, 1});
  if (t_previous > 0) {
    auto previous = std::lower_bound(marks.begin(), marks.end(), t_previous);
    if (previous != marks.end() && previous->t == t_previous) {
      if (previous->count > 0) --previous->count;
      if (previous->count == 0) marks.erase(previous);
    }
    // The steps the synapse read from its last event on, less those another mark still needs:
    // a mark at m needs [m - 1, m - 1 + cutoff). NEST walks the marks near them; the first mark
    // that starts inside ends the span, the last that ends inside begins it (the same steps).
    const int64_t candidate_begin = t_previous - 1, candidate_end = candidate_begin + cutoff;
    int64_t erase_begin = candidate_begin, erase_end = candidate_end;
    const auto starting = std::lower_bound(marks.begin(), marks.end(), candidate_begin + 1);
    if (starting != marks.end() && starting->t <= candidate_end) erase_end = starting->t - 1;
    const auto after = std::upper_bound(marks.begin(), marks.end(), candidate_end + 1 - cutoff,
                                        [](int64_t t, const EpropMark& m) { return t < m.t; });
    if (after != marks.begin() && std::prev(after)->t >= candidate_begin + 1 - cutoff)
      erase_begin = std::prev(after)->t - 1 + cutoff;
    const auto from = at(erase_begin), to = at(erase_end);
    if (from < to) history.erase(from, to);
  }
  if (marks.empty() || history.empty()) return;
  // nothing before the earliest mark's first step is read again
  const int64_t keep = marks.front().t - 1;
  const auto kept = at(keep);
  if (kept != history.end() && kept->t == keep && kept != history.begin()) history.erase(history.begin(), kept);
}

void EpropArchive::mark_first_updates(int64_t shift, size_t synapses) {
  auto mark = std::lower_bound(marks.begin(), marks.end(), shift);
  if (mark == marks.end() || mark->t != shift) mark = marks.insert(mark, {shift, 0});
  mark->count += int64_t(synapses);
}

void EpropArchive::move_update_mark(int64_t t_previous, int64_t t_current, int64_t shift, bool flush,
                                    bool previous_flush) {
  if (indegree == 0) return;
  if (!flush) {
    const int64_t t = t_current + shift;
    auto mark = std::lower_bound(marks.begin(), marks.end(), t);
    if (mark != marks.end() && mark->t == t)
      ++mark->count;
    else
      marks.push_back({t, 1});  // NEST appends: a new update lies after every other
  }
  if (!previous_flush) {
    const int64_t t = t_previous + shift;
    auto mark = std::lower_bound(marks.begin(), marks.end(), t);
    if (mark != marks.end() && mark->t == t && --mark->count == 0) marks.erase(mark);
  }
}

void EpropArchive::erase_unread_intervals(int64_t interval) {
  if (history.empty() || marks.empty()) return;
  auto mark = marks.begin();
  for (int64_t t = marks.front().t; t <= marks.back().t && mark != marks.end(); t += interval) {
    if (mark->t == t)
      ++mark;
    else
      history.erase(at(t), at(t + interval));
  }
  history.erase(history.begin(), at(marks.front().t));
}

// NEST walks the marks and the regularizations side by side, dropping those beside an unused mark.
void EpropArchive::erase_used_regularization() {
  auto mark = marks.begin();
  auto reg = regularization.begin();
  for (; mark != marks.end() && reg != regularization.end(); ++mark) {
    if (mark->count == 0)
      reg = regularization.erase(reg);
    else
      ++reg;
  }
}

}  // namespace ranvier
