// The Python face of the kernel: a small set of calls the ranvier package builds its
// PyNEST-style API on. Arrays cross as numpy arrays without per-element conversion.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include "bindings/arrays.hpp"
#include "bindings/cable.hpp"
#include "bindings/checkpoint.hpp"
#include "bindings/cm.hpp"
#include "bindings/devices.hpp"
#include "bindings/settings.hpp"
#include "bindings/spatial.hpp"
#include "bindings/structural.hpp"
#include "bindings/units.hpp"
#include "connect/connection_rule.hpp"
#include "connect/third_factor.hpp"
#include "core/errors.hpp"
#include "devices/device_model.hpp"
#include "devices/recorder_model.hpp"
#include "kernel/kernel.hpp"
#include "plugin/install.hpp"

namespace nb = nanobind;
using namespace ranvier;

namespace {

// (kind, p0, p1, redraw min, redraw max, clip min, clip max, values): a value spec as Python's
// parameters describe it (network.py, random.py).
using SpecArgs = std::tuple<std::string, double, double, double, double, double, double, ShapedArray>;
ValueSpec value_spec(const SpecArgs& a) {
  static const std::map<std::string, ValueSpec::Kind> kinds = {
      {"constant", ValueSpec::Kind::constant},      {"array", ValueSpec::Kind::array},
      {"uniform", ValueSpec::Kind::uniform},        {"normal", ValueSpec::Kind::normal},
      {"lognormal", ValueSpec::Kind::lognormal},    {"exponential", ValueSpec::Kind::exponential},
      {"uniform_int", ValueSpec::Kind::uniform_int}};
  const auto& [kind, p0, p1, lo, hi, clip_lo, clip_hi, values] = a;
  const auto it = kinds.find(kind);
  if (it == kinds.end()) throw UnknownModelError("unknown distribution: " + kind);
  ValueSpec s;
  s.kind = it->second;
  s.p0 = p0, s.p1 = p1, s.min = lo, s.max = hi, s.clip_min = clip_lo, s.clip_max = clip_hi;
  s.values.assign(values.data(), values.data() + values.size());
  for (size_t d = 0; d < values.ndim(); ++d) s.shape.push_back(uint64_t(values.shape(d)));
  return s;
}

// Raises the kernel's typed errors as the ranvier.errors class of the same name.
void translate_errors(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const Error& e) {
    nb::object cls = nb::module_::import_("ranvier.errors").attr(e.kind());
    PyErr_SetString(cls.ptr(), e.what());
  }
}

// What Python learns about the registered models: (name -> defaults) per kind.
nb::dict neuron_models() {
  nb::dict out;
  for (const std::string& name : NeuronModels::instance().names()) {
    nb::dict defaults;
    // A switch shows as True or False, a list variable as a list, every other variable as a float.
    const NeuronModel& model = **NeuronModels::instance().find(name);
    for (const Variable& v : model.variables())
      if (!v.hidden)
        defaults[v.name.c_str()] = !v.choices.empty() ? nb::object(nb::str(v.choices[size_t(v.default_value)].c_str()))
                                   : v.boolean        ? nb::object(nb::bool_(v.default_value != 0.0))
                                                      : nb::object(nb::float_(v.default_value));
    for (const ListVariable& v : model.list_variables()) defaults[v.name.c_str()] = nb::cast(v.default_value);
    if (model.calcium_index() >= 0) defaults["synaptic_elements"] = nb::dict();  // none (structural plasticity)
    for (const char* name : cm_structure_names(model)) defaults[name] = nb::list();
    // A list parameter shows as a list of floats, its read-only length as an int.
    for (const ListParameter& p : model.list_parameters()) {
      defaults[p.name.c_str()] = nb::cast(p.default_value);
      if (!p.count.empty()) defaults[p.count.c_str()] = nb::int_(p.default_value.size());
    }
    out[name.c_str()] = defaults;
  }
  return out;
}

// Per model with list parameters: name -> (its length's name, its per-port recordable's prefix).
nb::dict neuron_lists() {
  nb::dict out;
  for (const std::string& name : NeuronModels::instance().names()) {
    nb::dict lists;
    for (const ListParameter& p : (*NeuronModels::instance().find(name))->list_parameters())
      lists[p.name.c_str()] = nb::make_tuple(p.count, p.recordable);
    if (nb::len(lists)) out[name.c_str()] = lists;
  }
  return out;
}

