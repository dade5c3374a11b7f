// Stimulating and recording devices. Stimulators act on the thread of each target (an
// independent Poisson train per target, as in NEST); recorders keep per-thread buffers
// that are merged in (time, sender) order when read.
#pragma once
#include <cmath>
#include <cstdint>
#include <utility>
#include <string>
#include <vector>

namespace ranvier {

enum class DeviceType { poisson_generator, dc_generator, spike_generator, spike_recorder, multimeter };

struct Device {
  DeviceType type = DeviceType::spike_recorder;
  uint32_t gid = 0;
  // Activity window in ms relative to origin: active for event times t with start < t <= stop.
  double origin = 0.0, start = 0.0, stop = INFINITY;
  double rate = 0.0;       // poisson_generator, Hz
  double amplitude = 0.0;  // dc_generator, pA
  std::vector<int64_t> spike_steps;  // spike_generator, ascending
  std::vector<double> spike_weights;  // spike_generator, empty: use the connection weight
  int64_t interval_steps = 10;       // multimeter
  std::vector<std::string> record_from;

  bool is_stimulator() const {
    return type == DeviceType::poisson_generator || type == DeviceType::dc_generator ||
           type == DeviceType::spike_generator;
  }
  bool active_at(int64_t stamp, double h) const {
    const double t = stamp * h - origin;
    return t > start + 1e-9 * h && t <= stop + 1e-9 * h;
  }
  // The steps s in [first, last) whose events (stamp s + 1) fall into the active window.
  std::pair<int64_t, int64_t> active_steps(int64_t first, int64_t last, double h) const {
    while (first < last && !active_at(first + 1, h)) ++first;
    while (last > first && !active_at(last, h)) --last;
    return {first, last};
  }
};

// Per-thread events of one recorder.
struct RecordedEvents {
  std::vector<uint32_t> senders;
  std::vector<int64_t> stamps;
  std::vector<double> values;  // multimeter: record_from.size() values per event
  void clear() {
    senders.clear();
    stamps.clear();
    values.clear();
  }
};

// A stimulator's connection to one neuron, stored on the neuron's thread.
struct StimulusConnection {
  uint32_t device;  // index into the kernel's devices
  uint32_t target;  // local index
  uint32_t target_gid;
  uint32_t delay;   // steps
  double weight;
};

}  // namespace ranvier
