// Interface of a neuron model: named variables with NEST's names and defaults, checks,
// calibration (propagators for the resolution) and the update of a group over a slice.
#pragma once
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "models/neuron_group.hpp"
#include "models/ring_buffers.hpp"

namespace ranvier {

struct Variable {
  std::string name;
  double default_value;
  bool boolean = false;  // a switch: 0 or 1, shown to Python as False or True
};

// A parameter that is a list of numbers for each neuron (NEST's q_sfa, tau_syn or spike_times),
// with its default; not recordable.
struct ListVariable {
  std::string name;
  std::vector<double> default_value;
};

// When and what a user sets on a neuron: models that take times (spike_train_injector) put
// them on the grid of resolution h, relative to the current step `now`.
struct SetContext {
  double h = 0.1;
  int64_t now = 0;
  const std::vector<std::string>* names = nullptr;  // the scalar and list variables being set
  const std::vector<std::string>* list_names = nullptr;
  bool sets(const std::string& name) const {
    for (const auto* set : {names, list_names})
      for (const std::string& n : *set)
        if (n == name) return true;
    return false;
  }
};

// What a model sees of the kernel while it updates a group over steps [from, to) of a slice.
class UpdateContext {
 public:
  virtual ~UpdateContext() = default;
  int64_t origin = 0;  // first step of the slice
  int from = 0, to = 0;
  double h = 0.1;  // resolution in ms
  uint32_t seed = 0;  // rng_seed, for models with intrinsic randomness
  RingBuffers* input = nullptr;
  // Input arriving in step origin + lag, indexed by the neuron's local index (first_lid + i).
  // The model reads and clears it.
  InputRow row(int lag) const { return input->row(origin + lag); }
  // Neuron i fired in step origin + lag (its spike time is the end of that step).
  virtual void spike(NeuronGroup& g, size_t i, int lag) = 0;
  // Called after every step so that multimeters can sample.
  void after_step(NeuronGroup& g, int lag) {
    if (!g.probes.empty()) sample(g, lag);
  }

 protected:
  virtual void sample(NeuronGroup& g, int lag) = 0;
};

class NeuronModel {
 public:
  virtual ~NeuronModel() = default;
  virtual const char* name() const = 0;
  virtual const std::vector<Variable>& variables() const = 0;
  virtual const std::vector<ListVariable>& list_variables() const {
    static const std::vector<ListVariable> none;
    return none;
  }
  // Throws BadParameterError (bad_value) naming the parameter and value if neuron i is inconsistent.
  virtual void validate(NeuronGroup& g, size_t i) const = 0;
  // Adjusts what a user just set on neuron i (before validate); may throw as validate does.
  virtual void on_set(NeuronGroup&, size_t, const SetContext&) const {}
  // Resets derived state after a user changed neuron i (called once it validated).
  virtual void after_set(NeuronGroup&, size_t) const {}
  // Derives the internals for resolution h; called before every simulation.
  virtual void calibrate(NeuronGroup& g, double h) const = 0;
  virtual void update(NeuronGroup& g, UpdateContext& ctx) const = 0;
  // Parrots count spikes: the kernel hands them every spike as weight 1, while their
  // synapses keep their own weights (for plasticity).
  virtual bool counts_spikes() const { return false; }
  // Index of tau_minus (for plastic synapses onto this model), -1 if the model has none.
  virtual int tau_minus_index() const { return -1; }

  int index_of(const std::string& var) const;
  int list_index_of(const std::string& var) const;
};

using NeuronModels = Registry<const NeuronModel*>;

template <typename Model>
bool register_neuron_model() {
  static const Model model;
  return NeuronModels::instance().add(model.name(), &model);
}

// One line in a model's file makes it known to the kernel and to Python.
#define RANVIER_REGISTER_NEURON_MODEL(Model) \
  [[maybe_unused]] const bool Model##_registered = ::ranvier::register_neuron_model<Model>()

}  // namespace ranvier
