// Stimulating and recording devices. Stimulators act on the thread of each target (an
// independent train or current per target where the model says so, as in NEST); recorders
// keep per-thread buffers that are merged in (time, sender) order when read.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/tics.hpp"
#include "models/neuron_model.hpp"

namespace ranvier {

class StimulatorModel;
class RecorderModel;

// What a recorder records, which decides how the kernel connects and feeds it.
enum class Records {
  spikes,         // the spikes of its sources (neurons, spike generators): Connect(sources, recorder)
  samples,        // variables of its targets every interval: Connect(recorder, targets)
  transmissions,  // the spikes that synapses of the models it is attached to transmit
};

// Node ids (a recorder's filters): Python shows them as a NodeCollection.
struct NodeIds {
  std::vector<uint32_t> ids;
  bool operator==(const NodeIds& o) const { return ids == o.ids; }
};

// A device parameter's value: a number, a count, a switch, a name, a list of numbers or names,
// or node ids.
using DeviceValue =
    std::variant<double, int64_t, bool, std::string, std::vector<double>, std::vector<std::string>, NodeIds>;

// What a stimulator derives from its parameters before a simulation (tables, steps).
struct PreparedStimulus {
  virtual ~PreparedStimulus() = default;
};

struct Device {
  const StimulatorModel* stimulator = nullptr;  // one of these two
  const RecorderModel* recorder = nullptr;
  uint32_t gid = 0;
  // Activity window in ms relative to origin: active for event times t with start < t <= stop.
  double origin = 0.0, start = 0.0, stop = never_ms;
  std::vector<DeviceValue> values;  // its parameters but the window, in its model's order
  std::shared_ptr<const PreparedStimulus> prepared;
  // What the kernel reads of a recorder's values (RecorderModel::configure sets them): the
  // columns of its events, a sampler's interval; a sampler's location (the bindings convert it).
  std::vector<std::string> record_from;
  int64_t interval_steps = 10, offset_steps = 0;
  // Whether a sampler samples at the end of step stamp - 1 (its window aside).
  bool samples_at(int64_t stamp) const { return stamp >= offset_steps && (stamp - offset_steps) % interval_steps == 0; }
  std::optional<CellLocation> location;
  bool offsets = false;  // spike recorder: events carry offsets (cells with precise spike times)
  int32_t synapse = -1;  // a stimulator's synapse model once connected: NEST's devices keep to one
  // A recorder of transmissions: those of the senders and targets listed here (ascending), or
  // of all where a list is empty.
  std::vector<uint32_t> senders, targets;
  static constexpr size_t target_column = 1;
  size_t event_width() const { return record_from.size() + (offsets ? 1 : 0); }  // values per event

  bool takes(uint32_t sender, uint32_t target) const {
    return (senders.empty() || std::binary_search(senders.begin(), senders.end(), sender)) &&
           (targets.empty() || std::binary_search(targets.begin(), targets.end(), target));
  }

  bool is_stimulator() const { return stimulator != nullptr; }
  bool records(Records what) const;  // a recorder of that
  double number(size_t i) const { return std::get<double>(values[i]); }
  int64_t count(size_t i) const { return std::get<int64_t>(values[i]); }
  bool flag(size_t i) const { return std::get<bool>(values[i]); }
  const std::vector<double>& list(size_t i) const { return std::get<std::vector<double>>(values[i]); }
  template <typename T>
  const T& prepared_as() const {
    return static_cast<const T&>(*prepared);
  }

  bool active_at(int64_t stamp, double h) const {
    const double t = stamp * h - origin;
    return t > start + 1e-9 * h && t <= stop + 1e-9 * h;
  }
  // The steps s in [first, last) in which a generator that draws step by step sends:
  // NEST 3.10 lets it send in step s if (s + ahead) h falls into the window, where ahead
  // (measured against NEST) is 0 for poisson_generator and inhomogeneous_poisson_generator
  // (their spikes, stamped s + 1, lie in (start + h, stop + h]) and 2 for the current
  // generators and sinusoidal_poisson_generator (a current sent in step s acts during step
  // s + 1, delay aside: first during (start, start + h], last during (stop - h, stop]).
  std::pair<int64_t, int64_t> sending_steps(int64_t first, int64_t last, double h, int64_t ahead) const {
    while (first < last && !active_at(first + ahead, h)) ++first;
    while (last > first && !active_at(last - 1 + ahead, h)) --last;
    return {first, last};
  }
  std::pair<int64_t, int64_t> current_steps(int64_t first, int64_t last, double h) const {
    return sending_steps(first, last, h, 2);
  }
};

// Per-thread events of one recorder.
struct RecordedEvents {
  std::vector<uint32_t> senders;
  std::vector<int64_t> stamps;
  std::vector<double> values;  // multimeter, weight_recorder: record_from.size() values per event
  void clear() {
    senders.clear();
    stamps.clear();
    values.clear();
  }
};

// A stimulator's connection to one neuron, stored on the neuron's thread.
struct StimulusConnection {
  uint32_t device;  // index into the kernel's devices
  uint32_t target;  // input column
  uint32_t target_gid;
  uint32_t delay;  // steps
  double weight;
  // cont_delay_synapse (ContinuousDelay): how much earlier than `delay` steps (then NEST's
  // steps) a spike arrives, ms; 0 for whole delays
  double delay_offset = 0.0;
};

}  // namespace ranvier
