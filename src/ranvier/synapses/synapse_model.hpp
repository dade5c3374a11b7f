// Synapse models: each built-in one lives in its own file (synapses/models/), declares its
// NEST parameters and delivers a spike to the run of its source's connections; CopyModel
// makes new kernel ids with their own common parameters.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/decay_table.hpp"
#include "core/errors.hpp"
#include "core/power.hpp"
#include "core/registry.hpp"
#include "core/unit.hpp"
#include "models/post_history.hpp"

namespace ranvier {

// A parameter with NEST's name and default. Per-connection ones (weight, delay, and those a
// model keeps in each connection's record) are given in Connect; common ones belong to the
// model (SetDefaults, CopyModel). SetDefaults sets the default of either kind.
struct SynapseParameter {
  std::string name;
  double default_value;
  Unit unit;
  bool common = false;
  bool (*valid)(double) = nullptr;  // the values NEST accepts
  const char* rule = "";            // what `valid` demands, for the error
};

// A common parameter that is a list of fixed length (stdp_facetshw_synapse_hom's look-up
// tables): NEST shows it as an array, of integers where `integers`.
struct SynapseListParameter {
  std::string name;
  std::vector<double> default_value;
  Unit unit = "";
  bool integers = true;
  bool (*valid)(double) = nullptr;  // each entry's values NEST accepts
  const char* rule = "";            // what `valid` demands, for the error
};

// Checks of parameter values that several models share.
inline bool is_positive(double v) { return v > 0.0; }
inline bool is_non_negative(double v) { return v >= 0.0; }
inline bool is_probability(double v) { return v >= 0.0 && v <= 1.0; }
inline bool is_node_id(double v) { return v >= 0.0 && v == std::floor(v) && v <= double(UINT32_MAX); }

struct SynapseModel;
struct SynapseEvent;     // one spike reaching one source's run (kernel/synapse_event.hpp)
struct ModulationEvent;  // a volume transmitter's delivery to a table (kernel/synapse_event.hpp)

// How a model delivers a spike to its source's run: two instances of one loop, without and
// with a weight recorder taking the run's events, so that runs without one keep their loop.
struct Delivery {
  void (*plain)(const SynapseEvent&);
  void (*recorded)(const SynapseEvent&);
};

// What a connection between coupled nodes carries (NEST's secondary events, kernel/coupling.hpp):
// rates of the last cycle after its delay (rate_connection_delayed) or of the same steps
// (rate_connection_instantaneous), a gap junction's partner potential (gap_junction), or a
// Siegert neuron's rate as drift and diffusion of its targets' input (diffusion_connection),
// or an e-prop readout's error signal to the neurons it teaches (eprop_learning_signal_connection),
// or an astrocyte's slow inward current after its delay (sic_connection); spike connections
// carry none.
enum class SecondaryEvent {
  none,
  delayed_rate,
  instantaneous_rate,
  gap_junction,
  diffusion,
  learning_signal,
  slow_inward_current
};
// Whether a connection of the kind has a delay of its own; the others' is the kernel's
// communication interval, over which relaxation iterates.
inline bool has_own_delay(SecondaryEvent kind) {
  return kind == SecondaryEvent::none || kind == SecondaryEvent::delayed_rate ||
         kind == SecondaryEvent::slow_inward_current;
}

// The variant of e-prop a synapse model or neuron model takes part in: NEST's current one, or
// the original of Bellec et al. (2020) that learns once per update interval (_bsshslm_2020).
enum class Eprop { none, current, bsshslm_2020 };

// A built-in synapse model, registered under its NEST name.
struct SynapseBase {
  std::vector<SynapseParameter> parameters;
  std::vector<SynapseListParameter> lists = {};
  Delivery deliver;
  bool plastic = false;        // weights change: kept per connection, >= 0, post spikes archived
  bool common_weight = false;  // the weight is the model's (SetDefaults), not the connection's
  bool from_devices = false;   // stimulating devices may use it (they deliver as static synapses)
  bool own_records = false;    // each connection's record evolves by itself (random release): never shared
  SecondaryEvent secondary = SecondaryEvent::none;  // between coupled nodes (no spikes)
  // e-prop plasticity (models/eprop_model.hpp): targets are e-prop neurons of the same variant,
  // the delay is one step, and the sources' flush events reach the synapses
  // (kernel/flush_events.hpp).
  Eprop eprop = Eprop::none;
  // The history of its targets the model reads (models/post_history.hpp): they must write it.
  PostHistory post_history = PostHistory::none;
  // Hidden state after the record's parameters, with its value in a new connection, and the
  // entries of it that connections take by name (SynapseCollection.set), with their index.
  std::vector<double> state = {};
  std::vector<std::pair<const char*, size_t>> named_state = {};
  // The traces a plastic model reads, as NEST's synapse types declare theirs to the archiving
  // node: the common parameter that is the time constant of its presynaptic trace K+ (the
  // kernel tabulates its decay before each run: SynapseModel::pre_decay), and the target
  // neuron's parameter that is the time constant of the postsynaptic trace K- its spike
  // archive keeps. Null: none (a per-connection K+ decays by its own time constant).
  const char* pre_trace_tau = nullptr;
  const char* post_trace_tau = nullptr;
  // The target's parameter that is the time constant of a second postsynaptic trace the model
  // reads at each post spike (stdp_triplet_synapse's tau_minus_triplet), kept beside the
  // archives of its targets only; null: none.
  const char* post_triplet_tau = nullptr;
  // The model's own names for its weight and its delay (a NESTML synapse's weight and delay
  // variables), which NEST takes and shows beside weight and delay; null: none.
  const char* weight_name = nullptr;
  const char* delay_name = nullptr;
  // The only neuron model the synapses may target, whose spike archive they read the values kept
  // with each spike from (NeuronModel::archived_variables; a NESTML synapse generated with its
  // neuron); null: any.
  const char* paired_neuron = nullptr;
  // Common parameters that are exponents the model raises values to at its events: the kernel
  // tabulates the power of each before each run (SynapseModel::power).
  std::vector<const char*> exponents = {};
  // A rule among a new record's parameters (NEST's "x + y must be <= 1"), or null.
  void (*check)(const double* record) = nullptr;
  // The weights NEST accepts for a connection with this record (STDP: >= 0, the sign of Wmax), or
  // null; checked where a weight is set with the record's parameters, or alone on a connection.
  void (*check_weight)(double w, const SynapseModel& model, const double* record) = nullptr;
  // A check of the model's common parameters before a Connect call makes any connection, or null.
  void (*check_model)(const SynapseModel& model) = nullptr;
  // Neuromodulated models (synapses/neuromodulation.hpp): the common parameter that names their
  // volume transmitter (a node id; 0: none), and the update of a table's connections at its
  // deliveries.
  const char* modulator = nullptr;
  void (*modulate)(const ModulationEvent&) = nullptr;
  // Delays that need not be whole steps (cont_delay_synapse): the record slot of the offset
  // (ContinuousDelay), or -1.
  int delay_offset_slot = -1;

