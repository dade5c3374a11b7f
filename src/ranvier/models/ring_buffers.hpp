// Input of the neurons of one thread for the next steps: one row per step (modulo the ring
// size), one column per local neuron, separate rows for excitatory, inhibitory and current
// input. Deliver adds into future rows; update reads and clears the row of its step.
//
// Queued input: where a thread's rows outgrow the cache, an add at delivery waits on memory
// nearly every time (a spike's targets are spread over all columns and delays). Then input
// is appended to the queue of its arrival slot instead, written and read in order, and joins
// the rows when its step is settled, one slot's rows at a time. Every element receives its adds
// in the order they were made either way, so the sums, and spikes, are bit-identical.
//
// Event ports: cells that take their input spike by spike rather than as sums (cable cells act
// on each event in the dt step holding its time; parrots repeat each spike) have columns that
// take events: each add is an InputEvent in its arrival slot's event list, in the order made.
// Rows cover only the columns before the last summed one, so cells of kinds that take events,
// created after the point neurons, hold no rows at all.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace ranvier {

struct InputRow {
  double* excitatory;
  double* inhibitory;
  double* current;
};

// An add waiting in its slot's queue: the element it goes to and the value.
struct QueuedInput {
  double* to;
  double value;
};

// One spike for an event port: its input column, its sender (a neuron's or a generator's gid;
// binary neurons pair a sender's two spikes of one step), its offset in ms before the end of
// its arrival step (0 on the grid; in [0, h)) and its weight.
struct InputEvent {
  uint32_t column;
  uint32_t sender;
  double offset;
  double weight;
};

