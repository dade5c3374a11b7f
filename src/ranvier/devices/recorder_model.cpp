// What every recorder has besides its own parameters: the settings of the recording backends
// (python/ranvier/recording.py writes the events to memory, files or the screen; NEST's names).
#include "devices/recorder_model.hpp"

#include <algorithm>
#include <array>

namespace ranvier {

namespace {

constexpr std::array<const char*, 4> backends = {"memory", "ascii", "screen", "sonata"};

}  // namespace

std::vector<DeviceParameter> RecorderModel::all_parameters(double h) const {
  std::vector<DeviceParameter> all = parameters(h);
  all.insert(all.end(), {{"record_to", std::string("memory"), ""},
                         {"label", std::string(), ""},  // a file's name instead of the model's (may hold a path)
                         {"time_in_steps", false, ""},
                         {"precision", int64_t(3), ""},  // digits after the point in files
                         {"file_extension", std::string("dat"), ""}});
  return all;
}

void RecorderModel::record_spike(const Device& d, RecordedEvents& events, const RecordedSpike& spike) const {
  events.senders.push_back(spike.sender);
  events.stamps.push_back(spike.stamp);
  if (d.offsets) events.values.push_back(spike.offset);
}

void RecorderModel::check_port(const Device& d, uint32_t port) const {
  if (port != 0) throw bad_value("receptor_type", port, "0 for " + std::string(name()) + " " + std::to_string(d.gid));
}

void RecorderModel::check_all(const Device& d, double h) const {
  const std::string& to = std::get<std::string>(value_of(d, "record_to"));
  if (std::none_of(backends.begin(), backends.end(), [&](const char* b) { return to == b; }))
    throw bad_value("record_to", "'" + to + "'", "one of memory, ascii, screen, sonata");
  if (to == "sonata" && !d.records(Records::spikes))  // SONATA's spike files; its reports are not written
    throw bad_value("record_to", "'sonata'", "memory, ascii or screen for a recorder of samples or weights");
  const int64_t precision = std::get<int64_t>(value_of(d, "precision"));
  if (precision < 0 || precision > 17) throw bad_value("precision", precision, "an integer in [0, 17]");
  check(d, h);
}

}  // namespace ranvier
