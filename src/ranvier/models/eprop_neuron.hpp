// What NEST 3.10's e-prop neurons share (models/eprop_iaf*.cpp, models/eprop_readout*.cpp): the
// history's parameter and recordable, their coupling, the surrogate gradients of the recurrent
// neurons, their flush events and NEST's ignore-and-spike mechanism (a neuron that ignores its
// input and spikes at fixed intervals).
#pragma once
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "models/eprop_model.hpp"
#include "models/flush_clock.hpp"
#include "models/ignore_and_spike.hpp"

namespace ranvier::eprop {

// The surrogate gradient (pseudo-derivative) psi of a recurrent neuron's spike at potential v
// relative to threshold v_th, 0 while refractory; the choices of surrogate_gradient_function.
inline const std::vector<std::string> surrogate_names = {"piecewise_linear", "exponential", "fast_sigmoid_derivative",
                                                         "arctan_derivative"};
inline double surrogate(int choice, int32_t refractory, double v, double v_th, double height, double width) {
  if (refractory > 0) return 0.0;
  switch (choice) {
    case 1:
      return height * std::exp(-std::abs(v - v_th) / width);
    case 2:
      return height * std::pow(1.0 + std::abs(v - v_th) / width, -2.0);
    case 3:
      return height / (1.0 + std::pow((v - v_th) / width, 2.0));
    default:
      return height * std::max(0.0, 1.0 - std::abs(v - v_th) / width);
  }
}

constexpr double infinite = std::numeric_limits<double>::infinity();
constexpr double lowest = -std::numeric_limits<double>::max();

// eprop_isi_trace_cutoff in steps of h (infinite: beyond any run).
inline int64_t cutoff_steps(double ms, double h) { return std::isinf(ms) ? INT64_MAX / 4 : std::llround(ms / h); }

// The variable every e-prop neuron has, and its recordable beyond its variables.
inline const Variable cutoff_variable{"eprop_isi_trace_cutoff", infinite, "ms"};
inline const char* const history_duration = "eprop_history_duration";

// The flush and ignore-and-spike variables of the recurrent neurons, in this order.
inline std::vector<Variable> spike_mechanism_variables() {
  std::vector<Variable> v = {{"flush_event_send_interval", infinite, "ms"}};
  for (const Variable& m : ignore_and_spike::variables()) v.push_back(m);
  return v;
}

// NEST's checks of those, at variable index `first` on.
inline void validate_spike_mechanisms(const NeuronGroup& g, size_t i, int first) {
  if (!(g.vars[size_t(first)][i] > 0)) throw bad_value("flush_event_send_interval", g.vars[size_t(first)][i], "> 0");
  ignore_and_spike::validate(g, i, first + 1);
}

// Whether neuron i spikes in step t (`wants`: its dynamics say so, unless ignore_and_spike
// forces its spikes); a flush event where it does not and one is due.
inline bool spike_or_flush(NeuronGroup& g, size_t i, int first, UpdateContext& ctx, int lag, bool wants) {
  EpropState& s = static_cast<EpropState&>(*g.state);
  const bool spiked = ignore_and_spike::spikes(g, i, first + 1, ctx, wants, s.steps_to_spike[i]);
  if (spiked) ctx.spike(g, i, lag);
  s.flushes.step(g, i, ctx, lag, spiked, g.vars[size_t(first)][i]);
  return spiked;
}

// What every e-prop neuron model is: a neuron with an e-prop history (its state, and the
// recordable eprop_history_duration beyond its variables) coupled by learning signals.
class Neuron : public NeuronModel, public CoupledModel, public EpropModel {
 public:
  int recordable(const CellKind* kind, const std::string& name) const override {
    return name == history_duration ? int(variables().size()) : NeuronModel::recordable(kind, name);
  }
  double probe_value(const NeuronGroup& g, const Probe& p, int variable) const override {
    const EpropState& s = static_cast<const EpropState&>(*g.state);
    return size_t(variable) == variables().size() ? s.archives[p.neuron].duration(s.h)
                                                  : g.vars[size_t(variable)][p.neuron];
  }
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    NeuronModel::attach(g, kind, first_gid);
    g.state = std::make_unique<EpropState>(g.size());
  }
  const CoupledModel* coupled_model() const override { return this; }
  const EpropModel* eprop_model() const override { return this; }
  bool relax(NeuronGroup&, UpdateContext&, double) const override { return true; }  // nothing instantaneous
  double held(const NeuronGroup&, size_t) const override { return 0.0; }
};

// Recurrent neurons: spikes in and out, learning signals in.
class Recurrent : public Neuron {
 public:
  bool joins(SecondaryEvent kind) const override {
    return kind == SecondaryEvent::none || kind == SecondaryEvent::learning_signal;
  }
  bool sends(SecondaryEvent kind) const override { return kind == SecondaryEvent::none; }
  bool sends_values() const override { return false; }
};

// Readouts: spikes at receptor 0, rates at receptors 1 and 2 (ReadoutPort); their error
// signals out as learning signals, their readout signals as rates (ReadoutValue).
enum ReadoutPort : uint32_t { spike_port, first_rate_port, second_rate_port, readout_ports };
class Readout : public Neuron {
 public:
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const override {
    Neuron::attach(g, kind, first_gid);
    g.ports = readout_ports;
  }
  bool joins(SecondaryEvent kind) const override {
    return kind == SecondaryEvent::none || kind == SecondaryEvent::delayed_rate ||
           kind == SecondaryEvent::learning_signal;
  }
  size_t values_per_step(int) const override { return readout_values; }
  uint32_t port(const CellKind*, uint32_t receptor, bool current) const override {
    if (receptor >= readout_ports || (current && receptor != spike_port))
      throw bad_value("receptor_type", receptor,
                      current ? "0 for currents into " + std::string(name()) : "0 (spikes), 1 or 2 (rates)");
    return receptor;
  }
  void check_receptor(SecondaryEvent kind, uint32_t receptor) const override {
    if (kind == SecondaryEvent::delayed_rate && receptor == spike_port)
      throw bad_value("receptor_type", receptor, "1 or 2 for rates into " + std::string(name()));
    if (kind == SecondaryEvent::none && receptor != spike_port)
      throw bad_value("receptor_type", receptor, "0 for spikes into " + std::string(name()));
  }
};

}  // namespace ranvier::eprop
