// Interface of a neuron model: named variables with NEST's names and defaults, checks,
// calibration (propagators for the resolution) and the update of a group over a slice.
#pragma once
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/registry.hpp"
#include "core/tics.hpp"
#include "core/unit.hpp"
#include "models/neuron_group.hpp"
#include "models/post_history.hpp"
#include "models/ring_buffers.hpp"
#include "synapses/neuromodulation.hpp"

namespace ranvier {

class CoupledModel;
class EpropModel;

struct Variable {
  std::string name;
  double default_value;
  Unit unit;
  bool boolean = false;  // a switch: 0 or 1, shown to Python as False or True
  // A choice among names (NEST's string parameters): the value is the index of the name, which
  // Python shows and takes.
  std::vector<std::string> choices = {};
  // The model's own state, which users neither see nor set (checkpoints and frozen nodes keep it
  // as any variable).
  bool hidden = false;
};

// A parameter that is a list of numbers for each neuron (NEST's q_sfa, tau_syn or spike_times),
// with its default; not recordable.
struct ListVariable {
  std::string name;
  std::vector<double> default_value;
  Unit unit;
  bool number_is_one_element = false;  // a number given stands for a list of one (NEST's pp_psc_delta)
};

// When and what a user sets on a neuron: models that take times (spike_train_injector) put
// them on the grid of resolution h, relative to the current step `now`.
struct SetContext {
  double h = 0.1;
  int64_t now = 0;
  const std::vector<std::string>* names = nullptr;  // the scalar and list variables being set
  const std::vector<std::string>* list_names = nullptr;
  int64_t tics_per_ms = default_tics_per_ms;
  bool sets(const std::string& name) const {
    for (const auto* set : {names, list_names})
      for (const std::string& n : *set)
        if (n == name) return true;
    return false;
  }
};

// The kernel's settings of NEST's original e-prop (the _bsshslm_2020 models), in steps.
struct EpropSchedule {
  int64_t update_interval = 1;
  int64_t learning_window = 1;
  bool reset_on_update = true;
};

// What a model sees of the kernel while it updates a group over steps [from, to) of a slice.
class UpdateContext {
 public:
  virtual ~UpdateContext() = default;
  int64_t origin = 0;  // first step of the slice
  int from = 0, to = 0;
  double h = 0.1;     // resolution in ms
  uint32_t seed = 0;  // rng_seed, for models with intrinsic randomness
  RingBuffers* input = nullptr;
  // Input arriving in step origin + lag, indexed by input column (NeuronGroup::input(i, port)).
  // The model reads and clears it.
  InputRow row(int lag) const { return input->row(origin + lag); }
  // The events arriving in step origin + lag for every event port of the thread (models that
  // take events pick their own columns); the kernel clears them after the step.
  const std::vector<InputEvent>& events(int lag) const { return input->events(origin + lag); }
  int64_t step_tics = 100;  // tics per step and per ms (cable cells act on events in whole tics)
  int64_t tics_per_ms = default_tics_per_ms;
  // A duration such as t_ref in whole steps, as NEST rounds it (core/tics.hpp).
  int32_t steps(double ms) const { return duration_steps(ms, tics_per_ms, step_tics); }
  // A number of steps in ms as NEST computes it.
  double nest_ms(int64_t steps) const { return NestTime{step_tics, tics_per_ms}(steps); }
  int min_delay = 1;  // NEST's min_delay in steps: the cycle
  EpropSchedule eprop;
  // Volume transmitters (synapses/neuromodulation.hpp): the spike list of node `gid` on this
  // thread, and the update of every synapse that names it at the end of step stamp - 1, after
  // which the list starts again.
  virtual ModulatorSpikes& modulator_spikes(uint32_t gid) = 0;
  virtual void neuromodulate(uint32_t gid, int64_t stamp) = 0;
  // Neuron i fired in step origin + lag: at the end of that step, or `offset` ms before it
  // (NEST's precise spike times, in [0, h)), which spike recorders keep where asked to.
  virtual void spike(NeuronGroup& g, size_t i, int lag, double offset = 0.0) = 0;
  // Neuron i sends a flush event in step origin + lag (NEST's FlushEventMechanism): it reaches
  // the e-prop synapses of its targets only, which then process their traces up to it.
  virtual void flush(NeuronGroup& g, size_t i, int lag) = 0;
  // A neuron's state diverged (NEST's NumericalInstability). The model finishes the step; the
  // kernel raises the thread's first such error at the end of the slice (or, across
  // processes, of the Simulate call), so that no thread or rank stops alone.
  virtual void fail(std::exception_ptr error) = 0;
  // Called after every step so that multimeters can sample.
  void after_step(NeuronGroup& g, int lag) {
    if (!g.probes.empty()) sample(g, lag);
  }