  int index_of(const std::string& name) const {
    for (size_t i = 0; i < parameters.size(); ++i)
      if (parameters[i].name == name) return int(i);
    return -1;
  }
  // Parameters each connection keeps in its record: the per-connection ones but weight and delay.
  bool in_record(const SynapseParameter& p) const { return !p.common && p.name != "weight" && p.name != "delay"; }
  std::vector<std::string> record_parameters() const {
    std::vector<std::string> out;
    for (const SynapseParameter& p : parameters)
      if (in_record(p)) out.push_back(p.name);
    return out;
  }
  size_t record_width() const { return record_parameters().size() + state.size(); }
};
// Entries point to the one definition of each model, so a NEST name variant is an alias.
using SynapseBases = Registry<const SynapseBase*>;

// Registers a model under its NEST name and, as NEST 3.10 does for every synapse model here,
// under name_hpc and name_lbl. NEST's variants differ only in how they address targets and
// in a connection label; Ranvier stores every model compactly, so they are the same model, the
// _lbl one with a synapse_label in each connection's record (SynapseModel::labelled).
inline bool register_synapse(const std::string& name, const SynapseBase* base) {
  SynapseBases& bases = SynapseBases::instance();
  return bases.add(name, base) && bases.add(name + "_hpc", base) && bases.add(name + "_lbl", base);
}

// The synapse models that modules added (plugin/install.cpp), in the order they came: a kernel
// numbers them after the built-in ones, so that a built-in model's id, and the random streams
// its connections draw from, do not depend on the modules a process installed.
inline std::vector<std::string>& module_synapse_models() {
  static std::vector<std::string> names;
  return names;
}

// A delay of any length of at least one step (cont_delay_synapse), as NEST splits it: with d =
// (n + f) h, f in (0, 1), a connection stores n steps and the offset (1 - f) h, and a spike
// with offset o arrives n + 1 steps on with offset o + (1 - f) h, or n steps on with that less
// h where the sum reaches h; whole delays store their steps and offset 0.
struct ContinuousDelay {
  uint32_t steps;
  double offset;
  static ContinuousDelay of(double d, double h) {
    double whole = 0.0;
    const double f = std::modf(d / h, &whole);
    if (!(whole >= 1.0 && whole < 65535.0))
      throw bad_value("delay", d, "at least the resolution and below 65535 steps");
    return f == 0.0 ? ContinuousDelay{uint32_t(whole), 0.0} : ContinuousDelay{uint32_t(whole), h * (1.0 - f)};
  }
  // NEST's steps: those after which a spike on the grid arrives (devices' connections keep these).
  uint32_t nest_steps() const { return steps + (offset > 0.0 ? 1 : 0); }
  // As GetConnections shows it (NEST: the steps it counts in ms, less the offset).
  static double ms(uint32_t steps, double offset, double h) {
    return offset > 0.0 ? double(steps + 1) * h - offset : double(steps) * h;
  }
  // A spike `spike_offset` ms before the end of its step, known to within `precision` ms (the
  // exchange carries offsets in fractions of a step): the steps after that step in which it
  // arrives, and its offset there. A sum within that precision of a whole step is on it.
  static std::pair<uint32_t, double> arrival(uint32_t steps, double offset, double spike_offset, double h,
                                             double precision) {
    if (offset == 0.0) return {steps, spike_offset};
    const double total = spike_offset + offset;
    return total < h - precision ? std::pair{steps + 1, total} : std::pair{steps, std::max(total - h, 0.0)};
  }
};

// NEST's labelled variants (name_lbl): each connection carries a synapse_label.
inline bool is_labelled(const std::string& name) {
  return name.size() > 4 && name.compare(name.size() - 4, 4, "_lbl") == 0;
}
constexpr const char* label_name = "synapse_label";

// A synapse model of the kernel: a built-in one or a CopyModel of it.
struct SynapseModel {
  std::string name;
  const SynapseBase* base = nullptr;
  // A labelled variant's connections keep their synapse_label after the base's record (its
  // state's slots stay where the model reads them); `label` is the default, -1 (NEST's
  // UNLABELED_CONNECTION) unless set.
  bool labelled = false;
  double label = -1.0;
  std::vector<double> values;              // by parameter of base; per-connection ones hold their default
  std::vector<std::vector<double>> lists;  // by list parameter of base
  int32_t weight_recorder = -1;            // device index of its weight_recorder; -1: none
  // The kernel id whose random streams the model's connections draw from (random release): its
  // own, but NEST's variants of a built-in model (_hpc, _lbl) draw as the model itself.
  uint32_t streams = 0;

