// NEST's spin_detector: the state changes of binary neurons (models/binary_neurons.cpp), decoded
// from their spikes as their targets decode them: two spikes of one sender at one time are a
// change to state 1, one spike a change to 0. Its events carry the new state.
#include "devices/recorder_model.hpp"

namespace ranvier {
namespace {

class SpinDetector final : public RecorderModel {
 public:
  const char* name() const override { return "spin_detector"; }
  Records records() const override { return Records::spikes; }
  std::vector<std::string> columns() const override { return {"state"}; }
  void configure(Device& d, double) const override { d.record_from = columns(); }
  // A sender's spikes of one step come in a row: the second turns the first's event to state 1
  // (a third begins a new event).
  void record_spike(const Device&, RecordedEvents& events, const RecordedSpike& spike) const override {
    if (!events.senders.empty() && events.senders.back() == spike.sender && events.stamps.back() == spike.stamp &&
        events.values.back() == 0.0) {
      events.values.back() = 1.0;
      return;
    }
    events.senders.push_back(spike.sender);
    events.stamps.push_back(spike.stamp);
    events.values.push_back(0.0);
  }
};

RANVIER_REGISTER_RECORDER(SpinDetector);

}  // namespace
}  // namespace ranvier