class RingBuffers {
 public:
  // `currents`: whether current generators give input. Without them every step reads and
  // clears one shared current row, which stays in the cache, instead of a ring of zeros.
  void resize(size_t n_slots, size_t n_local, bool long_range = false, bool currents = true) {
    settle_all();
    queues_.assign(queued_ ? n_slots : 0, {});
    events_.assign(takes_events_.empty() ? 0 : n_slots, {});
    long_events_.assign(takes_events_.empty() || !long_range ? 0 : n_slots, {});
    n_slots_ = n_slots;
    n_local_ = n_local;
    currents_ = currents;
    excitatory_.assign(n_slots * n_local, 0.0);
    inhibitory_.assign(n_slots * n_local, 0.0);
    current_.assign((currents ? n_slots : 1) * n_local, 0.0);
    long_excitatory_.assign(long_range ? n_slots * n_local : 0, 0.0);
    long_inhibitory_.assign(long_range ? n_slots * n_local : 0, 0.0);
  }
  // New shape, keeping the input already scheduled for steps from `now` on: the ring never
  // shrinks (a connection removed may have left input on its way), and current rows stay once
  // there were currents.
  // `takes_events`: by input column, whether it is an event port (or empty: none is); columns
  // from n_local on must all be.
  void reshape(size_t n_slots, size_t n_local, bool long_range, int64_t now, bool currents,
               std::vector<uint8_t> takes_events = {}) {
    settle_all();
    RingBuffers next;
    next.queued_ = queued_;
    next.takes_events_ = std::move(takes_events);
    next.event_ports_ = !next.takes_events_.empty();
    next.resize(std::max(n_slots, n_slots_), n_local, long_range, currents || (n_slots_ > 0 && currents_));
    for (int64_t s = now; s < now + int64_t(n_slots_); ++s) {
      auto copy = [&](const std::vector<double>& a, size_t from, std::vector<double>& b, size_t to) {
        if (!a.empty() && !b.empty()) std::copy_n(a.begin() + long(from), n_local_, b.begin() + long(to));
      };
      const size_t from = offset(s), to = next.offset(s);
      copy(excitatory_, from, next.excitatory_, to);
      copy(inhibitory_, from, next.inhibitory_, to);
      if (currents_) copy(current_, current_at(s), next.current_, next.current_at(s));
      copy(long_excitatory_, from, next.long_excitatory_, to);
      copy(long_inhibitory_, from, next.long_inhibitory_, to);
      const auto move = [](std::vector<std::vector<InputEvent>>& a, size_t from,
                           std::vector<std::vector<InputEvent>>& b, size_t to) {
        if (from < a.size() && to < b.size()) b[to].swap(a[from]);
      };
      move(events_, slot(s), next.events_, next.slot(s));
      move(long_events_, slot(s), next.long_events_, next.slot(s));
    }
    *this = std::move(next);
  }
  // Queue the input of later steps (on) or add it at once (off).
  void queue_input(bool on) {
    if (on == queued_ && queues_.size() == (on ? n_slots_ : 0)) return;  // keep the queues' capacity
    settle_all();
    queued_ = on;
    queues_.assign(on ? n_slots_ : 0, {});
  }
  bool queued() const { return queued_; }
  // The input of `step` is complete: its queue joins the rows, then the long-range input.
  // Long-range input (area placement) accumulates apart and joins the row just before the
  // step is updated, so every sum has the same order whenever long-range spikes arrive.
  void settle(int64_t step) {
    settle_slot(slot(step));
    if (!long_events_.empty()) {  // after the short-range events, as long-range sums join after theirs
      std::vector<InputEvent>& arriving = long_events_[slot(step)];
      events_[slot(step)].insert(events_[slot(step)].end(), arriving.begin(), arriving.end());
      arriving.clear();
    }
    if (long_excitatory_.empty()) return;
    const size_t at = offset(step);
    for (size_t i = 0; i < n_local_; ++i) {
      excitatory_[at + i] += long_excitatory_[at + i];
      inhibitory_[at + i] += long_inhibitory_[at + i];
      long_excitatory_[at + i] = long_inhibitory_[at + i] = 0.0;
    }
  }
  size_t offset(int64_t step) const { return slot(step) * n_local_; }
  InputRow row(int64_t step) {
    const size_t base = offset(step);
    return {excitatory_.data() + base, inhibitory_.data() + base, current_.data() + current_at(step)};
  }
  // Slot of a step; delivery computes it once per spike and adds the delay (< slots).
  size_t slot(int64_t step) const { return size_t(step % int64_t(n_slots_)); }
  size_t slot_after(size_t slot, uint32_t steps) const {
    const size_t s = slot + steps;
    return s >= n_slots_ ? s - n_slots_ : s;
  }
  // The row that input of this sign at this slot goes to (indexed by local neuron), for adding
  // into it directly: the slot's queued input joins it first, so every element keeps the order
  // of its adds.
  double* row_for(size_t slot, double sign, bool long_range) {
    settle_slot(slot);
    return rows(slot, sign, long_range);
  }
  // `value` into the row of the sign of `sign` (a synapse's sign, or the value's own), or as an
  // event of a spike `offset` ms before the end of its step where the column takes events.
  void add_signed(size_t slot, uint32_t lid, double sign, double value, bool long_range, double offset = 0.0,
                  uint32_t sender = 0) {
    if (event_ports_ && takes_events_[lid]) {
      (long_range ? long_events_ : events_)[slot].push_back({lid, sender, offset, value});
      return;
    }
    double* to = rows(slot, sign, long_range) + lid;
    if (queued_)
      queues_[slot].push_back({to, value});
    else
      *to += value;
  }
  void add_at_slot(size_t slot, uint32_t lid, double weight, bool long_range, double offset = 0.0,
                   uint32_t sender = 0) {
    add_signed(slot, lid, weight, weight, long_range, offset, sender);
  }
  // n spikes of a generator arriving in `step`: their summed weight, or n events.
  void add_spikes(size_t slot, uint32_t lid, double n, double weight, double offset = 0.0, uint32_t sender = 0) {
    if (!event_ports_ || !takes_events_[lid]) return add_at_slot(slot, lid, n * weight, false);
    for (long k = std::lround(n); k > 0; --k) events_[slot].push_back({lid, sender, offset, weight});
  }
  // Checkpoints: the input scheduled for steps from `now` on, as sum(step, column, row, value)
  // for the summed rows (row 0 excitatory, 1 inhibitory, 2 current, 3 and 4 long-range
  // excitatory and inhibitory; only values that are not +0.0) and event(step, event, long_range)
  // for event ports, in the order added; and the same put back into buffers shaped for the
  // same steps.
  template <class Sum, class Event>
  void visit_scheduled(int64_t now, Sum sum, Event event) {
    settle_all();
    for (int64_t s = now; s < now + int64_t(n_slots_); ++s) {
      const size_t at = offset(s);
      int row = 0;
      for (const std::vector<double>* rows :
           {&excitatory_, &inhibitory_, currents_ ? &current_ : nullptr, &long_excitatory_, &long_inhibitory_}) {
        if (rows && !rows->empty())
          for (size_t i = 0; i < n_local_; ++i)
            if (std::bit_cast<uint64_t>((*rows)[at + i])) sum(s, uint32_t(i), row, (*rows)[at + i]);
        ++row;
      }
      for (const bool long_range : {false, true}) {
        const auto& lists = long_range ? long_events_ : events_;
        if (!lists.empty())
          for (const InputEvent& e : lists[slot(s)]) event(s, e, long_range);
      }
    }
  }
  void restore_sum(int64_t step, uint32_t column, int row, double value) {
    std::vector<double>* rows[] = {&excitatory_, &inhibitory_, &current_, &long_excitatory_, &long_inhibitory_};
    rows[row]->at(offset(step) + column) = value;
  }
  void restore_event(int64_t step, const InputEvent& e, bool long_range = false) {
    (long_range ? long_events_ : events_).at(slot(step)).push_back(e);
  }
  bool takes_events() const { return event_ports_; }
  // The events arriving in `step`, in the order they were added; the kernel clears them once
  // the step's cells are updated.
  const std::vector<InputEvent>& events(int64_t step) const {
    static const std::vector<InputEvent> none;
    return events_.empty() ? none : events_[slot(step)];
  }
  void clear_events(int64_t step) {
    if (!events_.empty()) events_[slot(step)].clear();
  }
  void add_current(int64_t step, uint32_t lid, double amplitude) { current_[current_at(step) + lid] += amplitude; }
  // Bytes of the rows synaptic input is added into (what queued input is for).
  size_t synaptic_row_bytes() const {
    return (excitatory_.size() + inhibitory_.size() + long_excitatory_.size() + long_inhibitory_.size()) *
           sizeof(double);
  }
  size_t bytes() const {
    size_t queued = 0;
    for (const std::vector<QueuedInput>& q : queues_) queued += q.capacity() * sizeof(QueuedInput);
    for (const auto* lists : {&events_, &long_events_})
      for (const std::vector<InputEvent>& e : *lists) queued += e.capacity() * sizeof(InputEvent);
    return synaptic_row_bytes() + current_.size() * sizeof(double) + queued;
  }