// Per model: NEST's recordables of its GetDefaults (variables; the ports' come from
// neuron_lists), or None where NEST lists none (parrot_neuron).
nb::dict neuron_recordables() {
  nb::dict out;
  for (const std::string& name : NeuronModels::instance().names()) {
    const auto names = (*NeuronModels::instance().find(name))->recordables();
    out[name.c_str()] = names ? nb::object(nb::cast(*names)) : nb::none();
  }
  return out;
}

// Per model: its variables that are choices among names, with the names (the value is the index).
nb::dict neuron_choices() {
  nb::dict out;
  for (const std::string& name : NeuronModels::instance().names()) {
    nb::dict choices;
    for (const Variable& v : (*NeuronModels::instance().find(name))->variables())
      if (!v.choices.empty()) choices[v.name.c_str()] = nb::cast(v.choices);
    if (nb::len(choices)) out[name.c_str()] = choices;
  }
  return out;
}

// Per neuron model that lists any: the (name, value) pairs `list` gives for it, as a dict.
template <class List>
nb::dict named_per_neuron_model(List list) {
  nb::dict out;
  for (const std::string& name : NeuronModels::instance().names()) {
    nb::dict named;
    for (const auto& [key, value] : list(**NeuronModels::instance().find(name))) named[key.c_str()] = value;
    if (nb::len(named)) out[name.c_str()] = named;
  }
  return out;
}

// Per model that names its receptors: NEST's receptor_types.
nb::dict neuron_receptor_types() {
  return named_per_neuron_model([](const NeuronModel& m) { return m.receptor_types(); });
}

// Per model that groups its variables by compartment: the compartments' names and suffixes.
nb::dict neuron_compartments() {
  return named_per_neuron_model([](const NeuronModel& m) { return m.compartments(); });
}

// Per model: the list variables a number may stand for (a list of one).
nb::dict neuron_one_element_lists() {
  nb::dict out;
  for (const std::string& name : NeuronModels::instance().names()) {
    std::vector<std::string> names;
    for (const ListVariable& v : (*NeuronModels::instance().find(name))->list_variables())
      if (v.number_is_one_element) names.push_back(v.name);
    if (!names.empty()) out[name.c_str()] = names;
  }
  return out;
}

// NEST's element_type of each neuron model's nodes ("neuron", or "other": volume_transmitter).
nb::dict neuron_element_types() {
  nb::dict out;
  for (const std::string& name : NeuronModels::instance().names())
    out[name.c_str()] = (*NeuronModels::instance().find(name))->element_type();
  return out;
}

// The neuron models that waveform relaxation iterates (NEST's node_uses_wfr where use_wfr is
// set): those joined by instantaneous couplings (rate neurons, Siegert neurons, gap junctions).
std::vector<std::string> wfr_neuron_models() {
  std::vector<std::string> out;
  for (const std::string& name : NeuronModels::instance().names())
    if (const CoupledModel* m = (*NeuronModels::instance().find(name))->coupled_model();
        m && (m->joins(SecondaryEvent::instantaneous_rate) || m->joins(SecondaryEvent::gap_junction) ||
              m->joins(SecondaryEvent::diffusion)))
      out.push_back(name);
  return out;
}

// The synapse models between coupled nodes, by what they carry (kernel/coupling.hpp).
nb::dict coupling_synapse_models() {
  static const char* kinds[] = {"",          "delayed_rate",    "instantaneous_rate", "gap_junction",
                                "diffusion", "learning_signal", "slow_inward_current"};
  nb::dict out;
  for (const std::string& name : SynapseBases::instance().names())
    if (const SecondaryEvent kind = (*SynapseBases::instance().find(name))->secondary; kind != SecondaryEvent::none)
      out[name.c_str()] = kinds[size_t(kind)];
  return out;
}

// The synapse models of e-prop, which only e-prop neurons take (models/eprop_model.hpp).
std::vector<std::string> eprop_synapse_models() {
  std::vector<std::string> out;
  for (const std::string& name : SynapseBases::instance().names())
    if ((*SynapseBases::instance().find(name))->eprop != Eprop::none) out.push_back(name);
  return out;
}

