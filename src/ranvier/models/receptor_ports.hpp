// Receptor ports from a tau_syn list, as NEST's multisynapse models and glif_psc have them: the
// list (one per Create call), one port per entry (NEST's receptor_type 1..n, currents at 0), the
// state of each port's current and the step's input at a port. A model with such ports derives
// from Ports and adds its own variables, checks and update. A port may feed more than one
// current (glif_psc_double_alpha's fast and slow ones).
#pragma once
#include <algorithm>
#include <memory>
#include <string>

#include "core/errors.hpp"
#include "models/neuron_model.hpp"

namespace ranvier::receptor_ports {

// The receptors of a group: per current its time constant and its peak per unit of weight, and
// the state of each current, current-major ([current * n + neuron]) so that each current's loop
// streams. A port's currents are adjacent (port p: currents p * per_port ...).
struct Receptors final : CellState {
  std::vector<double> tau_syn;
  std::vector<double> peak;  // per current; 1 where empty
  size_t per_port = 1;
  std::vector<double> current;     // the PSC of each current (NEST's I_syn_k)
  std::vector<double> derivative;  // alpha PSCs only: its time derivative
  size_t count() const { return tau_syn.size(); }
  size_t ports() const { return count() / per_port; }
  double peak_of(size_t q) const { return peak.empty() ? 1.0 : peak[q]; }
  bool save(size_t i, std::vector<double>& out) const override {
    for (const auto* values : {&current, &derivative})
      for (size_t port = 0, n = count() ? values->size() / count() : 0; n && port < count(); ++port)
        out.push_back((*values)[port * n + i]);
    return true;
  }
  void load(size_t i, const double* begin, const double*) override {
    for (auto* values : {&current, &derivative})
      for (size_t port = 0, n = count() ? values->size() / count() : 0; n && port < count(); ++port)
        (*values)[port * n + i] = *begin++;
  }
};

inline Receptors& receptors(const NeuronGroup& g) { return static_cast<Receptors&>(*g.state); }

// The port of NEST's receptor_type on a model with n spike receptors (1..n, ports 0..n-1) and
// currents at receptor_type 0; `list` is the parameter whose length n is.
inline uint32_t spike_port(const char* model, const char* list, size_t n, uint32_t receptor, bool current) {
  const std::string of = std::string(" into ") + model + " (its " + list + " has " + std::to_string(n) + " entries)";
  if (current) {
    if (receptor != 0) throw bad_value("receptor_type", receptor, "0 for currents" + of);
    return 0;
  }
  if (receptor == 0 || receptor > n)
    throw bad_value("receptor_type", receptor,
                    n ? "1.." + std::to_string(n) + " for spikes" + of
                      : std::string("a spike receptor of ") + model + ", which has none (its " + list + " is empty)");
  return receptor - 1;
}

// k of prefix + "k" (k from 1, NEST's I_syn_k), or 0 for another name.
inline int port_number(const std::string& name, const std::string& prefix) {
  const size_t p = prefix.size();
  if (name.rfind(prefix, 0) != 0 || name.size() == p || name.size() > p + 6 || name[p] == '0') return 0;
  for (size_t c = p; c < name.size(); ++c)
    if (name[c] < '0' || name[c] > '9') return 0;
  return std::stoi(name.substr(p));
}

// The parts of the interface every model with ports implements alike. list_parameters() names
// the list of ports first (with its count and per-port recordable prefix, either may be empty).
// `alpha`: the PSCs keep a derivative.
template <bool alpha>
class Ports : public NeuronModel {
 public:
  // Every list's entries are positive (NEST's time constants and double-alpha amplitudes).
  void validate_lists(const ListKind& kind, const NeuronGroup* g) const override {
    if (!g)
      for (const ListParameter& p : this->list_parameters())
        for (double t : kind.at(p.name))
          if (!(t > 0)) throw bad_value(p.name, t, "> 0 (every entry)");
  }

  // Spikes enter at receptor_type 1..n (port 0..n-1), currents at receptor_type 0 (NEST).
  uint32_t port(const CellKind* kind, uint32_t receptor, bool current) const override {
    return spike_port(name(), ports_list().c_str(), receptor_count(kind), receptor, current);
  }
  uint32_t receptor(uint32_t port) const override { return port + 1; }
  int recordable(const CellKind* kind, const std::string& name) const override {
    const std::string& prefix = this->list_parameters().front().recordable;
    const int k = prefix.empty() ? 0 : port_number(name, prefix + "_");
    if (k >= 1 && size_t(k) <= receptor_count(kind)) return int(variables().size()) + k - 1;
    return index_of(name);
  }
  double probe_value(const NeuronGroup& g, const Probe& p, int variable) const override {
    const size_t nv = variables().size();
    if (size_t(variable) < nv) return g.vars[size_t(variable)][p.neuron];
    return receptors(g).current[(size_t(variable) - nv) * g.size() + p.neuron];
  }

