// The public C++ API (include/ranvier/network.hpp) over the kernel, with the kernel's checks
// and typed errors.
#include "ranvier/network.hpp"

#include <cmath>
#include <numeric>

#include "connect/connection_rule.hpp"
#include "core/errors.hpp"
#include "devices/device_model.hpp"
#include "kernel/kernel.hpp"

namespace ranvier {
namespace {

ValueSpec spec_of(const Value& v) {
  ValueSpec s;
  s.p0 = v.a, s.p1 = v.b;
  s.kind = v.kind == Value::Kind::constant  ? ValueSpec::Kind::constant
           : v.kind == Value::Kind::uniform ? ValueSpec::Kind::uniform
                                            : ValueSpec::Kind::normal;
  return s;
}

}  // namespace

std::vector<uint32_t> Nodes::ids() const {
  std::vector<uint32_t> out(count);
  std::iota(out.begin(), out.end(), first);
  return out;
}

Network::Network(const Settings& s) {
  kernel_ = std::make_unique<Kernel>(config_from(
      {{"local_num_threads", int64_t(s.threads)}, {"resolution", s.resolution}, {"rng_seed", int64_t(s.seed)}}));
}

Network::~Network() = default;

Nodes Network::create(const std::string& model, int64_t n, const std::map<std::string, double>& params) {
  const bool neuron = NeuronModels::instance().find(model) != nullptr;
  const uint32_t first =
      neuron ? kernel_->network().create_neurons(model, n) : kernel_->network().create_devices(model, n);
  const Nodes nodes{first, uint32_t(n)};
  try {
    set(nodes, params);
  } catch (...) {  // rejected parameters: the nodes were never created
    kernel_->network().undo_last_create();
    throw;
  }
  return nodes;
}

void Network::set(const Nodes& nodes, const std::map<std::string, double>& params) {
  if (params.empty()) return;
  const std::vector<uint32_t> ids = nodes.ids();
  if (!kernel_->network().is_device(nodes.first)) {
    std::vector<std::string> names;
    std::vector<std::vector<double>> values;
    for (const auto& [name, value] : params) names.push_back(name), values.emplace_back(ids.size(), value);
    kernel_->set_variables(names, ids, values);
    return;
  }
  std::vector<Device> changed;  // every device checked before any changes, as for neurons
  for (uint32_t id : ids) {
    Device d = kernel_->network().device_of(id);
    std::vector<size_t> indices;
    for (const auto& [name, value] : params) {
      const int i = index_of(d, name);
      if (i < 0 || !std::holds_alternative<double>(d.values[size_t(i)]))
        throw UnknownParameterError("device " + std::to_string(id) + " has no number parameter " + name);
      d.values[size_t(i)] = value;
      indices.push_back(size_t(i));
    }
    validate(d, indices, kernel_->resolution(), kernel_->tics_per_ms(), kernel_->step());
    changed.push_back(std::move(d));
  }
  for (size_t k = 0; k < ids.size(); ++k) kernel_->network().device_of(ids[k]) = std::move(changed[k]);
}

void Network::connect(const Nodes& pre, const Nodes& post, const Rule& rule, const Synapse& synapse) {
  ConnectRequest r;
  r.rule = rule.name;
  r.sources = pre.ids(), r.targets = post.ids();
  r.rule_parameters = rule.parameters;
  r.allow_autapses = rule.allow_autapses, r.allow_multapses = rule.allow_multapses;
  r.weight = spec_of(synapse.weight), r.delay = spec_of(synapse.delay);
  r.receptor = synapse.receptor;
  r.synapse = kernel_->network().synapse_model_id(synapse.model);
  kernel_->network().connect(r);
}

uint32_t Network::record_spikes(const Nodes& neurons) {
  const uint32_t recorder = kernel_->network().create_devices("spike_recorder", 1);
  kernel_->connect_recorder(recorder, neurons.ids());
  return recorder;
}

void Network::simulate(double ms) {
  const double steps = ms / kernel_->resolution();
  if (!(steps >= 0) || std::fabs(steps - std::round(steps)) > 1e-9 * std::max(1.0, steps))
    throw bad_value("ms", ms, "a non-negative multiple of the resolution");
  kernel_->simulate(std::llround(steps));
}

SpikeEvents Network::spikes(uint32_t recorder) const {
  const RecordedEvents& e = kernel_->events(recorder);
  SpikeEvents out{e.senders, {}};
  for (int64_t stamp : e.stamps) out.times.push_back(kernel_->ms_of(stamp));
  return out;
}

double Network::time() const { return kernel_->ms_of(kernel_->step()); }

std::vector<std::string> Network::neuron_models() { return NeuronModels::instance().names(); }

std::vector<std::string> Network::connection_rules() { return ConnectionRules::instance().names(); }

}  // namespace ranvier
