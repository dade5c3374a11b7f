// A neuron's part in NEST's structural plasticity (Diaz-Pier et al. 2016; NEST's
// StructuralPlasticityNode, which every archiving node is): a calcium trace of its spikes, and
// synaptic elements, named kinds of bouton or spine whose number z grows or shrinks with the
// calcium along a growth curve. The calcium's variables (Ca, tau_Ca, beta_Ca) are the model's
// last variables (NeuronModel::variables); the kernel (kernel/structural_plasticity.hpp) pairs
// vacant elements into synapses and removes synapses where z falls below those connected.
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ranvier {

struct Variable;
struct NeuronGroup;

// The calcium's variables, after an archiving model's own.
const std::vector<Variable>& calcium_variables();

// NEST's growth curves, by name in NEST's order (its kernel status growth_curves).
enum class GrowthCurve : uint8_t { gaussian, linear, sigmoid };
const std::vector<std::string>& growth_curve_names();

struct SynapticElement {
  std::string name;
  double z = 0.0;  // elements, connected or vacant
  int64_t z_connected = 0;
  bool continuous = true;    // z is shown as it is, else as floor(z)
  double growth_rate = 1.0;  // elements per ms at the curve's peak
  double tau_vacant = 0.1;   // the share of vacant elements lost at each structural update
  GrowthCurve curve = GrowthCurve::linear;
  double eps = 0.7;  // the calcium at which growth stops (the target)
  double eta = 0.1;  // gaussian: the calcium at which growth starts
  double psi = 0.1;  // sigmoid: its width

  // Vacant elements; negative: that many synapses must go.
  int64_t vacant() const { return int64_t(std::floor(z)) - z_connected; }
  double value() const { return continuous ? z : std::floor(z); }
  // n synapses made (negative: removed); z never falls below those connected.
  void connect(int64_t n) {
    z_connected += n;
    if (double(z_connected) > std::floor(z)) z = double(z_connected) + (z - std::floor(z));
  }
  void decay_vacant() {
    if (vacant() > 0) z -= double(vacant()) * tau_vacant;
  }
  // z from t0 to t1 (ms) while the calcium decays from ca0 with tau_ca, as NEST integrates each
  // curve: the linear one in closed form, the others by forward Euler in steps of h ms.
  void grow(double t0, double t1, double ca0, double tau_ca, double h);
  // Values by NEST's names (growth_curve: the index of its name; continuous: 0 or 1). A new
  // curve starts from its defaults, as in NEST; parameters of other curves are ignored, as in
  // NEST. Throws bad_value, or UnknownParameterError for a name no element has.
  void set(const std::map<std::string, double>& values);
  // NEST's status of the element: its own values and its curve's.
  std::map<std::string, double> get() const;
  // The element as bytes (its name, then its fields), and back from them (p moves past it):
  // how it travels between ranks and into checkpoints.
  void append_to(std::vector<uint8_t>& out) const;
  static SynapticElement read_from(const uint8_t*& p);
};

// A group's elements and the time its calcium holds, beside the calcium's variables.
struct StructuralState {
  int calcium = -1;           // index of Ca among the group's variables; -1: not an archiving model
  std::vector<double> since;  // ms: when each neuron's calcium and elements were last brought up (NEST's Ca_t)
  std::vector<std::vector<SynapticElement>> elements;  // per neuron, by name; empty: no neuron has any

  bool has_elements() const { return !elements.empty(); }
  // Brings neuron i up to t ms: its elements grow over the calcium's decay since, which it then takes.
  void advance(NeuronGroup& g, size_t i, double t, double h);
  // A spike of neuron i at t ms raises its calcium by beta_Ca.
  void spike(NeuronGroup& g, size_t i, double t, double h);
  // Neuron i's element of that name, or null.
  SynapticElement* element(size_t i, const std::string& name);
};

}  // namespace ranvier
