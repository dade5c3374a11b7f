// Recording devices in the device registry. A recorder is one file: a RecorderModel (what it
// records, its parameters with NEST's names and defaults, their checks) and a
// RANVIER_REGISTER_RECORDER line. The kernel connects and feeds a recorder by what it records,
// never by its name, and gathers its events to rank 0 after each Simulate; Python learns its
// kind, parameters and defaults from the registry and writes its events (recording.py).
#pragma once
#include <string>
#include <vector>

#include "devices/device_model.hpp"

namespace ranvier {

// A spike as a recorder of spikes sees it: its sender, at the end of step stamp - 1 (`offset`
// ms before it), through a connection of receptor_type `port` and `weight`.
struct RecordedSpike {
  uint32_t sender;
  int64_t stamp;
  double offset;
  uint32_t port;
  double weight;
};

class RecorderModel {
 public:
  virtual ~RecorderModel() = default;
  virtual const char* name() const = 0;
  virtual Records records() const = 0;
  // Its own parameters with their defaults, in the order of Device::values (the window and the
  // recording backends' settings, which every recorder has, come with them: all_parameters).
  virtual std::vector<DeviceParameter> parameters(double /*h*/) const { return {}; }
  // The columns of its events beyond sender and time where it fixes them (a recorder of
  // transmissions); empty: those its record_from names.
  virtual std::vector<std::string> columns() const { return {}; }
  // Throws bad_value naming a parameter whose value is wrong (a model's defaults are checked
  // when Python sets them on its nodes, so that a copy's defaults may fit where the built-in's
  // do not).
  virtual void check(const Device& d, double h) const { (void)d, (void)h; }
  // Sets what the kernel reads of its values (Device::record_from, interval_steps, senders, targets).
  virtual void configure(Device& d, double h) const { (void)d, (void)h; }
  // A recorder of spikes: keeps a spike in `events`, in the order its sender emitted it; by
  // default as its own event.
  virtual void record_spike(const Device& d, RecordedEvents& events, const RecordedSpike& spike) const;
  // Throws NEST's error where its connections may not have this receptor_type (0 only, by default).
  virtual void check_port(const Device& d, uint32_t port) const;

  // Its parameters and the recording backends' settings (record_to, label, ...), the order of
  // Device::values.
  std::vector<DeviceParameter> all_parameters(double h) const;
  // Checks the backends' settings, then check.
  void check_all(const Device& d, double h) const;
};

template <typename Model>
bool register_recorder() {
  static const Model model;
  return DeviceModels::instance().add(model.name(), {nullptr, &model});
}

// One line in a recorder's file makes it known to the kernel and to Python.
#define RANVIER_REGISTER_RECORDER(Model) \
  [[maybe_unused]] const bool Model##_registered = ::ranvier::register_recorder<Model>()

}  // namespace ranvier