  SynapseModel(std::string name, const SynapseBase* base, bool labelled = false)
      : name(std::move(name)), base(base), labelled(labelled) {
    for (const SynapseParameter& p : base->parameters) values.push_back(p.default_value);
    for (const SynapseListParameter& p : base->lists) lists.push_back(p.default_value);
  }
  bool plastic() const { return base->plastic; }
  size_t record_width() const { return base->record_width() + (labelled ? 1 : 0); }
  size_t label_slot() const { return base->record_width(); }
  // A synapse_label as NEST takes it: a whole number >= 0.
  static double checked_label(double v) {
    if (!(v >= 0.0 && v == std::trunc(v))) throw bad_value(label_name, v, "a whole number >= 0");
    return v;
  }
  // Before each run: the decay of the presynaptic trace at resolution h, where the model has
  // one, and the powers of its exponents (kept while an exponent stays).
  void tabulate(double h) {
    if (base->pre_trace_tau) pre_decay_.emplace(value_or(base->pre_trace_tau, 0.0), h);
    for (size_t i = 0; i < base->exponents.size(); ++i) {
      const double mu = value_or(base->exponents[i], 1.0);
      if (i == powers_.size()) powers_.emplace_back(mu);
      if (powers_[i].exponent() != mu) powers_[i] = PowerTable(mu);
    }
  }
  const DecayTable& pre_decay() const { return *pre_decay_; }
  // x^mu for the i-th of the base's exponents.
  const PowerTable& power(size_t i) const { return powers_[i]; }
  double value(int index) const { return values[size_t(index)]; }
  double value_or(const std::string& parameter, double fallback) const {
    const int i = base->index_of(parameter);
    return i < 0 ? fallback : values[size_t(i)];
  }
  // Sets a common parameter, or the default of one in the connections' records; unknown
  // names, per-connection weights and delays (Connect gives them) and values NEST rejects
  // are errors.
  void set(const std::string& parameter, double value) {
    if (labelled && parameter == label_name) {  // the model's default may stay unlabelled
      label = value == -1.0 ? value : checked_label(value);
      return;
    }
    const int i = base->index_of(parameter);
    if (i < 0 || !(base->parameters[size_t(i)].common || base->in_record(base->parameters[size_t(i)])))
      throw UnknownParameterError(name + " has no model parameter " + parameter);
    values[size_t(i)] = checked(base->parameters[size_t(i)], value);
  }
  // Sets a list parameter: as long as its default, each entry as NEST accepts it.
  void set_list(const std::string& parameter, const std::vector<double>& entries) {
    for (size_t i = 0; i < base->lists.size(); ++i) {
      const SynapseListParameter& p = base->lists[i];
      if (p.name != parameter) continue;
      if (entries.size() != p.default_value.size())
        throw BadParameterError(parameter + " must have " + std::to_string(p.default_value.size()) + " entries, got " +
                                std::to_string(entries.size()));
      for (double v : entries)
        if (std::isnan(v) || (p.integers && v != std::trunc(v)) || (p.valid && !p.valid(v)))
          throw bad_value(parameter, v, std::string(p.integers ? "integers " : "") + p.rule);
      lists[i] = entries;
      return;
    }
    throw UnknownParameterError(name + " has no model parameter " + parameter);
  }
  // The record of a new connection: the given per-connection values, the model's defaults
  // for the others, then the initial hidden state.
  std::vector<double> new_record(const std::map<std::string, double>& given) const {
    std::vector<double> record;
    for (const auto& [parameter, value] : given) {
      if (labelled && parameter == label_name) continue;
      const int i = base->index_of(parameter);
      if (i < 0 || !base->in_record(base->parameters[size_t(i)]))
        throw UnknownParameterError(name + " has no per-connection parameter " + parameter);
    }
    for (size_t i = 0; i < base->parameters.size(); ++i) {
      const SynapseParameter& p = base->parameters[i];
      if (!base->in_record(p)) continue;
      const auto it = given.find(p.name);
      record.push_back(it == given.end() ? values[i] : checked(p, it->second));
    }
    if (base->check) base->check(record.data());
    record.insert(record.end(), base->state.begin(), base->state.end());
    if (labelled) {
      const auto it = given.find(label_name);
      record.push_back(it == given.end() ? label : checked_label(it->second));
    }
    return record;
  }

 private:
  std::optional<DecayTable> pre_decay_;
  std::vector<PowerTable> powers_;
  static double checked(const SynapseParameter& p, double value) {
    if (std::isnan(value) || (p.valid && !p.valid(value))) throw bad_value(p.name, value, p.rule);
    return value;
  }
};

}  // namespace ranvier