// (role, defaults at resolution h, names set through SetDefaults or CopyModel only, names set
// on nodes only)
nb::dict device_models(double h) {
  nb::dict out;
  for (const std::string& name : DeviceModels::instance().names()) {
    const DeviceModel& d = *DeviceModels::instance().find(name);
    nb::dict defaults;
    nb::list model_only, node_only;
    for (const DeviceParameter& p : d.parameters(h)) {
      defaults[p.name.c_str()] = python_value(p.default_value);
      if (p.model_only) model_only.append(p.name);
      if (p.node_only) node_only.append(p.name);
    }
    out[name.c_str()] = nb::make_tuple(d.is_stimulator() ? "stimulator" : "recorder", defaults, model_only, node_only);
  }
  return out;
}

// Per recorder: what it records ("spikes", "samples", "transmissions") and the columns of its
// events beyond sender and time where it fixes them (empty: its record_from).
nb::dict recorder_models() {
  static const char* const kinds[] = {"spikes", "samples", "transmissions"};
  nb::dict out;
  for (const std::string& name : DeviceModels::instance().names())
    if (const RecorderModel* r = DeviceModels::instance().find(name)->recorder)
      out[name.c_str()] = nb::make_tuple(kinds[int(r->records())], r->columns());
  return out;
}

using SynapseLists = std::map<std::string, std::vector<double>>;

void set_synapse_parameters(SynapseModel& m, const std::map<std::string, double>& params, const SynapseLists& lists) {
  for (const auto& [parameter, value] : params) m.set(parameter, value);
  for (const auto& [parameter, entries] : lists) m.set_list(parameter, entries);
}

// Per model: its defaults (list parameters as lists) and the names of its per-connection parameters.
nb::dict synapse_models() {
  nb::dict out;
  for (const std::string& name : SynapseBases::instance().names()) {
    nb::dict defaults;
    nb::list per_connection;
    const SynapseBase& base = **SynapseBases::instance().find(name);
    for (const SynapseParameter& p : base.parameters) {
      defaults[p.name.c_str()] = p.default_value;
      if (!p.common) per_connection.append(p.name);
    }
    for (const SynapseListParameter& p : base.lists) {
      nb::list entries;
      for (double v : p.default_value) entries.append(p.integers ? nb::cast(int64_t(v)) : nb::cast(v));
      defaults[p.name.c_str()] = entries;
    }
    if (is_labelled(name)) {      // after the record's parameters, as connections list it
      defaults[label_name] = -1;  // NEST's UNLABELED_CONNECTION
      per_connection.append(label_name);
    }
    out[name.c_str()] = nb::make_tuple(defaults, per_connection);
  }
  return out;
}

// Per model that names its weight or delay otherwise too (SynapseBase::weight_name, delay_name):
// each such name and the parameter it names.
std::map<std::string, std::map<std::string, std::string>> synapse_aliases() {
  std::map<std::string, std::map<std::string, std::string>> out;
  for (const std::string& name : SynapseBases::instance().names()) {
    const SynapseBase& base = **SynapseBases::instance().find(name);
    if (base.weight_name) out[name][base.weight_name] = "weight";
    if (base.delay_name) out[name][base.delay_name] = "delay";
  }
  return out;
}

// Per rule: the names of its own parameters.
nb::dict connection_rules() {
  nb::dict out;
  for (const std::string& name : ConnectionRules::instance().names()) {
    std::vector<std::string> names;
    for (const RuleParameter& p : ConnectionRules::instance().find(name)->parameters) names.push_back(p.name);
    out[name.c_str()] = names;
  }
  return out;
}

// Per rule: what Python's Connect needs to know of it beyond its parameters (connection_rule.hpp).
nb::dict connection_rule_traits() {
  nb::dict out;
  for (const std::string& name : ConnectionRules::instance().names()) {
    const ConnectionRule& rule = *ConnectionRules::instance().find(name);
    nb::dict traits;
    traits["per_source"] = rule.per_source;
    traits["both_ways"] = rule.both_ways;
    out[name.c_str()] = traits;
  }
  return out;
}

// Per rule and parameter: (kind, default or None when the conn_spec must give it).
nb::dict connection_rule_parameters() {
  static const std::map<RuleParameter::Kind, const char*> kinds = {
      {RuleParameter::Kind::count, "count"},
      {RuleParameter::Kind::count_per_target, "count_per_target"},
      {RuleParameter::Kind::probability, "probability"},
      {RuleParameter::Kind::mean, "mean"}};
  nb::dict out;
  for (const std::string& name : ConnectionRules::instance().names()) {
    nb::dict parameters;
    for (const RuleParameter& p : ConnectionRules::instance().find(name)->parameters)
      parameters[p.name.c_str()] =
          nb::make_tuple(kinds.at(p.kind), p.default_value ? nb::cast(*p.default_value) : nb::none());
    out[name.c_str()] = parameters;
  }
  return out;
}

