// NEST's weight_recorder: the spikes that synapses of the models it is attached to (their
// "weight_recorder") transmit, with the weight, target, receptor and port of each; senders and
// targets (node collections, a node's only) keep those of some nodes.
#include <algorithm>

#include "devices/recorder_model.hpp"

namespace ranvier {
namespace {

std::vector<uint32_t> ascending(const DeviceValue& v) {
  std::vector<uint32_t> ids = std::get<NodeIds>(v).ids;
  std::sort(ids.begin(), ids.end());
  return ids;
}

class WeightRecorder final : public RecorderModel {
 public:
  const char* name() const override { return "weight_recorder"; }
  Records records() const override { return Records::transmissions; }
  std::vector<DeviceParameter> parameters(double) const override {
    return {{.name = "senders", .default_value = NodeIds{}, .unit = "", .node_only = true},
            {.name = "targets", .default_value = NodeIds{}, .unit = "", .node_only = true}};
  }
  // targets: Device::target_column, by which the events of one spike are ordered
  std::vector<std::string> columns() const override { return {"weights", "targets", "receptors", "ports"}; }
  void configure(Device& d, double) const override {
    d.record_from = columns();
    d.senders = ascending(value_of(d, "senders"));
    d.targets = ascending(value_of(d, "targets"));
  }
};

RANVIER_REGISTER_RECORDER(WeightRecorder);

}  // namespace
}  // namespace ranvier