 protected:
  virtual void sample(NeuronGroup& g, int lag) = 0;
};

// A place on a cell: x in [0, 1] along a named unbranched region, or along branch `branch`.
struct CellLocation {
  std::string region;
  int branch = -1;  // >= 0: by index, region unused
  double x = 0.5;
};

// What a Create call says about its cells beyond named scalars (a cable cell's morphology,
// mechanisms and synapses); point neurons have none.
struct CellKind {
  virtual ~CellKind() = default;
};

// A parameter with one value per receptor port (NEST's tau_syn of the multisynapse models).
// It is kept once per Create call (every rank holds it), and its length sets the cells' ports.
struct ListParameter {
  std::string name;
  std::vector<double> default_value;
  Unit unit;               // of each value (its count is dimensionless)
  std::string count;       // the read-only length's name (NEST's n_synapses), or none (glif_psc)
  std::string recordable;  // per port k a recordable named recordable + "_k" (NEST's I_syn_1), or none
};

// The list parameters of one Create call's cells.
struct ListKind final : CellKind {
  std::map<std::string, std::vector<double>> lists;
  const std::vector<double>& at(const std::string& name) const { return lists.at(name); }
};

class NeuronModel {
 public:
  virtual ~NeuronModel() = default;
  virtual const char* name() const = 0;
  // The model's named variables: its own, then, for NEST's archiving nodes, those of structural
  // plasticity (Ca, tau_Ca, beta_Ca: models/synaptic_elements.hpp), which NEST's
  // StructuralPlasticityNode gives every archiving node.
  const std::vector<Variable>& variables() const;
  virtual const std::vector<Variable>& own_variables() const = 0;
  // NEST's recordables of the model, as its GetDefaults lists them: variables (a multimeter may
  // record any variable), to which each receptor port's adds its own (ListParameter::recordable).
  // None: GetDefaults has no recordables (NEST's parrot_neuron). By default every variable, for
  // Ranvier's own models.
  virtual std::optional<std::vector<std::string>> recordables() const;
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
  // Input ports that take spikes one by one (UpdateContext::events) rather than summed rows:
  // parrots repeat each spike, cable cells act on each in the dt step of its time, precise
  // models at its offset.
  virtual bool takes_events() const { return false; }
  // NEST's binary neurons, which tell changes of their state by pairs of spikes: they connect
  // to each other only, never to spiking neurons.
  virtual bool binary() const { return false; }
  // Whether current generators may feed the cells: those that take events take no currents,
  // unless they say so (NEST's precise models, whose currents are constant over each step).
  virtual bool takes_currents() const { return !takes_events(); }
  // Work of one cell per network step of h ms relative to a point neuron's (area placement balances it).
  virtual uint32_t cost(const CellKind*, double /*h*/) const { return 1; }
  // Spikes carry offsets within their step (cable cells' interpolated threshold crossings).
  virtual bool precise_spike_times() const { return false; }
  // Spikes carry a number in NEST's offset field, which is no time (iaf_tum_2000's released
  // resource): it travels exactly beside the spike (kernel/spike_payloads.hpp), targets read it
  // as an event's offset, recorders subtract it from the time as NEST's do; the spike and its
  // archive stay on the grid. UpdateContext::spike takes it as its offset.
  virtual bool spike_payload() const { return false; }
  // Throws IllegalConnectionError where the cells may not send spikes to cells of `target` at
  // `receptor` (NEST's send_test_event); Connect asks on every rank before anything changes.
  virtual void check_target(const NeuronModel& /*target*/, uint32_t /*receptor*/) const {}
  // The same from the target's side: whether these cells take spikes from cells of `source`
  // (null: a device) at `receptor` (NEST's handles_test_event).
  virtual void check_source(const NeuronModel* /*source*/, uint32_t /*receptor*/) const {}
  // One instance on every virtual process, each receiving the spikes of all its sources (NEST's
  // nodes without proxies that receive globally: the volume transmitter); never spikes.
  virtual bool replicated() const { return false; }
  // Nodes coupled by secondary events (models/coupled_model.hpp: rate neurons, gap junctions); null for others.
  virtual const CoupledModel* coupled_model() const { return nullptr; }
  // Nodes that e-prop synapses target (models/eprop_model.hpp); null for others.
  virtual const EpropModel* eprop_model() const { return nullptr; }
  // The history the neurons write each step for the synapses that read it (models/post_history.hpp):
  // their group state is then a PostHistoryState.
  virtual PostHistory post_history() const { return PostHistory::none; }
  // The variables whose values the spike archive keeps with each spike, for the synapses that
  // read them (a NESTML neuron's variables moved from the synapses paired with it); none for others.
  virtual const std::vector<int>& archived_variables() const {
    static const std::vector<int> none;
    return none;
  }
  // NEST's element_type of the nodes: "neuron", or "other" for nodes that are neither neurons
  // nor devices (the volume transmitter).
  virtual const char* element_type() const { return "neuron"; }
  // NEST's archiving nodes, which keep their spikes for plastic synapses and answer t_spike:
  // the models with a postsynaptic trace time constant tau_minus.
  bool archives_spikes() const;
  // Index of Ca among the variables (tau_Ca and beta_Ca follow it); -1 for other models.
  int calcium_index() const { return archives_spikes() ? int(own_variables().size()) : -1; }
  // What NEST checks for every archiving node, throwing bad_value: its triplet trace's time
  // constant (stdp_triplet_synapse) > 0, and the calcium's variables.
  void validate_traces(const NeuronGroup& g, size_t i) const;

