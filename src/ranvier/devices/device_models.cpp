// The recorders and what all devices share (times in ms). Stimulators register themselves
// from their own files.
#include <cmath>

#include "devices/device_model.hpp"

namespace ranvier {

std::vector<DeviceParameter> with_window(std::vector<DeviceParameter> own) {
  own.insert(own.end(), {{"start", 0.0, "ms"}, {"stop", INFINITY, "ms"}, {"origin", 0.0, "ms"}});
  return own;
}

std::vector<DeviceParameter> DeviceModel::parameters(double h) const {
  return stimulator ? with_window(stimulator->parameters(h)) : recorder_parameters;
}

int StimulatorModel::index_of(const std::string& parameter) const {
  const std::vector<DeviceParameter> own = parameters(0.1);  // names do not depend on h
  for (size_t i = 0; i < own.size(); ++i)
    if (own[i].name == parameter) return int(i);
  return -1;
}

namespace {

// Recorders keep their events in memory.
DeviceModel recorder(std::vector<DeviceParameter> own, std::vector<std::string> synaptic_columns = {}) {
  own.push_back({"record_to", std::string("memory"), ""});
  return {nullptr, with_window(std::move(own)), std::move(synaptic_columns)};
}

// Multimeters and voltmeters: recorders that sample variables.
DeviceModel sampler(std::vector<DeviceParameter> own) {
  DeviceModel m = recorder(std::move(own));
  m.samples = true;
  return m;
}

DeviceModels& devices = DeviceModels::instance();
[[maybe_unused]] const bool registered =
    devices.add("spike_recorder", recorder({})) &&
    // location: where on a cable cell ([region, x]); empty: the cell's own variables
    devices.add("multimeter", sampler({{"interval", 1.0, "ms"}, {"record_from", std::vector<std::string>{}, ""},
                                      {"location", std::vector<double>{}, ""}})) &&
    devices.add("voltmeter", sampler({{"interval", 1.0, "ms"}, {"record_from", std::vector<std::string>{"V_m"}, ""},
                                      {"location", std::vector<double>{}, ""}})) &&
    // what synapses of the models it is attached to (their "weight_recorder") transmit; its
    // senders and targets filters are node collections, kept by Python
    devices.add("weight_recorder", recorder({}, {"weights", "targets", "receptors", "ports"}));

}  // namespace
}  // namespace ranvier
