// The network part: Create calls placed as node ranges, locating nodes, devices and synapse
// models.
#include "kernel/local_network.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "devices/device_model.hpp"
#include "exchange/spike_exchange.hpp"

namespace ranvier {

LocalNetwork::LocalNetwork(const KernelConfig& config, std::shared_ptr<Communicator> comm, PhaseTimes& times)
    : config_(config),
      comm_(std::move(comm)),
      times_(times),
      rank_(comm_->rank()),
      h_(config.resolution),
      placement_(placement_from_name(config.placement), config.dry_run > 0 ? config.dry_run : comm_->size(),
                 config.threads, config.seed),
      threads_(size_t(config.threads)) {
  // static_synapse is id 0 (stimulating devices use it), the other built-in ones follow in name
  // order, then those of modules as they were installed (synapses/synapse_model.hpp)
  const SynapseBases& bases = SynapseBases::instance();
  const std::vector<std::string>& from_modules = module_synapse_models();
  add_synapse_model({"static_synapse", *bases.find("static_synapse")});
  for (const std::string& name : bases.names())
    if (name != "static_synapse" && std::find(from_modules.begin(), from_modules.end(), name) == from_modules.end())
      add_synapse_model({name, *bases.find(name), is_labelled(name)});
  for (const std::string& name : from_modules) add_synapse_model({name, *bases.find(name), is_labelled(name)});
  for (SynapseModel& m : synapse_models_)  // the first of a base is the model, the others its variants
    m.streams = uint32_t(std::find_if(synapse_models_.begin(), synapse_models_.end(),
                                      [&](const SynapseModel& first) { return first.base == m.base; }) -
                         synapse_models_.begin());
}

void LocalNetwork::check_node_count(int64_t n) const {
  const int64_t room = int64_t(UINT32_MAX) - int64_t(next_gid_);  // node ids are 32-bit
  if (n < 1 || n > room)
    throw bad_value("n", n, "a positive integer of at most " + std::to_string(room) + " (the node ids left)");
}

uint32_t LocalNetwork::create_neurons(const std::string& model_name, int64_t n, int area,
                                      std::shared_ptr<const CellKind> kind) {
  ScopedTimer timer(times_.create);
  check_node_count(n);
  const NeuronModel* model = NeuronModels::instance().at(model_name, "model");
  NodeRange range;
  range.layout.first_gid = next_gid_;
  range.layout.count = uint32_t(n);
  range.layout.shuffle = placement_.shuffle_for(next_gid_, n);
  range.model = model;
  range.kind = kind ? std::move(kind) : model->default_kind();
  range.area = area;
  range.placed = placement_.policy() != PlacementPolicy::area || model->replicated();
  replicated_nodes_ = replicated_nodes_ || model->replicated();
  ranges_.push_back(std::move(range));
  next_gid_ += uint32_t(n);
  if (ranges_.back().placed) make_groups(ranges_.back());
  changed();
  return ranges_.back().first_gid();
}

void LocalNetwork::make_groups(NodeRange& range) {
  for (size_t t = 0; t < threads_.size(); ++t) {
    ThreadState& ts = threads_[t];
    NeuronGroup g;
    g.model = range.model;
    g.first_lid = uint32_t(ts.n_local());
    g.first_input = uint32_t(ts.n_inputs());
    g.gids = range.model->replicated() ? all_gids(range.layout) : placement_.local_gids(range.layout, rank_, int(t));
    for (const Variable& v : range.model->variables()) g.vars.emplace_back(g.gids.size(), v.default_value);
    for (const ListVariable& v : range.model->list_variables()) g.lists.emplace_back(g.gids.size(), v.default_value);
    g.structural.calcium = range.model->calcium_index();
    range.model->attach(g, range.kind, range.first_gid());
    ts.lid_gid.insert(ts.lid_gid.end(), g.gids.begin(), g.gids.end());
    for (uint32_t port = 0; port < g.ports; ++port)
      ts.input_gid.insert(ts.input_gid.end(), g.gids.begin(), g.gids.end());
    range.group.push_back(uint32_t(ts.groups.size()));
    ts.groups.push_back(std::move(g));
  }
}

uint32_t LocalNetwork::create_devices(const std::string& model, int64_t n) {
  const DeviceModel& m = DeviceModels::instance().at(model, "model");
  check_node_count(n);
  NodeRange range;
  range.layout.first_gid = next_gid_;
  range.layout.count = uint32_t(n);
  range.first_device = uint32_t(devices_.size());
  for (uint32_t k = 0; k < n; ++k) devices_.push_back(m.device(next_gid_ + k, h_));
  ranges_.push_back(std::move(range));
  next_gid_ += uint32_t(n);
  changed();
  return ranges_.back().first_gid();
}

void LocalNetwork::undo_last_create() {
  const NodeRange& range = ranges_.back();
  if (range.model && range.placed) {
    for (size_t t = 0; t < threads_.size(); ++t) {
      ThreadState& ts = threads_[t];
      ts.lid_gid.resize(ts.groups.back().first_lid);
      ts.groups.pop_back();
      size_t end = 0;  // groups whose ports changed keep columns beyond later groups'
      for (const NeuronGroup& g : ts.groups) end = std::max(end, g.first_input + g.size() * g.ports);
      ts.input_gid.resize(end);
    }
  } else {
    devices_.resize(range.first_device);
  }
  next_gid_ = range.first_gid();
  ranges_.pop_back();
}

uint32_t LocalNetwork::synapse_model_id(const std::string& name) const {
  for (uint32_t id = 0; id < synapse_models_.size(); ++id)
    if (synapse_models_[id].name == name) return id;
  throw UnknownModelError("unknown synapse model: " + name);
}

const NodeRange& LocalNetwork::range_of(uint32_t gid) const {
  if (gid == 0 || gid >= next_gid_) throw UnknownNodeError("Node with id " + std::to_string(gid) + " does not exist.");
  const auto it = std::upper_bound(ranges_.begin(), ranges_.end(), gid,
                                   [](uint32_t g, const NodeRange& r) { return g < r.first_gid(); });
  return *(it - 1);
}

Device& LocalNetwork::device_of(uint32_t gid) {
  const NodeRange& r = range_of(gid);
  if (r.model) throw BadParameterError("node " + std::to_string(gid) + " is not a device");
  return devices_[r.first_device + (gid - r.first_gid())];
}

VirtualProcess LocalNetwork::vp_of(uint32_t gid) const { return vp_in(gid, range_of(gid)); }

// A replicated node answers as NEST's do, from thread 0 of every process.
VirtualProcess LocalNetwork::vp_in(uint32_t gid, const NodeRange& r) const {
  if (!r.model) throw BadParameterError("node " + std::to_string(gid) + " is a device");
  if (!r.placed) throw KernelStateError("node " + std::to_string(gid) + " is not placed yet");
  if (r.model->replicated()) return {rank_, 0};
  return placement_.of(gid, r.layout);
}

bool LocalNetwork::is_local(uint32_t gid, int thread) const {
  const NodeRange& r = range_of(gid);
  const VirtualProcess v = vp_in(gid, r);
  return v.rank == rank_ && (v.thread == thread || r.model->replicated());
}

std::vector<uint32_t> LocalNetwork::all_gids(const RangeLayout& layout) {
  std::vector<uint32_t> gids(layout.count);
  for (uint32_t k = 0; k < layout.count; ++k) gids[k] = layout.first_gid + k;
  return gids;
}

std::vector<VirtualProcess> LocalNetwork::virtual_processes(const std::vector<uint32_t>& gids) {
  place_areas();
  std::vector<VirtualProcess> out(gids.size(), VirtualProcess{0, 0});
  for (size_t k = 0; k < gids.size(); ++k)
    if (!is_device(gids[k])) out[k] = vp_of(gids[k]);
  return out;
}

bool LocalNetwork::locate(uint32_t gid, Local& where, const NodeRange** range, int thread) const {
  const NodeRange& r = range_of(gid);
  if (range) *range = &r;
  VirtualProcess v = vp_in(gid, r);
  if (v.rank != rank_) return false;
  if (r.model->replicated()) v.thread = thread;
  const NeuronGroup& g = threads_[size_t(v.thread)].groups[r.group[size_t(v.thread)]];
  where = {v.thread, r.group[size_t(v.thread)], uint32_t(index_in(g.gids, gid))};
  return true;
}

uint32_t LocalNetwork::input_of(uint32_t gid, uint32_t receptor_type, bool current, int thread) const {
  Local where{};
  const NodeRange* range = nullptr;
  locate(gid, where, &range, thread);
  const NeuronGroup& g = threads_[size_t(where.thread)].groups[where.group];
  const uint32_t receptor = g.model->port(range->kind.get(), receptor_type, current);
  if (receptor >= g.ports)
    throw bad_value("receptor_type", receptor,
                    "below " + std::to_string(g.ports) + " (the input ports of " + std::string(g.model->name()) +
                        " node " + std::to_string(gid) + ")");
  return g.input(where.index, receptor);
}

std::vector<uint32_t> LocalNetwork::local_positions(const GidList& gids) {
  place_areas();
  std::vector<uint32_t> out;
  for (size_t k = 0; k < gids.size(); ++k)
    if (vp_of(gids[k]).rank == rank_) out.push_back(uint32_t(k));
  return out;
}

std::vector<double> LocalNetwork::draw_node_values(const ValueSpec& spec, const std::vector<uint32_t>& gids) {
  const uint32_t call = ++parameter_draws_;
  std::vector<double> out(gids.size());
  for (size_t k = 0; k < gids.size(); ++k)
    out[k] = spec.value(k, Stream(config_.seed, Purpose::node_parameter, call, gids[k]), 0);
  return out;
}

std::vector<double> LocalNetwork::draw_connection_values(const ValueSpec& spec, const ConnectionList& which,
                                                         const std::vector<uint32_t>& multapse) {
  const uint32_t call = ++parameter_draws_;
  std::vector<double> out(which.source.size());
  for (size_t k = 0; k < out.size(); ++k) {
    // redraws move on by 2^40 (value_spec.cpp): the index keeps below it, multapses mod 256
    const Stream stream(config_.seed, Purpose(uint32_t(Purpose::connection_parameter) | which.synapse[k] << 8), call,
                        which.source[k]);
    out[k] = spec.value(k, stream, uint64_t(which.target[k]) | uint64_t(multapse[k] & 0xffu) << 32);
  }
  return out;
}

uint32_t LocalNetwork::add_synapse_model(const SynapseModel& model) {
  synapse_models_.push_back(model);
  synapse_models_.back().streams = uint32_t(synapse_models_.size() - 1);  // a copy draws from its own
  const size_t width = model.record_width();
  for (ThreadState& ts : threads_)
    for (auto* tables : {&ts.tables, &ts.long_tables})
      tables->emplace_back(model.plastic(), width, model.base->own_records);
  return uint32_t(synapse_models_.size() - 1);
}

void LocalNetwork::set_weight_recorder(uint32_t synapse, uint32_t recorder) {
  SynapseModel& model = synapse_models_.at(synapse);
  if (recorder == 0) {
    model.weight_recorder = -1;
    return;
  }
  if (recorder >= next_gid_ || !is_device(recorder) || !device_of(recorder).records(Records::transmissions))
    throw bad_value("weight_recorder", recorder, "a node of type weight_recorder");
  model.weight_recorder = int32_t(&device_of(recorder) - devices_.data());
}

}  // namespace ranvier
