// What NEST's iaf_psc_exp_multisynapse and iaf_psc_alpha_multisynapse share: their parameters,
// the tau_syn list (one receptor port per entry, NEST's receptor_type 1..n, kept per Create
// call), the per-port currents and the step of the membrane. Values are absolute (mV);
// updates work relative to E_L, as iaf_common.hpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "models/iaf_common.hpp"

namespace ranvier::multisynapse {

// V_m .. V_reset sit at the indices of iaf::Var (iaf::finish_step reads them there).
enum Var { V_m, E_L, C_m, tau_m, t_ref, V_th, V_reset, I_e, tau_minus, I_syn, I_stim, n_common };
static_assert(int(V_reset) == int(iaf::V_reset) && int(V_th) == int(iaf::V_th) && int(t_ref) == int(iaf::t_ref));

inline std::vector<Variable> common_variables() {
  return {{"V_m", -70.0}, {"E_L", -70.0},   {"C_m", 250.0},    {"tau_m", 10.0}, {"t_ref", 2.0},  {"V_th", -55.0},
          {"V_reset", -70.0}, {"I_e", 0.0}, {"tau_minus", 20.0}, {"I_syn", 0.0}, {"I_stim", 0.0}};
}

// The receptors of a group: tau_syn, and per port the state of its current, port-major
// ([port * n + neuron]) so that each port's loop streams.
struct Receptors final : CellState {
  std::vector<double> tau_syn;
  std::vector<double> current;     // the PSC of each port (NEST's I_syn_k)
  std::vector<double> derivative;  // alpha PSCs only: its time derivative
  size_t count() const { return tau_syn.size(); }
};

inline Receptors& receptors(const NeuronGroup& g) { return static_cast<Receptors&>(*g.state); }

// The parts of the interface both models implement alike; Model::name(), variables(),
// calibrate and update are their own. `alpha`: the PSCs keep a derivative.
template <bool alpha>
class Base : public NeuronModel {
 public:
  const std::vector<ListParameter>& list_parameters() const override {
    static const std::vector<ListParameter> lists{{"tau_syn", {2.0}, "n_synapses", "I_syn"}};
    return lists;
  }
  void validate_lists(const ListKind& kind, const NeuronGroup* g) const override {
    if (!g)
      for (double t : kind.at("tau_syn"))
        if (!(t > 0)) throw bad_value("tau_syn", t, "> 0 (every entry)");
  }
  int tau_minus_index() const override { return tau_minus; }

  // Spikes enter at receptor_type 1..n (port 0..n-1), currents at receptor_type 0 (NEST).
  uint32_t port(const CellKind* kind, uint32_t receptor, bool current) const override {
    const size_t n = receptor_count(kind);
    const std::string of = std::string(" into ") + name() + " (its tau_syn has " + std::to_string(n) + " entries)";
    if (current) {
      if (receptor != 0) throw bad_value("receptor_type", receptor, "0 for currents" + of);
      return 0;
    }
    if (receptor == 0 || receptor > n)
      throw bad_value("receptor_type", receptor,
                      n ? "1.." + std::to_string(n) + " for spikes" + of
                        : std::string("a spike receptor of ") + name() + ", which has none (its tau_syn is empty)");
    return receptor - 1;
  }
  uint32_t receptor(uint32_t port) const override { return port + 1; }
  int recordable(const CellKind* kind, const std::string& name) const override {
    const int k = port_number(name, list_parameters().front().recordable + "_");
    if (k >= 1 && size_t(k) <= receptor_count(kind)) return int(variables().size()) + k - 1;
    return index_of(name);
  }
  double probe_value(const NeuronGroup& g, const Probe& p, int variable) const override {
    const size_t nv = variables().size();
    if (size_t(variable) < nv) return g.vars[size_t(variable)][p.neuron];
    return receptors(g).current[(size_t(variable) - nv) * g.size() + p.neuron];
  }

  // Ports from the kind's tau_syn; the currents of the ports that stay keep their values.
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t) const override {
    const auto* lists = dynamic_cast<const ListKind*>(kind.get());
    if (!lists) throw BadParameterError(std::string(name()) + " takes a tau_syn list, not a cell description");
    auto next = std::make_unique<Receptors>();
    next->tau_syn = lists->at("tau_syn");
    const size_t n = g.size(), ports = next->count();
    next->current.assign(ports * n, 0.0);
    if (alpha) next->derivative.assign(ports * n, 0.0);
    if (g.state) {
      const Receptors& old = receptors(g);
      const size_t kept = std::min(old.count(), ports) * n;
      std::copy_n(old.current.begin(), kept, next->current.begin());
      if (alpha) std::copy_n(old.derivative.begin(), kept, next->derivative.begin());
    }
    g.ports = uint32_t(std::max<size_t>(ports, 1));  // currents enter at the first column
    g.state = std::move(next);
  }

