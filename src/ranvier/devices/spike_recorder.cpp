// NEST's spike_recorder: the spikes of its sources, neurons and generators that send spikes
// (their trains as they leave, the connection's delay later); its events carry offsets where
// a source's cells have precise spike times (the kernel decides at Connect).
#include "devices/recorder_model.hpp"

namespace ranvier {
namespace {

class SpikeRecorder final : public RecorderModel {
 public:
  const char* name() const override { return "spike_recorder"; }
  Records records() const override { return Records::spikes; }
};

RANVIER_REGISTER_RECORDER(SpikeRecorder);

}  // namespace
}  // namespace ranvier
