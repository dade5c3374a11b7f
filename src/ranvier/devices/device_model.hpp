// Device models in a registry: each declares whether it stimulates or records and its
// parameters with NEST's names and defaults (Python learns them from here). A stimulator
// is one file: a StimulatorModel (its parameters, their checks, what it derives for a
// simulation and the input it gives its targets) and a RANVIER_REGISTER_STIMULATOR line; a
// recorder is one file too (recorder_model.hpp).
#pragma once
#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/registry.hpp"
#include "core/rng.hpp"
#include "core/tics.hpp"
#include "core/unit.hpp"
#include "devices/device.hpp"
#include "models/ring_buffers.hpp"

namespace ranvier {

// Stream::poisson's counts of one mean for many streams, its table built once: a generator
// whose rate changes from step to step builds one per step, not one per target and step.
class PoissonCounts {
 public:
  explicit PoissonCounts(double mean)
      : mean_(mean), table_(mean < PoissonTable::max_mean ? std::max(mean, 0.0) : 0.0) {}
  uint32_t operator()(const Stream& s, uint64_t index) const {
    if (mean_ <= 0.0) return 0;
    return mean_ < PoissonTable::max_mean ? table_(s.block(index).w[0]) : s.poisson(index, mean_);
  }
  double mean() const { return mean_; }

 private:
  double mean_;
  PoissonTable table_;
};

struct DeviceParameter {
  std::string name;
  DeviceValue default_value;
  Unit unit;
  bool model_only = false;  // set through SetDefaults or CopyModel only, as in NEST
  bool node_only = false;   // set on nodes only, never as a model default (a recorder's filters)
};

// What a stimulator sees of one thread while it gives input for the slice's steps
// [first, last): input it adds arrives after each connection's delay.
struct Stimulus {
  int64_t first = 0, last = 0;
  double h = 0.1;     // resolution, ms
  uint32_t seed = 0;  // rng_seed: random input comes from counter-based streams
  RingBuffers* input = nullptr;
  uint32_t sender = 0;                // the generator's gid (binary neurons tell senders apart)
  uint64_t* poisson_draws = nullptr;  // work done, for time per unit
  // State a generator carries from step to step for each target (gamma_sup_generator's
  // occupation numbers): state[i] belongs to connection c[i], kept on the target's thread
  // across slices and simulations; empty until the generator first fills it.
  std::vector<uint64_t>* state = nullptr;

