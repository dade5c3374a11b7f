// What all devices share: their activity window (times in ms), their parameters' lookup and
// checks. Stimulators and recorders register themselves from their own files.
#include <cmath>

#include "devices/device_model.hpp"
#include "devices/recorder_model.hpp"

namespace ranvier {

std::vector<DeviceParameter> with_window(std::vector<DeviceParameter> own) {
  own.insert(own.end(), {{"start", 0.0, "ms"}, {"stop", never_ms, "ms"}, {"origin", 0.0, "ms"}});
  return own;
}

std::vector<DeviceParameter> DeviceModel::own_parameters(double h) const {
  return stimulator ? stimulator->parameters(h) : recorder->all_parameters(h);
}

Device DeviceModel::device(uint32_t gid, double h) const {
  Device d;
  d.stimulator = stimulator, d.recorder = recorder;
  d.gid = gid;
  for (const DeviceParameter& p : own_parameters(h)) d.values.push_back(p.default_value);
  if (recorder) recorder->configure(d, h);
  return d;
}

bool Device::records(Records what) const { return recorder && recorder->records() == what; }

int index_of(const Device& d, const std::string& parameter) {
  const std::vector<DeviceParameter> own =
      DeviceModel{d.stimulator, d.recorder}.own_parameters(0.1);  // names do not depend on h
  for (size_t i = 0; i < own.size(); ++i)
    if (own[i].name == parameter) return int(i);
  return -1;
}

const DeviceValue& value_of(const Device& d, const std::string& parameter) {
  return d.values.at(size_t(index_of(d, parameter)));
}

void validate(Device& d, const std::vector<size_t>& changed, double h, int64_t tics_per_ms, int64_t now) {
  if (d.stop < d.start) throw bad_value("stop", d.stop, ">= start (" + std::to_string(d.start) + ")");
  if (d.stimulator) {
    d.stimulator->settle(d, changed, h, tics_per_ms, now);
    d.stimulator->validate(d, changed, h);
  }
  if (d.recorder) {
    d.recorder->check_all(d, h);
    d.recorder->configure(d, h);
  }
}

}  // namespace ranvier