  // Builds what a group needs beyond its named variables (input ports, compartments) from the
  // Create call's cell kind (its cells' positions in the call are gid - first_gid); throws if
  // the model needs a kind and got none, or the reverse.
  virtual void attach(NeuronGroup& g, const std::shared_ptr<const CellKind>& kind, uint32_t first_gid) const;
  // The kind of a Create call that gives none: the list parameters' defaults, or null.
  virtual std::shared_ptr<const CellKind> default_kind() const;
  // The site of a location on a cell (a multimeter's "location"), -1 for the cell itself.
  virtual int32_t site(const CellKind* kind, const CellLocation& location) const;
  // The value a probe reads; point neurons read their named variable.
  virtual double probe_value(const NeuronGroup& g, const Probe& p, int variable) const {
    return g.vars[size_t(variable)][p.neuron];
  }

  // List parameters, and their check (throws bad_value) before any cell changes: with g null on
  // every rank, then against the neurons of each local group.
  virtual const std::vector<ListParameter>& list_parameters() const;
  virtual void validate_lists(const ListKind&, const NeuronGroup* /*g*/) const {}
  // The input port that NEST's receptor_type names on cells of this kind, for spikes or for
  // currents (from current generators); throws NEST's error where there is none. Connect asks
  // every rank before any rule runs. Point neurons have port 0; cells with a kind number their
  // ports from 0 (checked against the group's ports where the cell lives).
  virtual uint32_t port(const CellKind* kind, uint32_t receptor, bool current) const;
  // NEST's receptor_types of the model: names of its receptors (none: it does not list them).
  virtual std::vector<std::pair<std::string, uint32_t>> receptor_types() const { return {}; }
  // Compartments whose variables NEST groups in one dict each (iaf_cond_alpha_mc's "soma"), by
  // name, with the suffix their variables carry here ("s": g_L.s).
  virtual std::vector<std::pair<std::string, std::string>> compartments() const { return {}; }
  // The receptor_type of a spike port: the inverse of port (a weight_recorder's "receptors").
  virtual uint32_t receptor(uint32_t port) const { return port; }
  // The receptor_type of a current port (NEST's 0 for most models): how GetConnections lists a
  // current generator's connection, and how a checkpoint's load makes it again.
  virtual uint32_t current_receptor(uint32_t port) const { return port; }
  // Index of a recordable for probe_value: a named variable, or one of a port (NEST's I_syn_1).
  virtual int recordable(const CellKind*, const std::string& name) const { return index_of(name); }

  int index_of(const std::string& var) const;
  int list_index_of(const std::string& var) const;

 private:
  mutable std::once_flag variables_once_;
  mutable std::vector<Variable> variables_;  // own_variables() and the calcium's
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