  // A current (pA) sent in step s: it acts on the target during step s + delay + 1.
  void current(const StimulusConnection& c, int64_t s, double amplitude) const {
    input->add_current(s + c.delay, c.target, c.weight * amplitude);
  }
  // n spikes emitted at the end of step s (stamp s + 1), of the connection's weight.
  void spikes(const StimulusConnection& c, int64_t s, double n) const {
    input->add_spikes(input->slot(s + c.delay), c.target, n, c.weight, c.delay_offset, sender);
  }
  // n spikes of weight w leaving `offset` ms before the end of step stamp - 1 (precise times):
  // they arrive after the connection's delay, a continuous one's offset included.
  void spikes_at(const StimulusConnection& c, int64_t stamp, double n, double w, double offset) const {
    const bool earlier = offset + c.delay_offset >= h;  // a step before NEST's steps
    input->add_spikes(input->slot(stamp - 1 + c.delay - (earlier ? 1 : 0)), c.target, n, w,
                      offset + c.delay_offset - (earlier ? h : 0.0), sender);
  }
};

class StimulatorModel {
 public:
  virtual ~StimulatorModel() = default;
  virtual const char* name() const = 0;
  // Currents (NEST's CurrentEvent: receptor_type 0 of multisynapse neurons), not spikes.
  virtual bool sends_current() const { return false; }
  // Sends spikes (a spike recorder may record them), not currents.
  virtual bool emits_spikes() const { return false; }
  // Its spikes may lie off the grid (a spike recorder then keeps their offsets).
  virtual bool precise_spike_times() const { return false; }
  // Its own parameters, in the order of Device::values, with their defaults at resolution h
  // (start, stop and origin are shared).
  virtual std::vector<DeviceParameter> parameters(double h) const = 0;
  // Values as the device keeps them once the user has set those at `changed` (NEST's spike
  // times put on its grid of tics_per_ms, relative to the current step `now`); before validate.
  virtual void settle(Device&, const std::vector<size_t>& changed, double h, int64_t tics_per_ms, int64_t now) const {
    (void)changed, (void)h, (void)tics_per_ms, (void)now;
  }
  // Throws BadParameterError (bad_value) naming the parameter and value if the device's
  // values are inconsistent; `changed` lists the indices the user just set.
  virtual void validate(const Device&, const std::vector<size_t>& changed, double h) const { (void)changed, (void)h; }
  // What the stimulation needs for resolution h (tics_per_ms: NEST's time base, for exact grid
  // times; rng_seed, for trains drawn ahead), made before every simulation.
  virtual std::shared_ptr<const PreparedStimulus> prepare(const Device&, double h, int64_t tics_per_ms,
                                                          uint32_t seed) const {
    (void)h, (void)tics_per_ms, (void)seed;
    return nullptr;
  }
  // Adds the input of device `d` to its targets c[0], ..., c[n - 1] (connections on one thread).
  virtual void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const = 0;
  // NEST's one recordable of a stimulator, which a multimeter may record: the current
  // generators' "I", sinusoidal_poisson_generator's "rate"; null for none.
  virtual const char* recordable() const { return nullptr; }
  // Its value in step k, sampled at (k + 1) h as NEST samples it. "I": the current (pA) sent in
  // step k (acting during step k + 1, delay aside), 0 where none is sent: what all its targets
  // get or, where each gets its own (noise_generator), their mean; `targets` are the node ids
  // it stimulates, ascending.
  virtual double recorded_value(const Device& d, int64_t k, double h, uint32_t seed,
                                const std::vector<uint32_t>& targets) const {
    (void)d, (void)k, (void)h, (void)seed, (void)targets;
    return 0.0;
  }
};

// A generator that sends all its targets the same current (dc, ac, step_current): the current
// of a step is its one rule, for the targets and for a multimeter's "I".
class CurrentGenerator : public StimulatorModel {
 public:
  bool sends_current() const final { return true; }
  const char* recordable() const final { return "I"; }
  // The current (pA) sent in step k while the device is active.
  virtual double current_in(const Device& d, int64_t k, double h) const = 0;
  void stimulate(const Device& d, const Stimulus& s, const StimulusConnection* c, size_t n) const final {
    const auto [begin, end] = d.current_steps(s.first, s.last, s.h);
    for (int64_t k = begin; k < end; ++k) {
      const double current = current_in(d, k, s.h);
      for (size_t i = 0; i < n; ++i) s.current(c[i], k, current);
    }
  }
  double recorded_value(const Device& d, int64_t k, double h, uint32_t, const std::vector<uint32_t>&) const final {
    const auto [begin, end] = d.current_steps(k, k + 1, h);
    return begin < end ? current_in(d, k, h) : 0.0;
  }
};

// The parameters every device has: its activity window.
std::vector<DeviceParameter> with_window(std::vector<DeviceParameter> own);

struct DeviceModel {
  const StimulatorModel* stimulator = nullptr;  // one of these two
  const RecorderModel* recorder = nullptr;
  // Its parameters but the window, in the order of Device::values, with their defaults at resolution h.
  std::vector<DeviceParameter> own_parameters(double h) const;
  // All parameters with their defaults at resolution h, as Python sees them.
  std::vector<DeviceParameter> parameters(double h) const { return with_window(own_parameters(h)); }
  bool is_stimulator() const { return stimulator != nullptr; }
  Device device(uint32_t gid, double h) const;  // one with the defaults
};
using DeviceModels = Registry<DeviceModel>;

// The index of a device's parameter in Device::values; -1 for none (and for the window's).
int index_of(const Device& d, const std::string& parameter);
const DeviceValue& value_of(const Device& d, const std::string& parameter);
// Settles the values the user just set at step `now` (`changed`: their indices), throws
// BadParameterError (bad_value) if the device's values are inconsistent and derives what the
// kernel reads of them.
void validate(Device& d, const std::vector<size_t>& changed, double h, int64_t tics_per_ms, int64_t now);

template <typename Model>
bool register_stimulator() {
  static const Model model;
  return DeviceModels::instance().add(model.name(), {&model, nullptr});
}

// One line in a stimulator's file makes it known to the kernel and to Python.
#define RANVIER_REGISTER_STIMULATOR(Model) \
  [[maybe_unused]] const bool Model##_registered = ::ranvier::register_stimulator<Model>()

}  // namespace ranvier