 private:
  size_t current_at(int64_t step) const { return currents_ ? offset(step) : 0; }
  double* rows(size_t slot, double sign, bool long_range) {
    std::vector<double>& rows =
        long_range ? (sign >= 0.0 ? long_excitatory_ : long_inhibitory_) : (sign >= 0.0 ? excitatory_ : inhibitory_);
    return rows.data() + slot * n_local_;
  }
  void settle_slot(size_t slot) {
    if (!queued_) return;
    std::vector<QueuedInput>& queue = queues_[slot];
    // The slot's rows were last touched a ring ago: fetched in order they stream from memory,
    // where the queue's scattered adds would each wait for their own line.
    if (queue.size() > n_local_ / 16) prefetch_rows(slot);
    for (const QueuedInput& q : queue) *q.to += q.value;
    queue.clear();
  }
  void prefetch_rows(size_t slot) const {
    constexpr size_t per_line = 64 / sizeof(double);
    const double* excitatory = excitatory_.data() + slot * n_local_;
    const double* inhibitory = inhibitory_.data() + slot * n_local_;
    for (size_t i = 0; i < n_local_; i += per_line) {
      __builtin_prefetch(excitatory + i, 1);
      __builtin_prefetch(inhibitory + i, 1);
    }
  }
  void settle_all() {
    for (size_t slot = 0; slot < queues_.size(); ++slot) settle_slot(slot);
  }

  bool queued_ = false;
  bool currents_ = true;
  std::vector<std::vector<QueuedInput>> queues_;               // by slot, while queued_
  std::vector<uint8_t> takes_events_;                          // by input column; empty: no event ports
  bool event_ports_ = false;                                   // !takes_events_.empty(), in one load for delivery
  std::vector<std::vector<InputEvent>> events_, long_events_;  // by slot
  size_t n_slots_ = 0, n_local_ = 0;
  std::vector<double> excitatory_, inhibitory_, current_;
  std::vector<double> long_excitatory_, long_inhibitory_;
};

}  // namespace ranvier
