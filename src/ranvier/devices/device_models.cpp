// The built-in devices and their parameters (times in ms, rate in Hz, amplitude in pA).
#include <cmath>

#include "devices/device_model.hpp"

namespace ranvier {
namespace {

using Parameters = std::vector<std::pair<std::string, DeviceValue>>;

// Every device is active for start < t - origin <= stop.
Parameters with_window(Parameters own) {
  own.insert(own.end(), {{"start", 0.0}, {"stop", INFINITY}, {"origin", 0.0}});
  return own;
}
// Recorders keep their events in memory.
Parameters recorder(Parameters own) {
  own.push_back({"record_to", std::string("memory")});
  return with_window(std::move(own));
}

DeviceModels& devices = DeviceModels::instance();
[[maybe_unused]] const bool registered =
    devices.add("poisson_generator", {DeviceType::poisson_generator, true, with_window({{"rate", 0.0}})}) &&
    devices.add("dc_generator", {DeviceType::dc_generator, true, with_window({{"amplitude", 0.0}})}) &&
    devices.add("spike_generator",
                {DeviceType::spike_generator, true,
                 with_window({{"spike_times", std::vector<double>{}}, {"spike_weights", std::vector<double>{}}})}) &&
    devices.add("spike_recorder", {DeviceType::spike_recorder, false, recorder({})}) &&
    devices.add("multimeter", {DeviceType::multimeter, false,
                               recorder({{"interval", 1.0}, {"record_from", std::vector<std::string>{}}})}) &&
    devices.add("voltmeter", {DeviceType::multimeter, false,
                              recorder({{"interval", 1.0}, {"record_from", std::vector<std::string>{"V_m"}}})});

}  // namespace
}  // namespace ranvier
