// Per neuron, synapse and device model and per cable mechanism: each declared parameter's unit,
// read from the declarations themselves (core/unit.hpp).
#include "bindings/units.hpp"

#include "bindings/cm.hpp"
#include "cable/mechanisms.hpp"
#include "devices/device_model.hpp"
#include "models/neuron_model.hpp"
#include "synapses/synapse_model.hpp"

namespace nb = nanobind;
using namespace ranvier;

namespace {

template <typename Parameters>
void add_units(nb::dict& out, const Parameters& parameters) {
  for (const auto& p : parameters) {
    if constexpr (requires { p.hidden; })
      if (p.hidden) continue;
    out[p.name.c_str()] = p.unit.symbol;
  }
}

nb::dict neuron_units(const NeuronModel& model) {
  nb::dict out;
  add_units(out, model.variables());
  add_units(out, model.list_variables());
  add_units(out, model.list_parameters());
  for (const ListParameter& p : model.list_parameters())
    if (!p.count.empty()) out[p.count.c_str()] = "";              // the read-only length
  if (model.calcium_index() >= 0) out["synaptic_elements"] = "";  // a dict of elements, their counts
  for (const char* name : cm_structure_names(model)) out[name] = "";
  return out;
}

nb::dict units() {
  nb::dict out;
  for (const std::string& name : NeuronModels::instance().names())
    out[name.c_str()] = neuron_units(**NeuronModels::instance().find(name));
  for (const std::string& name : SynapseBases::instance().names()) {
    nb::dict synapse;
    add_units(synapse, (*SynapseBases::instance().find(name))->parameters);
    add_units(synapse, (*SynapseBases::instance().find(name))->lists);
    if (is_labelled(name)) synapse[label_name] = "";
    out[name.c_str()] = synapse;
  }
  for (const std::string& name : DeviceModels::instance().names()) {
    nb::dict device;
    add_units(device, DeviceModels::instance().find(name)->parameters(0.1));  // names do not depend on h
    out[name.c_str()] = device;
  }
  for (const auto* declared : {&cable::density_declarations(), &cable::synapse_declarations()})
    for (const auto& [name, parameters] : *declared) {
      nb::dict mechanism;
      add_units(mechanism, parameters);
      out[name.c_str()] = mechanism;
    }
  return out;
}

}  // namespace

void bind_units(nb::module_& m) { m.def("units", &units); }