  void validate(NeuronGroup& g, size_t i) const override {
    auto v = [&](int k) { return g.vars[size_t(k)][i]; };
    if (!(v(C_m) > 0)) throw bad_value("C_m", v(C_m), "> 0");
    if (!(v(tau_m) > 0)) throw bad_value("tau_m", v(tau_m), "> 0");
    if (!(v(tau_minus) > 0)) throw bad_value("tau_minus", v(tau_minus), "> 0");
    if (!(v(t_ref) >= 0)) throw bad_value("t_ref", v(t_ref), ">= 0");
    if (!(v(V_reset) < v(V_th))) throw bad_value("V_reset", v(V_reset), "below V_th");
  }

  // k of prefix + "k" (k from 1, NEST's I_syn_k), or 0 for another name.
  static int port_number(const std::string& name, const std::string& prefix) {
    const size_t p = prefix.size();
    if (name.rfind(prefix, 0) != 0 || name.size() == p || name.size() > p + 6 || name[p] == '0') return 0;
    for (size_t c = p; c < name.size(); ++c)
      if (name[c] < '0' || name[c] > '9') return 0;
    return std::stoi(name.substr(p));
  }

 private:
  static size_t receptor_count(const CellKind* kind) { return static_cast<const ListKind&>(*kind).at("tau_syn").size(); }
};

// The membrane's part of one step over the group, before the ports add theirs: y is V_m - E_L
// propagated by the external currents, and NEST's I_syn (the sum of the ports' currents at
// the end of the step, which the ports add) starts at 0. ps is the stride of the internals
// (0: shared); internals 0 and 1 are P20 (or P30) and expm1(-h / tau_m).
template <size_t ps>
void membrane(NeuronGroup& g, double* y) {
  const size_t n = g.size();
  const double *V = g.var(V_m), *EL = g.var(E_L), *Ie = g.var(I_e), *Istim = g.var(I_stim);
  const double *p20 = g.internal(0), *em1 = g.internal(1);
  double* total = g.var(I_syn);
#pragma omp simd
  for (size_t i = 0; i < n; ++i) {
    const double rest = V[i] - EL[i];
    y[i] = p20[i * ps] * (Istim[i] + Ie[i]) + em1[i * ps] * rest + rest;
    total[i] = 0.0;
  }
}

// After the ports added their parts to y: refractory cells keep V_m.
inline void hold_refractory(NeuronGroup& g, double* y) {
  const size_t n = g.size();
  const double *V = g.var(V_m), *EL = g.var(E_L);
  int32_t* refractory = g.counters.data();
#pragma omp simd
  for (size_t i = 0; i < n; ++i) {
    const int32_t r = refractory[i];
    y[i] = r == 0 ? y[i] : V[i] - EL[i];
    refractory[i] = r - (r != 0);
  }
}

// The step's input at port q of the group's cells: spikes of either sign (the sign of the
// weight is the sign of the current, as in NEST), to be read and cleared.
struct PortInput {
  double *excitatory, *inhibitory;
  PortInput(const NeuronGroup& g, const InputRow& in, uint32_t q)
      : excitatory(in.excitatory + g.input(0, q)), inhibitory(in.inhibitory + g.input(0, q)) {}
  double take(size_t i) const {
    const double w = excitatory[i] + inhibitory[i];
    excitatory[i] = inhibitory[i] = 0.0;
    return w;
  }
};

// The update both models share: each step Model::step<ps> (ps = 0 when the neurons share
// their internals), then threshold and reset.
template <class Model>
void update(NeuronGroup& g, UpdateContext& ctx) {
  g.scratch.resize(g.size());
  for (int lag = ctx.from; lag < ctx.to; ++lag) {
    const InputRow in = ctx.row(lag);
    if (g.shared_internals)
      Model::template step<0>(g, in);
    else
      Model::template step<1>(g, in);
    iaf::finish_step(g, ctx, in, lag, g.scratch.data(), I_stim);
    ctx.after_step(g, lag);
  }
}

}  // namespace ranvier::multisynapse
