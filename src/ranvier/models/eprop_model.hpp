// e-prop (Bellec et al. 2020) as NEST 3.10 has it: each neuron with incoming e-prop synapses
// keeps a history of what its synapses need for their gradients (recurrent neurons: surrogate
// gradient, learning signal and firing-rate regularization per step; readout neurons: the error
// signal), and a synapse computes its gradient from its target's history when its source spikes
// (or sends a flush event), updating its weight through the model's optimizer.
//
// The history is cleaned as NEST cleans it, so that eprop_history_duration reads the same: every
// synapse marks the step of its last event in its target's update marks, and what no marked
// synapse can still read (eprop_isi_trace_cutoff steps after a mark) is erased.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "models/coupled_model.hpp"
#include "models/flush_clock.hpp"
#include "synapses/weight_optimizer.hpp"

namespace ranvier {

// One step of a neuron's history: a recurrent neuron's surrogate gradient, learning signal and
// firing-rate regularization, or a readout neuron's error signal (in `signal`).
struct EpropEntry {
  int64_t t;
  double surrogate_gradient = 0.0, signal = 0.0, firing_rate_reg = 0.0;
  bool operator<(int64_t step) const { return t < step; }
};

// A step some synapse will read from on, and how many synapses mark it.
struct EpropMark {
  int64_t t;
  int64_t count;
  bool operator<(int64_t step) const { return t < step; }
};

class EpropArchive {
 public:
  using Entries = std::vector<EpropEntry>;
  size_t indegree = 0;             // e-prop synapses onto the neuron: without any, it keeps nothing
  int64_t cutoff = INT64_MAX / 4;  // eprop_isi_trace_cutoff in steps (infinite by default)
  double firing_rate = 0.0;        // recurrent neurons: the running average of their rate
  Entries history;
  std::vector<EpropMark> marks;

  void append(int64_t t) {
    if (indegree) history.push_back({t});
  }
  Entries::iterator at(int64_t t) { return std::lower_bound(history.begin(), history.end(), t); }
  // The entry of step t, which a synapse reading the history needs (NEST's KernelException).
  Entries::iterator required(Entries::iterator it, int64_t t, uint32_t gid) const {
    if (it == history.end() || it->t != t) missing(it, t, gid);
    return it;
  }
  [[noreturn]] void missing(Entries::iterator it, int64_t t, uint32_t gid) const;
  // A synapse's event at t_spike after its last at t_previous (0: none): its mark moves, and
  // what no mark needs any longer is erased.
  void erase_used(int64_t t_spike, int64_t t_previous);
  double duration(double h) const { return h * double(history.size()); }