// A conn_spec's rule parameters as the kernel holds them: Python gives bools, 64-bit ints,
// floats, one-dimensional int64 or float64 arrays, and anything else as its text.
RuleParameters rule_parameters_of(const nb::dict& given) {
  RuleParameters out;
  for (auto [key, value] : given) {
    const std::string name = nb::cast<std::string>(key);
    Int64Array integers;
    DoubleArray reals;
    if (nb::isinstance<nb::bool_>(value))
      out[name] = nb::cast<bool>(value);
    else if (nb::isinstance<nb::int_>(value))
      out[name] = nb::cast<int64_t>(value);
    else if (nb::isinstance<nb::float_>(value))
      out[name] = nb::cast<double>(value);
    else if (nb::isinstance<nb::str>(value))
      out[name] = nb::cast<std::string>(value);
    else if (nb::try_cast(value, integers, false))
      out[name] = std::vector<int64_t>(integers.data(), integers.data() + integers.shape(0));
    else if (nb::try_cast(value, reals, false))
      out[name] = std::vector<double>(reals.data(), reals.data() + reals.shape(0));
    else
      throw BadParameterError(name + " must be a number, a flag or a one-dimensional array, got " +
                              nb::cast<std::string>(nb::repr(value)));
  }
  return out;
}

}  // namespace