  // Ports from the kind's lists; the currents of the ports that stay keep their values.
  void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t) const override {
    const auto* lists = dynamic_cast<const ListKind*>(kind.get());
    if (!lists)
      throw BadParameterError(std::string(name()) + " takes a " + ports_list() + " list, not a cell description");
    auto next = std::make_unique<Receptors>();
    currents(*lists, *next);
    const size_t n = g.size(), count = next->count();
    next->current.assign(count * n, 0.0);
    if (alpha) next->derivative.assign(count * n, 0.0);
    if (g.state) {
      const Receptors& old = receptors(g);
      const size_t kept = std::min(old.count(), count) * n;
      std::copy_n(old.current.begin(), kept, next->current.begin());
      if (alpha) std::copy_n(old.derivative.begin(), kept, next->derivative.begin());
    }
    g.ports = uint32_t(std::max<size_t>(next->ports(), 1));  // currents enter at the first column
    g.state = std::move(next);
  }

 protected:
  // The currents of the kind's ports: one per entry of the ports' list, of its time constant.
  virtual void currents(const ListKind& kind, Receptors& r) const { r.tau_syn = kind.at(ports_list()); }

 private:
  const std::string& ports_list() const { return this->list_parameters().front().name; }
  size_t receptor_count(const CellKind* kind) const {
    return static_cast<const ListKind&>(*kind).at(ports_list()).size();
  }
};

// The receptor interface of the models whose receptors are conductances listed by E_rev
// (aeif_cond_*_multisynapse, glif_cond): receptor_type k from 1, each receptor's conductance in
// the list variable `g_list` (recorded as g_1, g_2, ...) and its derivative in `dg_list` (-1:
// exponential conductances keep none);
// Ranvier's solver takes at most max_receptors of them (ode_neuron::update_padded).
template <int g_list, int dg_list>
class ConductancePorts : public NeuronModel {
 public:
  static constexpr size_t max_receptors = 16;
  uint32_t port(const CellKind* kind, uint32_t receptor, bool current) const override {
    return spike_port(name(), "E_rev", count(kind), receptor, current);
  }
  uint32_t receptor(uint32_t port) const override { return port + 1; }
  int recordable(const CellKind* kind, const std::string& var) const override {
    const int k = port_number(var, "g_");
    if (k >= 1 && size_t(k) <= count(kind)) return int(variables().size()) + k - 1;
    return index_of(var);
  }
  double probe_value(const NeuronGroup& grp, const Probe& p, int variable) const override {
    const size_t nv = variables().size();
    if (size_t(variable) < nv) return grp.vars[size_t(variable)][p.neuron];
    return grp.list(g_list, p.neuron)[size_t(variable) - nv];
  }

 protected:
  static void check_count(const ListKind& kind) {
    if (kind.at("E_rev").size() > max_receptors)
      throw bad_value("E_rev", listed(kind.at("E_rev")),
                      "at most " + std::to_string(max_receptors) + " receptors in Ranvier (NEST takes any number)");
  }
  // Neuron i's g and dg hold one value per receptor (n).
  void check_state(const NeuronGroup& grp, size_t i, size_t n) const {
    for (const int k : {g_list, dg_list})
      if (k >= 0 && grp.list(k, i).size() != n)
        throw bad_value(list_variables()[size_t(k)].name, listed(grp.list(k, i)),
                        "one value per receptor (" + std::to_string(n) + ")");
  }
  // The group's n receptors: each neuron's g and dg keep the values of the receptors that stay.
  static void size_state(NeuronGroup& grp, size_t n) {
    for (const int k : {g_list, dg_list})
      if (k >= 0)
        for (std::vector<double>& values : grp.lists[size_t(k)]) values.resize(n, 0.0);
    grp.ports = uint32_t(std::max<size_t>(n, 1));  // currents enter at the first column
  }

 private:
  static size_t count(const CellKind* kind) { return static_cast<const ListKind&>(*kind).at("E_rev").size(); }
};

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

}  // namespace ranvier::receptor_ports