  // NEST's original e-prop (the _bsshslm_2020 models), whose synapses learn once per update
  // interval: their marks are the updates they still have to make (at `shift` after each
  // interval's start), each interval's firing-rate regularization is kept until then, and
  // intervals no synapse will read are erased at the start of the next.
  struct Regularization {
    int64_t t;  // the interval's last step + 1 (NEST's t_current_update + resolution)
    double value;
    bool operator<(int64_t step) const { return t < step; }
  };
  std::vector<Regularization> regularization;
  size_t registered = 0;  // the synapses that marked their first update
  int64_t spikes = 0;     // in the current interval
  // `synapses` more synapses will make their first update at `shift`.
  void mark_first_updates(int64_t shift, size_t synapses);
  void move_update_mark(int64_t t_previous, int64_t t_current, int64_t shift, bool flush, bool previous_flush);
  void erase_unread_intervals(int64_t interval);
  void erase_used_regularization();
  double regularization_at(int64_t t) const {
    const auto it = std::lower_bound(regularization.begin(), regularization.end(), t);
    if (it == regularization.end())
      throw KernelStateError("e-prop: no firing-rate regularization at step " + std::to_string(t) +
                             " (an update interval's last step was not simulated)");
    return it->value;
  }
};

// A synapse's traces in its record after its weight, as NEST's eprop_synapse keeps them, then
// its optimizer's state (WeightOptimizer::Slot).
enum EpropTrace {
  t_previous,      // step of its last event (0: none yet)
  previous_flush,  // whether that was a flush event
  z_bar,
  e_bar,
  e_bar_reg,
  epsilon,   // the adaptation's eligibility (adaptive neurons)
  z_buffer,  // the presynaptic spike not yet in z_bar
  gradient,
  cutoff_left,  // steps of the trace still to read before eprop_isi_trace_cutoff
  decay_steps,  // steps the traces still have to decay by
  n_traces
};

// What a neuron model that e-prop synapses target implements.
class EpropModel {
 public:
  virtual ~EpropModel() = default;
  static EpropArchive& archive(NeuronGroup& g, size_t i);
  virtual Eprop variant() const { return Eprop::current; }
  // A learning signal of value `signal` that a readout computed in step t.
  virtual void learn(NeuronGroup&, size_t, int64_t /*t*/, double /*signal*/) const {}
  // eprop_synapse: the gradient of a synapse onto neuron i from its last event to this one at
  // t_spike (a flush event where `flush`), applied to its weight w by the optimizer.
  virtual void gradient(NeuronGroup&, size_t, double* /*trace*/, double& /*w*/, const WeightOptimizer&,
                        int64_t /*t_spike*/, bool /*flush*/) const {}
  // eprop_synapse_bsshslm_2020: the steps by which the history lags the neuron's time (NEST's
  // get_shift), whether the neuron is recurrent, and the gradient of one update interval from
  // the synapse's presynaptic intervals since its last trigger spike (NEST's compute_gradient).
  virtual int64_t shift() const { return 0; }
  virtual bool recurrent() const { return true; }
  virtual double interval_gradient(NeuronGroup&, size_t, const std::vector<int64_t>& /*isis*/,
                                   int64_t /*t_previous_update*/, int64_t /*t_previous_trigger*/, double /*kappa*/,
                                   bool /*average*/, const EpropSchedule&) const {
    return 0.0;
  }
};

// A group of e-prop neurons: their coupling (learning signals, a readout's target and window)
// and each neuron's history.
struct EpropState final : CouplingBuffers {
  double h = 0.1;  // the resolution of the run, for eprop_history_duration
  std::vector<EpropArchive> archives;
  FlushClock flushes;
  std::vector<int64_t> steps_to_spike;  // ignore_and_spike: steps to the next forced spike (-1: not set)
  // the input current of the next step, the last step's spike, and the input a delta neuron
  // keeps through its refractory period (refractory_input); a readout's learning window and
  // target for the next step
  std::vector<double> i_in, z, refractory_spikes, window, goal;
  explicit EpropState(size_t n)
      : archives(n),
        flushes(n),
        steps_to_spike(n, -1),
        i_in(n, 0.0),
        z(n, 0.0),
        refractory_spikes(n, 0.0),
        window(n, 0.0),
        goal(n, 0.0) {}
};

inline EpropArchive& EpropModel::archive(NeuronGroup& g, size_t i) {
  return static_cast<EpropState&>(*g.state).archives[i];
}

// The loop every e-prop model's gradient shares (NEST's compute_gradient): over the steps of the
// target's history from the synapse's last event to this one, at most the cutoff, `step(entry,
// z)` advances the model's traces by one step with presynaptic spike z and returns the step's
// gradient; `decay(steps)` lets them decay over the steps after the cutoff.
template <class Step, class Decay>
void eprop_gradient(EpropArchive& a, uint32_t gid, double* trace, double& w, const WeightOptimizer& optimizer,
                    int64_t t_spike, bool flush, Step step, Decay decay) {
  const int64_t t_prev = int64_t(trace[t_previous]);
  const bool after_flush = trace[previous_flush] != 0.0;
  const int64_t isi = t_spike - t_prev;
  if (!after_flush) trace[cutoff_left] = double(a.cutoff);
  double z_current = 0.0;
  if (!after_flush) {
    trace[gradient] = 0.0;
    z_current = 1.0;
  }
  const int64_t t_begin = t_prev - 1;
  const int64_t steps = std::min(int64_t(trace[cutoff_left]), isi);
  const int64_t t_end = t_begin + steps;
  auto it = a.at(t_begin);
  for (int64_t t = t_begin; t < t_end; ++t, ++it) {
    const EpropEntry& entry = *a.required(it, t, gid);
    const double z = trace[z_buffer];
    trace[z_buffer] = z_current;
    z_current = 0.0;
    const double increment = step(entry, z);
    if (optimizer.each_step) {
      trace[gradient] = increment;
      w = optimizer.optimized(trace + n_traces, t + 1, increment, w);
    } else {
      trace[gradient] += increment;
    }
  }
  trace[cutoff_left] -= double(steps);
  const int64_t rest = isi - steps;
  trace[decay_steps] += double(rest);
  if (!flush && trace[decay_steps] > 0) {
    decay(trace[decay_steps]);
    trace[decay_steps] = 0.0;
  }
  if (!flush && !optimizer.each_step) w = optimizer.optimized(trace + n_traces, t_end + rest, trace[gradient], w);
}

}  // namespace ranvier