NB_MODULE(_kernel, m) {
  nb::register_exception_translator(&translate_errors);
  bind_spatial(m);
  bind_cable(m);
  bind_cm(m);
  bind_units(m);
  bind_settings(m);
  m.def("install_module", [](const std::string& name, const std::string& path) {  // ranvier/modules.py
    Installed added = install_module(name, path);
    return std::make_tuple(added.neuron_models, added.mechanisms, added.synapse_models);
  });
  m.def("plugin_abi", &plugin_abi);
  m.def("synapse_aliases", &synapse_aliases);
  m.def("neuron_models", &neuron_models);
  m.def("neuron_lists", &neuron_lists);
  m.def("neuron_recordables", &neuron_recordables);
  m.def("neuron_element_types", &neuron_element_types);
  m.def("wfr_neuron_models", &wfr_neuron_models);
  m.def("coupling_synapse_models", &coupling_synapse_models);
  m.def("eprop_synapse_models", &eprop_synapse_models);
  m.def("neuron_one_element_lists", &neuron_one_element_lists);
  m.def("neuron_choices", &neuron_choices);
  m.def("neuron_receptor_types", &neuron_receptor_types);
  m.def("neuron_compartments", &neuron_compartments);
  // A model default's list (SetDefaults, CopyModel), checked as Create would check it.
  m.def("check_list", [](const std::string& model_name, const std::string& name, const std::vector<double>& values) {
    const NeuronModel* model = NeuronModels::instance().at(model_name, "model");
    const auto lists = std::dynamic_pointer_cast<const ListKind>(model->default_kind());
    ListKind given = lists ? *lists : ListKind{};
    given.lists[name] = values;
    model->validate_lists(given, nullptr);
  });
  // A model's defaults (SetDefaults, CopyModel: every scalar, the user's earlier ones with the
  // new), checked as Create checks a neuron's values, on a lone neuron with the built-in lists.
  m.def("check_neuron", [](const std::string& model_name, const std::map<std::string, double>& values) {
    const NeuronModel* model = NeuronModels::instance().at(model_name, "model");
    NeuronGroup g;
    g.model = model;
    g.gids = {1};
    for (const Variable& v : model->variables()) {
      const auto given = values.find(v.name);
      g.vars.emplace_back(1, given == values.end() ? v.default_value : given->second);
    }
    for (const ListVariable& v : model->list_variables()) g.lists.emplace_back(1, v.default_value);
    model->attach(g, model->default_kind(), 1);
    model->validate(g, 0);
    model->validate_traces(g, 0);
  });
  m.def("device_models", &device_models);
  m.def("recorder_models", &recorder_models);
  // what a multimeter may record of a stimulator (NEST's recordables)
  m.def("device_recordables", [] {
    nb::dict out;
    for (const std::string& name : DeviceModels::instance().names()) {
      const StimulatorModel* s = DeviceModels::instance().find(name)->stimulator;
      if (s && s->recordable()) out[name.c_str()] = std::vector<std::string>{s->recordable()};
    }
    return out;
  });
  m.def("check_device", &check_device);
  m.def("synapse_models", &synapse_models);
  m.def("connection_rules", &connection_rules);
  m.def("connection_rule_traits", &connection_rule_traits);
  m.def("connection_rule_parameters", &connection_rule_parameters);
  m.def("disconnect_pairs",
        [](const std::string& rule, GidArray sources, GidArray targets, const nb::dict& rule_parameters) {
          return disconnect_pairs({.rule = rule,
                                   .sources = gids_of(sources),
                                   .targets = gids_of(targets),
                                   .rule_parameters = rule_parameters_of(rule_parameters)});
        });

  m.def("built_with_mpi", &built_with_mpi);
  m.def("finalize_mpi", &finalize_mpi);
  m.def("exchange_methods", &exchange_methods);

  nb::class_<Kernel> kernel(m, "Kernel");
  bind_checkpoint(kernel);
  bind_structural(kernel);
  kernel
      .def(
          "__init__",
          [](Kernel* k, const nb::dict& settings) { new (k) Kernel(config_from(setting_values(settings))); },
          nb::arg("settings"))
      .def_prop_ro("num_processes", [](Kernel& k) { return k.comm().size(); })
      .def_prop_ro("rank", &Kernel::rank)
      // Settings given together once nodes exist (SetKernelStatus), checked by their declarations.
      .def("set", [](Kernel& k, const nb::dict& values) { k.set(setting_values(values)); })
      .def("agree_error",
           [](Kernel& k, bool failed, const std::string& kind, const std::string& message) {
             // The lowest failing rank's error, on every rank.
             std::vector<int64_t> first{failed ? k.comm().rank() : k.comm().size()};
             k.comm().allreduce(first, ReduceOp::min);
             if (first[0] == k.comm().size()) return nb::make_tuple(false, "", "");
             const int root = int(first[0]);
             return nb::make_tuple(true, k.comm().broadcast(kind, root), k.comm().broadcast(message, root));
           })
      .def("allgather_doubles",
           [](Kernel& k, DoubleArray values) {
             std::vector<uint8_t> mine;
             append_bytes(mine, values.data(), values.shape(0));
             std::vector<size_t> counts;
             const std::vector<uint8_t> all = k.comm().allgatherv(mine, counts);
             return to_numpy(from_bytes<double>(all.data(), all.size()));
           })
      .def("cycle_times", [](Kernel& k) { return to_numpy(std::vector<double>(k.cycle_times())); })
      .def("exchange_log", [](Kernel& k) { return k.exchange_counters().resize_log; })
      .def("place_areas", [](Kernel& k) { k.network().place_areas(); })
      .def(
          "create_neurons",
          [](Kernel& k, const std::string& model, int64_t n, int area) {
            return k.network().create_neurons(model, n, area);
          },
          nb::arg("model"), nb::arg("n"), nb::arg("area") = -1)
      .def("create_devices",
           [](Kernel& k, const std::string& model, int64_t n) { return k.network().create_devices(model, n); })
      .def("configure_devices", &configure_devices)
      .def("device_parameters", &device_parameters)
      .def("get_variable", [](Kernel& k, const std::string& name,
                              GidArray gids) { return to_numpy(k.network().get_variable(name, gids_of(gids))); })
      .def("set_frozen", [](Kernel& k, GidArray gids, bool frozen) { k.network().set_frozen(gids_of(gids), frozen); })
      .def("get_list_variable", [](Kernel& k, const std::string& name,
                                   GidArray gids) { return k.network().get_list_variable(name, gids_of(gids)); })
      .def(
          "set_variables",
          [](Kernel& k, const std::vector<std::string>& names, GidArray gids,
             nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu> values,
             const std::vector<std::string>& list_names, const std::vector<std::vector<std::vector<double>>>& lists) {
            if (values.shape(0) != names.size() || values.shape(1) != gids.shape(0))
              throw BadParameterError("set_variables: values must be (names, nodes)");
            if (lists.size() != list_names.size())
              throw BadParameterError("set_variables: one row of lists per list name");
            for (const auto& row : lists)
              if (row.size() != gids.shape(0)) throw BadParameterError("set_variables: lists must be (names, nodes)");
            std::vector<std::vector<double>> rows(names.size());
            for (size_t n = 0; n < names.size(); ++n)
              rows[n].assign(values.data() + n * values.shape(1), values.data() + (n + 1) * values.shape(1));
            k.set_variables(names, gids_of(gids), rows, list_names, lists);
          },
          nb::arg("names"), nb::arg("gids"), nb::arg("values"), nb::arg("list_names") = std::vector<std::string>{},
          nb::arg("lists") = std::vector<std::vector<std::vector<double>>>{})
      .def("undo_last_create", [](Kernel& k) { k.network().undo_last_create(); })
      .def("set_lists",
           [](Kernel& k, GidArray gids, const std::map<std::string, std::vector<double>>& values) {
             k.network().set_lists(gids_of(gids), values);
           })
      .def("get_list", [](Kernel& k, uint32_t gid, const std::string& name) { return k.network().get_list(gid, name); })
      .def("local_positions",
           [](Kernel& k, const GidsArg& gids) { return to_numpy(k.network().local_positions(gid_list_of(gids))); })
      // (vp, thread, rank) of each node, NEST's node properties
      .def("virtual_processes",
           [](Kernel& k, GidArray gids) {
             std::vector<int64_t> vp, thread, rank;
             for (const VirtualProcess& p : k.network().virtual_processes(gids_of(gids))) {
               vp.push_back(int64_t(p.thread) * k.network().ranks() + p.rank);
               thread.push_back(p.thread);
               rank.push_back(p.rank);
             }
             return nb::make_tuple(to_numpy(std::move(vp)), to_numpy(std::move(thread)), to_numpy(std::move(rank)));
           })
      .def("draw_connection_values",  // SynapseCollection.set with a random parameter
           [](Kernel& k, const SpecArgs& spec, GidArray sources, GidArray targets, GidArray synapses,
              GidArray multapse) {
             ConnectionList which;
             which.source = gids_of(sources), which.target = gids_of(targets), which.synapse = gids_of(synapses);
             return to_numpy(k.network().draw_connection_values(value_spec(spec), which, gids_of(multapse)));
           })
      .def("draw_node_values",
           [](Kernel& k, const SpecArgs& spec, GidArray gids) {
             return to_numpy(k.network().draw_node_values(value_spec(spec), gids_of(gids)));
           })
      .def("add_synapse_model",
           [](Kernel& k, const std::string& name, const std::string& base, const std::map<std::string, double>& params,
              const SynapseLists& lists) {
             SynapseModel m{name, SynapseBases::instance().at(base, "synapse model"), is_labelled(base)};
             set_synapse_parameters(m, params, lists);
             return k.network().add_synapse_model(m);
           })
      .def("synapse_model_names",  // by kernel id
           [](Kernel& k) {
             std::vector<std::string> names;
             for (uint32_t id = 0; id < k.network().synapse_model_count(); ++id)
               names.push_back(k.network().synapse_model(id).name);
             return names;
           })
      .def("collocate", [](Kernel& k, int spec) { k.network().collocate(spec); })
      .def("set_weight_recorder",
           [](Kernel& k, uint32_t synapse, uint32_t recorder) { k.network().set_weight_recorder(synapse, recorder); })
      .def("set_synapse_parameters",
           [](Kernel& k, uint32_t id, const std::map<std::string, double>& params, const SynapseLists& lists) {
             SynapseModel changed = k.network().synapse_model(id);  // all or nothing
             set_synapse_parameters(changed, params, lists);
             k.network().synapse_model(id) = changed;
           })
      .def("connect",
           [](Kernel& k, const std::string& rule, const GidsArg& sources, const GidsArg& targets,
              const nb::dict& rule_parameters, bool autapses, bool multapses, const SpecArgs& weight,
              const SpecArgs& delay, uint32_t synapse, const std::variant<uint32_t, SpecArgs>& receptor,
              const std::map<std::string, double>& parameters) {
             // one receptor_type, or a draw whose least value is its receptor
             const ValueSpec drawn = receptor.index() ? value_spec(std::get<1>(receptor)) : ValueSpec{};
             const auto least = receptor.index() ? uint32_t(drawn.p1) : std::get<0>(receptor);
             ConnectRequest r{rule,
                              gid_list_of(sources),
                              gid_list_of(targets),
                              rule_parameters_of(rule_parameters),
                              autapses,
                              multapses,
                              value_spec(weight),
                              value_spec(delay),
                              synapse,
                              nullptr,
                              least,
                              parameters,
                              drawn};
             nb::gil_scoped_release release;
             k.network().connect(r);
           })
      .def("third_factor_partners",  // connect/third_factor.hpp
           [](Kernel& k, GidArray sources, GidArray targets, GidArray positions, GidArray third, uint64_t n_post,
              double p, bool random_pool, uint64_t pool_size) {
             const ThirdFactorRule rule{p, random_pool, pool_size};
             return to_numpy(third_factor_partners(k.config().seed, k.network().draw_calls().first, rule,
                                                   gids_of(sources), gids_of(targets), gids_of(positions),
                                                   gids_of(third), n_post));
           })
      .def(
          "connect_recorder",
          [](Kernel& k, uint32_t recorder, GidArray nodes, double delay, uint32_t port, double weight) {
            k.connect_recorder(recorder, gids_of(nodes), delay, port, weight);
          },
          nb::arg("recorder"), nb::arg("nodes"), nb::arg("delay"), nb::arg("port") = 0, nb::arg("weight") = 1.0)
      .def("check_delay",  // SetDefaults checks a synapse model's delay as Connect will
           [](Kernel& k, double delay) { ConnectionSink::steps_of(delay, k.resolution()); })
      .def("get_connections",
           [](Kernel& k, std::optional<GidArray> sources, std::optional<GidArray> targets, int synapse,
              bool local_only) {
             std::vector<uint32_t> s, t;
             if (sources) s = gids_of(*sources);
             if (targets) t = gids_of(*targets);
             ConnectionList c;
             {
               nb::gil_scoped_release release;
               c = k.get_connections(sources ? &s : nullptr, targets ? &t : nullptr, synapse, local_only);
             }
             nb::dict out;
             out["source"] = to_numpy(std::move(c.source));
             out["target"] = to_numpy(std::move(c.target));
             out["synapse_id"] = to_numpy(std::move(c.synapse));
             out["receptor"] = to_numpy(std::move(c.receptor));
             out["target_thread"] = to_numpy(std::move(c.target_thread));
             out["port"] = to_numpy(std::move(c.port));
             out["record_width"] = c.record_width;
             out["record"] = to_numpy(std::move(c.record));
             out["weight"] = to_numpy(std::move(c.weight));
             out["delay"] = to_numpy(std::move(c.delay));
             return out;
           })
      .def("set_connections",
           [](Kernel& k, GidArray sources, GidArray targets, GidArray synapses, GidArray multapse,
              const std::string& parameter,
              nb::ndarray<const double, nb::ndim<1>, nb::c_contig, nb::device::cpu> values) {
             ConnectionList which;
             which.source = gids_of(sources), which.target = gids_of(targets), which.synapse = gids_of(synapses);
             k.set_connections(which, gids_of(multapse), parameter, {values.data(), values.data() + values.shape(0)});
           })
      .def("disconnect",
           [](Kernel& k, GidArray sources, GidArray targets, GidArray synapses, GidArray multapse) {
             ConnectionList which;
             which.source = gids_of(sources), which.target = gids_of(targets), which.synapse = gids_of(synapses);
             k.disconnect(which, gids_of(multapse));
           })
      .def("simulate", &Kernel::simulate, nb::call_guard<nb::gil_scoped_release>())
      .def("begin_run", &Kernel::begin_run)
      .def("events",
           [](Kernel& k, uint32_t recorder) {
             RecordedEvents e = k.events(recorder);
             const size_t n = e.senders.size();
             const size_t width = k.network().device_of(recorder).event_width();  // also where a rank holds none
             std::vector<double> times(n);
             for (size_t i = 0; i < n; ++i) times[i] = double(e.stamps[i]) * k.resolution();
             return nb::make_tuple(to_numpy(std::move(e.senders)), to_numpy(std::move(times)),
                                   to_numpy(std::move(e.values), {n, width}));
           })
      .def("forget_events", &Kernel::forget_events)
      .def("status", &Kernel::status)
      .def("cycle_phase_times",
           [](Kernel& k) {
             nb::dict out;
             for (const auto& [phase, seconds] : k.cycle_phase_times()) out[phase] = seconds;
             return out;
           })
      .def_prop_ro("step", &Kernel::step)
      .def_prop_ro("threads", &Kernel::threads)
      .def_prop_ro("resolution", &Kernel::resolution);
}
