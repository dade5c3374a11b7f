// Nodes, their variables, synapse models and the read-out of connections and events.
#include "kernel/kernel.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "core/errors.hpp"
#include "devices/device_model.hpp"

namespace ranvier {

namespace {
std::shared_ptr<const CellKind> default_lists(const NeuronModel& model) {
  auto kind = std::make_shared<ListKind>();
  for (const ListParameter& p : model.list_parameters()) kind->lists[p.name] = p.default_value;
  return kind;
}

std::shared_ptr<Communicator> communicator_for(const KernelConfig& c) {
  return c.dry_run > 0 ? single_process_communicator() : world_communicator();
}
}  // namespace

Kernel::Kernel(const KernelConfig& config)
    : config_(config),
      comm_(communicator_for(config)),
      rank_(comm_->rank()),
      placement_(placement_from_name(config.placement), config.dry_run > 0 ? config.dry_run : comm_->size(),
                 config.threads, config.seed),
      threads_(size_t(config.threads)),
      h_(config.resolution),
      seed_(config.seed),
      pathways_(config_, comm_, times_) {
  set_exchange(config.exchange, config.multisend_phases);
  // static_synapse is id 0 (stimulating devices use it), the others follow in name order
  const SynapseBases& bases = SynapseBases::instance();
  add_synapse_model({"static_synapse", *bases.find("static_synapse")});
  for (const std::string& name : bases.names())
    if (name != "static_synapse") add_synapse_model({name, *bases.find(name)});
}

void Kernel::check_node_count(int64_t n) const {
  const int64_t room = int64_t(UINT32_MAX) - int64_t(next_gid_);  // node ids are 32-bit
  if (n < 1 || n > room)
    throw bad_value("n", n, "a positive integer of at most " + std::to_string(room) + " (the node ids left)");
}

uint32_t Kernel::create_neurons(const std::string& model_name, int64_t n, int area,
                               std::shared_ptr<const CellKind> kind) {
  ScopedTimer timer(times_.create);
  check_node_count(n);
  const NeuronModel* model = NeuronModels::instance().at(model_name, "model");
  NodeRange range;
  range.layout.first_gid = next_gid_;
  range.layout.count = uint32_t(n);
  range.layout.shuffle = placement_.shuffle_for(next_gid_, n);
  range.model = model;
  range.kind = kind || model->list_parameters().empty() ? std::move(kind) : default_lists(*model);
  range.area = area;
  range.placed = placement_.policy() != PlacementPolicy::area;
  ranges_.push_back(std::move(range));
  next_gid_ += uint32_t(n);
  if (ranges_.back().placed) make_groups(ranges_.back());
  prepared_ = false;
  return ranges_.back().first_gid();
}

void Kernel::make_groups(NodeRange& range) {
  for (size_t t = 0; t < threads_.size(); ++t) {
    ThreadState& ts = threads_[t];
    NeuronGroup g;
    g.model = range.model;
    g.first_lid = uint32_t(ts.n_local());
    g.first_input = uint32_t(ts.n_inputs());
    g.gids = placement_.local_gids(range.layout, rank_, int(t));
    for (const Variable& v : range.model->variables()) g.vars.emplace_back(g.gids.size(), v.default_value);
    for (const ListVariable& v : range.model->list_variables()) g.lists.emplace_back(g.gids.size(), v.default_value);
    range.model->attach(g, range.kind, range.first_gid());
    ts.lid_gid.insert(ts.lid_gid.end(), g.gids.begin(), g.gids.end());
    for (uint32_t port = 0; port < g.ports; ++port) ts.input_gid.insert(ts.input_gid.end(), g.gids.begin(), g.gids.end());
    range.group.push_back(uint32_t(ts.groups.size()));
    ts.groups.push_back(std::move(g));
  }
}

void Kernel::place_areas() {
  struct Area {
    int64_t key;
    uint64_t size = 0;
    int rank_first = -1, rank_count = 0;
  };
  auto key_of = [](const NodeRange& r, size_t index) { return r.area >= 0 ? int64_t(r.area) : -int64_t(index) - 1; };
  std::vector<Area> areas;  // in order of creation
  auto find = [&](int64_t key) -> Area& {
    for (Area& a : areas)
      if (a.key == key) return a;
    areas.push_back({key});
    return areas.back();
  };
  bool pending = false, any_placed = false;
  const int m = placement_.ranks();
  std::vector<uint64_t> load(size_t(m), 0);
  for (size_t i = 0; i < ranges_.size(); ++i) {
    const NodeRange& r = ranges_[i];
    if (!r.model) continue;
    Area& a = find(key_of(r, i));
    if (r.placed) {
      any_placed = true;
      a.rank_first = r.layout.rank_first, a.rank_count = r.layout.rank_count;
      for (int k = 0; k < r.layout.rank_count; ++k) load[size_t(r.layout.rank_first + k)] += r.work(h_) / r.layout.rank_count;
    } else {
      pending = true;
      a.size += r.work(h_);
    }
  }
  if (!pending) return;
  std::vector<Area*> fresh;
  uint64_t fresh_total = 0;
  for (Area& a : areas)
    if (a.rank_first < 0) fresh.push_back(&a), fresh_total += a.size;
  if (!any_placed && int(fresh.size()) < m) {
    // More ranks than areas: each area gets consecutive ranks in proportion to its size
    // (at least one; largest remainders take the rest).
    std::vector<int> share(fresh.size());
    std::vector<std::pair<double, size_t>> remainders;
    int given = 0;
    for (size_t k = 0; k < fresh.size(); ++k) {
      const double exact = double(m) * double(fresh[k]->size) / double(std::max<uint64_t>(fresh_total, 1));
      share[k] = std::max(1, int(exact));
      given += share[k];
      remainders.push_back({exact - int(exact), k});
    }
    std::stable_sort(remainders.begin(), remainders.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (size_t k = 0; given < m; k = (k + 1) % remainders.size(), ++given) ++share[remainders[k].second];
    for (size_t k = fresh.size(); given > m && k-- > 0;)
      while (share[k] > 1 && given > m) --share[k], --given;
    int next = 0;
    for (size_t k = 0; k < fresh.size(); ++k) {
      fresh[k]->rank_first = next, fresh[k]->rank_count = share[k];
      for (int q = 0; q < share[k]; ++q) load[size_t(next + q)] += fresh[k]->size / uint64_t(share[k]);
      next += share[k];
    }
    short_color_ = 0;
    for (size_t k = 0; k < fresh.size(); ++k)
      if (rank_ >= fresh[k]->rank_first && rank_ < fresh[k]->rank_first + fresh[k]->rank_count) short_color_ = int(k);
  } else {
    // At least as many areas as ranks: whole areas, largest first, onto the least loaded rank.
    std::vector<Area*> by_size = fresh;
    std::stable_sort(by_size.begin(), by_size.end(), [](Area* a, Area* b) { return a->size > b->size; });
    for (Area* a : by_size) {
      const size_t r = size_t(std::min_element(load.begin(), load.end()) - load.begin());
      a->rank_first = int(r), a->rank_count = 1;
      load[r] += a->size;
    }
    if (!any_placed) short_color_ = rank_;  // every rank exchanges short-range spikes alone
  }
  const double mean = double(std::accumulate(load.begin(), load.end(), uint64_t(0))) / m;
  area_imbalance_ = mean > 0 ? double(*std::max_element(load.begin(), load.end())) / mean : 1.0;
  for (size_t i = 0; i < ranges_.size(); ++i) {
    NodeRange& r = ranges_[i];
    if (!r.model || r.placed) continue;
    const Area& a = find(key_of(r, i));
    r.layout.rank_first = a.rank_first, r.layout.rank_count = a.rank_count;
    r.placed = true;
    make_groups(r);
  }
  prepared_ = false;
}

uint32_t Kernel::create_devices(const std::string& model, int64_t n) {
  const DeviceModel& m = DeviceModels::instance().at(model, "model");
  check_node_count(n);
  NodeRange range;
  range.layout.first_gid = next_gid_;
  range.layout.count = uint32_t(n);
  range.first_device = uint32_t(devices_.size());
  for (uint32_t k = 0; k < n; ++k) {
    Device d;
    d.stimulator = m.stimulator;
    if (m.stimulator)
      for (const DeviceParameter& p : m.stimulator->parameters(h_)) d.values.push_back(p.default_value);
    d.gid = next_gid_ + k;
    d.synaptic = !m.synaptic_columns.empty();
    if (d.synaptic) d.record_from = m.synaptic_columns;
    devices_.push_back(std::move(d));
  }
  ranges_.push_back(std::move(range));
  next_gid_ += uint32_t(n);
  prepared_ = false;
  return ranges_.back().first_gid();
}

void Kernel::undo_last_create() {
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

uint32_t Kernel::synapse_model_id(const std::string& name) const {
  for (uint32_t id = 0; id < synapse_models_.size(); ++id)
    if (synapse_models_[id].name == name) return id;
  throw UnknownModelError("unknown synapse model: " + name);
}

const NodeRange& Kernel::range_of(uint32_t gid) const {
  if (gid == 0 || gid >= next_gid_)
    throw UnknownNodeError("node " + std::to_string(gid) + " does not exist");
  const auto it = std::upper_bound(ranges_.begin(), ranges_.end(), gid,
                                   [](uint32_t g, const NodeRange& r) { return g < r.first_gid(); });
  return *(it - 1);
}

Device& Kernel::device_of(uint32_t gid) {
  const NodeRange& r = range_of(gid);
  if (r.model) throw BadParameterError("node " + std::to_string(gid) + " is not a device");
  return devices_[r.first_device + (gid - r.first_gid())];
}

VirtualProcess Kernel::vp_of(uint32_t gid) const {
  const NodeRange& r = range_of(gid);
  if (!r.model) throw BadParameterError("node " + std::to_string(gid) + " is a device");
  if (!r.placed) throw KernelStateError("node " + std::to_string(gid) + " is not placed yet");
  return placement_.of(gid, r.layout);
}

bool Kernel::locate(uint32_t gid, Local& where, const NodeRange** range) const {
  const NodeRange& r = range_of(gid);
  if (range) *range = &r;
  if (!r.model) throw BadParameterError("node " + std::to_string(gid) + " is a device");
  if (!r.placed) throw KernelStateError("node " + std::to_string(gid) + " is not placed yet");
  const VirtualProcess v = placement_.of(gid, r.layout);
  if (v.rank != rank_) return false;
  const NeuronGroup& g = threads_[size_t(v.thread)].groups[r.group[size_t(v.thread)]];
  where = {v.thread, r.group[size_t(v.thread)], uint32_t(index_in(g.gids, gid))};
  return true;
}

uint32_t Kernel::input_of(uint32_t gid, uint32_t receptor_type, bool current) const {
  Local where{};
  const NodeRange* range = nullptr;
  locate(gid, where, &range);
  const NeuronGroup& g = threads_[size_t(where.thread)].groups[where.group];
  const uint32_t receptor = g.model->port(range->kind.get(), receptor_type, current);
  if (receptor >= g.ports)
    throw bad_value("receptor_type", receptor, "below " + std::to_string(g.ports) + " (the input ports of " +
                                                   std::string(g.model->name()) + " node " + std::to_string(gid) + ")");
  return g.input(where.index, receptor);
}

void Kernel::set_list(const std::vector<uint32_t>& gids, const std::string& name, const std::vector<double>& values) {
  place_areas();  // every range has its groups
  std::vector<std::pair<NodeRange*, std::shared_ptr<const CellKind>>> changed;  // all checked first
  for (NodeRange* range : target_ranges(gids)) {
    const NeuronModel* model = range->model;
    if (!model) throw BadParameterError("node " + std::to_string(range->first_gid()) + " is a device");
    const auto* lists = dynamic_cast<const ListKind*>(range->kind.get());
    if (!lists || !lists->lists.count(name))
      throw UnknownParameterError(std::string(model->name()) + " has no parameter " + name);
    if (lists->at(name) == values) continue;
    const auto first = std::lower_bound(gids.begin(), gids.end(), range->first_gid());
    const size_t covered = size_t(std::lower_bound(first, gids.end(), range->first_gid() + range->count()) - first);
    if (covered != range->count())
      throw BadParameterError(name + " is one list for all nodes of a Create call in Ranvier: set it on all " +
                              std::to_string(range->count()) + " nodes from node " + std::to_string(range->first_gid()) +
                              " at once, got " + std::to_string(covered) + " of them");
    auto next = std::make_shared<ListKind>(*lists);
    next->lists[name] = values;
    model->validate_lists(*next, nullptr);
    for (size_t t = 0; t < threads_.size(); ++t) model->validate_lists(*next, &threads_[t].groups[range->group[t]]);
    const uint32_t ports = uint32_t(values.size());
    if (ports != lists->at(name).size() && range->targeted)
      throw BadParameterError(name + ": nodes " + std::to_string(range->first_gid()) + ".." +
                              std::to_string(range->first_gid() + range->count() - 1) +
                              " have connections, therefore the number of ports cannot change (NEST's rule)");
    if (ports < range->recorded_ports)
      throw BadParameterError(name + ": a multimeter records port " + std::to_string(range->recorded_ports) +
                              " of nodes from " + std::to_string(range->first_gid()) + ", so " + name +
                              " needs at least that many entries, got " + std::to_string(ports));
    changed.push_back({range, std::move(next)});
  }
  for (auto& [range, kind] : changed) {
    range->kind = std::move(kind);
    bool moved = false;
    for (size_t t = 0; t < threads_.size(); ++t) {
      NeuronGroup& g = threads_[t].groups[range->group[t]];
      const uint32_t before = g.ports;
      range->model->attach(g, range->kind, range->first_gid());
      moved = moved || g.ports != before;
    }
    if (moved) relocate_inputs(*range);
  }
  prepared_ = false;
}

// Appends the range's columns on every thread: nothing targets them yet (set_list checked),
// and other groups' columns stay where their connections point.
void Kernel::relocate_inputs(NodeRange& range) {
  for (size_t t = 0; t < threads_.size(); ++t) {
    ThreadState& ts = threads_[t];
    NeuronGroup& g = ts.groups[range.group[t]];
    g.first_input = uint32_t(ts.n_inputs());
    for (uint32_t port = 0; port < g.ports; ++port) ts.input_gid.insert(ts.input_gid.end(), g.gids.begin(), g.gids.end());
  }
}

const std::vector<double>& Kernel::get_list(uint32_t gid, const std::string& name) const {
  const NodeRange& range = range_of(gid);
  const auto* lists = dynamic_cast<const ListKind*>(range.kind.get());
  if (!range.model || !lists || !lists->lists.count(name))
    throw UnknownParameterError((range.model ? std::string(range.model->name()) : "a device") + " has no parameter " + name);
  return lists->at(name);
}

std::vector<double> Kernel::get_variable(const std::string& name, const std::vector<uint32_t>& gids) {
  place_areas();
  const bool gather = comm_->size() > 1;
  std::vector<double> out(gids.size(), gather ? 0.0 : NAN);
  for (size_t k = 0; k < gids.size(); ++k) {
    Local p{};
    if (!locate(gids[k], p)) continue;
    const NeuronGroup& g = threads_[size_t(p.thread)].groups[p.group];
    const int var = g.model->index_of(name);
    if (var < 0) throw UnknownParameterError(std::string(g.model->name()) + " has no parameter " + name);
    out[k] = g.vars[size_t(var)][p.index];
  }
  if (gather) comm_->allreduce(out, ReduceOp::sum);  // each node has one owner: the sum is exact
  return out;
}

std::vector<std::vector<double>> Kernel::get_list_variable(const std::string& name, const std::vector<uint32_t>& gids) {
  place_areas();
  std::vector<std::vector<double>> out(gids.size());
  std::vector<double> mine;  // (position, length, values...) of each local node
  for (size_t k = 0; k < gids.size(); ++k) {
    Local p{};
    if (!locate(gids[k], p)) continue;
    const NeuronGroup& g = threads_[size_t(p.thread)].groups[p.group];
    const int var = g.model->list_index_of(name);
    if (var < 0) throw UnknownParameterError(std::string(g.model->name()) + " has no parameter " + name);
    out[k] = g.list(var, p.index);
    mine.push_back(double(k)), mine.push_back(double(out[k].size()));
    mine.insert(mine.end(), out[k].begin(), out[k].end());
  }
  if (comm_->size() > 1) {
    std::vector<uint8_t> bytes(mine.size() * sizeof(double));
    std::memcpy(bytes.data(), mine.data(), bytes.size());
    std::vector<size_t> counts;
    const std::vector<uint8_t> all = comm_->allgatherv(bytes, counts);
    std::vector<double> values(all.size() / sizeof(double));
    std::memcpy(values.data(), all.data(), all.size());
    for (size_t at = 0; at < values.size(); at += 2 + size_t(values[at + 1]))
      out[size_t(values[at])].assign(values.begin() + long(at + 2), values.begin() + long(at + 2 + size_t(values[at + 1])));
  }
  return out;
}

void Kernel::set_variables(const std::vector<std::string>& names, const std::vector<uint32_t>& gids,
                           const std::vector<std::vector<double>>& values, const std::vector<std::string>& list_names,
                           const std::vector<std::vector<std::vector<double>>>& list_values) {
  struct Change {
    NeuronGroup* group;
    int var;
    uint32_t index;
    double old_value;
  };
  struct ListChange {
    NeuronGroup* group;
    int var;
    uint32_t index;
    std::vector<double> old_value;
  };
  place_areas();
  std::vector<Change> changes;
  std::vector<ListChange> list_changes;
  std::vector<std::pair<NeuronGroup*, uint32_t>> touched;  // each local node once
  changes.reserve(gids.size() * names.size());
  auto lookup = [](const NeuronGroup& g, const std::string& name, bool list) {
    const int var = list ? g.model->list_index_of(name) : g.model->index_of(name);
    if (var < 0) throw UnknownParameterError(std::string(g.model->name()) + " has no parameter " + name);
    return var;
  };
  try {
    for (size_t k = 0; k < gids.size(); ++k) {
      Local p{};
      if (!locate(gids[k], p)) continue;
      NeuronGroup& g = threads_[size_t(p.thread)].groups[p.group];
      touched.emplace_back(&g, p.index);
      for (size_t n = 0; n < names.size(); ++n) {
        const int var = lookup(g, names[n], false);
        changes.push_back({&g, var, p.index, g.vars[size_t(var)][p.index]});
        g.vars[size_t(var)][p.index] = values[n][k];
      }
      for (size_t n = 0; n < list_names.size(); ++n) {
        const int var = lookup(g, list_names[n], true);
        std::vector<double>& list = g.lists[size_t(var)][p.index];
        list_changes.push_back({&g, var, p.index, list});
        list = list_values[n][k];
      }
    }
    const SetContext context{h_, step(), &names, &list_names};
    for (const auto& [g, i] : touched) g->model->on_set(*g, i, context);
    for (const auto& [g, i] : touched) g->model->validate(*g, i);
  } catch (...) {  // leave every neuron as it was
    for (auto c = list_changes.rbegin(); c != list_changes.rend(); ++c)
      c->group->lists[size_t(c->var)][c->index] = std::move(c->old_value);
    for (auto c = changes.rbegin(); c != changes.rend(); ++c)
      c->group->vars[size_t(c->var)][c->index] = c->old_value;
    throw;
  }
  for (const auto& [g, i] : touched) g->model->after_set(*g, i);
  prepared_ = false;
}

std::vector<uint32_t> Kernel::local_positions(const std::vector<uint32_t>& gids) {
  place_areas();
  std::vector<uint32_t> out;
  for (size_t k = 0; k < gids.size(); ++k)
    if (vp_of(gids[k]).rank == rank_) out.push_back(uint32_t(k));
  return out;
}

std::vector<double> Kernel::draw_node_values(const ValueSpec& spec, const std::vector<uint32_t>& gids) {
  const uint32_t call = ++parameter_draws_;
  std::vector<double> out(gids.size());
  for (size_t k = 0; k < gids.size(); ++k)
    out[k] = spec.value(k, Stream(seed_, Purpose::node_parameter, call, gids[k]), 0);
  return out;
}

uint32_t Kernel::add_synapse_model(const SynapseModel& model) {
  synapse_models_.push_back(model);
  const size_t width = model.base->record_width();
  for (ThreadState& ts : threads_)
    for (auto* tables : {&ts.tables, &ts.long_tables}) tables->emplace_back(model.plastic(), width, model.base->own_records);
  return uint32_t(synapse_models_.size() - 1);
}

void Kernel::set_weight_recorder(uint32_t synapse, uint32_t recorder) {
  SynapseModel& model = synapse_models_.at(synapse);
  if (recorder == 0) {
    model.weight_recorder = -1;
    return;
  }
  if (recorder >= next_gid_ || !is_device(recorder) || !device_of(recorder).synaptic)
    throw bad_value("weight_recorder", recorder, "a node of type weight_recorder");
  model.weight_recorder = int32_t(&device_of(recorder) - devices_.data());
}

namespace {

std::vector<uint8_t> serialize(const ConnectionList& c) {
  std::vector<uint8_t> out;
  const uint64_t n = c.source.size();
  append_bytes(out, &n, 1);
  append_bytes(out, c.source.data(), n);
  append_bytes(out, c.target.data(), n);
  append_bytes(out, c.synapse.data(), n);
  append_bytes(out, c.weight.data(), n);
  append_bytes(out, c.delay.data(), n);
  append_bytes(out, c.record.data(), n * c.record_width);
  return out;
}

void append_serialized(ConnectionList& c, const uint8_t*& p) {
  uint64_t n = 0;
  std::copy_n(p, sizeof n, reinterpret_cast<uint8_t*>(&n));
  p += sizeof n;
  auto take = [&](auto& column, size_t width = 1) {
    using T = typename std::decay_t<decltype(column)>::value_type;
    const auto part = from_bytes<T>(p, n * width * sizeof(T));
    column.insert(column.end(), part.begin(), part.end());
    p += n * width * sizeof(T);
  };
  take(c.source);
  take(c.target);
  take(c.synapse);
  take(c.weight);
  take(c.delay);
  take(c.record, c.record_width);
}

// Orders by (source, target); a stable sort keeps multapses in creation order, so the list
// does not depend on the partition.
ConnectionList sorted_by_source_and_target(const ConnectionList& in) {
  std::vector<size_t> order(in.source.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return in.source[a] != in.source[b] ? in.source[a] < in.source[b] : in.target[a] < in.target[b];
  });
  ConnectionList out;
  out.record_width = in.record_width;
  for (size_t k : order) {
    const auto record = in.record.begin() + long(k * in.record_width);
    out.record.insert(out.record.end(), record, record + long(in.record_width));
    out.source.push_back(in.source[k]);
    out.target.push_back(in.target[k]);
    out.synapse.push_back(in.synapse[k]);
    out.weight.push_back(in.weight[k]);
    out.delay.push_back(in.delay[k]);
  }
  return out;
}

}  // namespace

ConnectionList Kernel::get_connections(const std::vector<uint32_t>* sources, const std::vector<uint32_t>* targets,
                                       int synapse, bool local_only) {
  place_areas();
  prepare();
  auto wanted = [](const std::vector<uint32_t>* set, uint32_t gid) {
    return !set || std::binary_search(set->begin(), set->end(), gid);
  };
  ConnectionList out;
  for (const SynapseModel& m : synapse_models_)
    out.record_width = std::max(out.record_width, m.base->record_parameters().size());
  auto add = [&](uint32_t s, uint32_t t, uint32_t syn, double w, double d_steps, const double* record = nullptr,
                 size_t n_record = 0) {
    for (size_t i = 0; i < out.record_width; ++i) out.record.push_back(i < n_record ? record[i] : NAN);
    out.source.push_back(s);
    out.target.push_back(t);
    out.synapse.push_back(syn);
    out.weight.push_back(w);
    out.delay.push_back(d_steps * h_);
  };
  for (ThreadState& ts : threads_) {
    for (size_t at = 0; at < 2 * ts.tables.size(); ++at) {
      const size_t syn = at % ts.tables.size();
      if (synapse >= 0 && size_t(synapse) != syn) continue;
      const ConnectionTable& table = at < ts.tables.size() ? ts.tables[syn] : ts.long_tables[syn];
      const bool common_weight = synapse_models_[syn].base->common_weight;
      const double model_weight = synapse_models_[syn].value_or("weight", 0.0);
      const size_t n_record = synapse_models_[syn].base->record_parameters().size();
      for (size_t i = 0; i < table.sources().size(); ++i) {
        const uint32_t s = table.sources()[i];
        if (!wanted(sources, s)) continue;
        const SourceRange r = table.range_at(i);
        for (size_t k = r.begin; k < r.end; ++k) {
          const uint32_t t = ts.input_gid[table.targets()[k]];
          if (wanted(targets, t))
            add(s, t, uint32_t(syn), common_weight ? model_weight : table.weights().at(i, k), table.delays().at(i, k),
                n_record ? table.records().at(i, k) : nullptr, n_record);
        }
      }
    }
    if (synapse > 0) continue;  // stimulus connections use static_synapse (id 0)
    for (const StimulusConnection& c : ts.stimuli) {
      const uint32_t s = devices_[c.device].gid;
      if (wanted(sources, s) && wanted(targets, c.target_gid)) add(s, c.target_gid, 0, c.weight, c.delay);
    }
  }
  if (!local_only && comm_->size() > 1) {
    std::vector<size_t> counts;
    const std::vector<uint8_t> all = comm_->allgatherv(serialize(out), counts);
    ConnectionList merged;
    merged.record_width = out.record_width;
    const uint8_t* p = all.data();
    for (size_t r = 0; r < counts.size(); ++r) append_serialized(merged, p);
    out = std::move(merged);
  }
  return sorted_by_source_and_target(out);
}

namespace {

// Rank 0's events of one recorder: every rank's part (each in order), in (time, sender) order,
// ties by values[tie] where tie < width; stable, so a neuron's repeats stay in order.
RecordedEvents merged_in_order(const std::vector<std::vector<uint8_t>>& parts, size_t width, size_t tie) {
  RecordedEvents merged;
  for (const std::vector<uint8_t>& part : parts) {
    const uint8_t* p = part.data();
    uint64_t m = 0;
    std::copy_n(p, sizeof m, reinterpret_cast<uint8_t*>(&m));
    p += sizeof m;
    const auto senders = from_bytes<uint32_t>(p, m * 4);
    p += m * 4;
    const auto stamps = from_bytes<int64_t>(p, m * 8);
    p += m * 8;
    const auto values = from_bytes<double>(p, m * width * 8);
    merged.senders.insert(merged.senders.end(), senders.begin(), senders.end());
    merged.stamps.insert(merged.stamps.end(), stamps.begin(), stamps.end());
    merged.values.insert(merged.values.end(), values.begin(), values.end());
  }
  std::vector<size_t> order(merged.senders.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (merged.stamps[a] != merged.stamps[b]) return merged.stamps[a] < merged.stamps[b];
    if (merged.senders[a] != merged.senders[b] || tie == width) return merged.senders[a] < merged.senders[b];
    return merged.values[a * width + tie] < merged.values[b * width + tie];
  });
  RecordedEvents all;
  for (size_t k : order) {
    all.senders.push_back(merged.senders[k]);
    all.stamps.push_back(merged.stamps[k]);
    for (size_t c = 0; c < width; ++c) all.values.push_back(merged.values[k * width + c]);
  }
  return all;
}

}  // namespace

void Kernel::collect_events() {
  events_.resize(devices_.size());
  for (size_t d = 0; d < devices_.size(); ++d) {
    if (devices_[d].is_stimulator()) continue;
    const size_t width = devices_[d].event_width();
    RecordedEvents mine;  // this rank's new events: all threads, then (time, sender) order
    struct Ref {
      const RecordedEvents* events;
      size_t k;
    };
    std::vector<Ref> refs;
    for (const ThreadState& ts : threads_)
      if (d < ts.recorded.size())
        for (size_t k = 0; k < ts.recorded[d].senders.size(); ++k) refs.push_back({&ts.recorded[d], k});
    // a weight recorder's events of one spike: by target (each target's connections, in
    // their order, are on one thread)
    const size_t tie = devices_[d].synaptic ? Device::target_column : width;
    auto before = [&](const Ref& a, const Ref& b) {
      const int64_t sa = a.events->stamps[a.k], sb = b.events->stamps[b.k];
      if (sa != sb) return sa < sb;
      const uint32_t na = a.events->senders[a.k], nb = b.events->senders[b.k];
      if (na != nb || tie == width) return na < nb;
      return a.events->values[a.k * width + tie] < b.events->values[b.k * width + tie];
    };
    std::stable_sort(refs.begin(), refs.end(), before);  // a neuron's repeats stay in order
    for (const Ref& ref : refs) {
      mine.senders.push_back(ref.events->senders[ref.k]);
      mine.stamps.push_back(ref.events->stamps[ref.k]);
      for (size_t c = 0; c < width; ++c) mine.values.push_back(ref.events->values[ref.k * width + c]);
    }
    for (ThreadState& ts : threads_)
      if (d < ts.recorded.size()) ts.recorded[d].clear();
    RecordedEvents all;
    if (comm_->size() > 1) {  // rank 0 gets every rank's events; the others keep their own
      std::vector<std::vector<uint8_t>> send(size_t(comm_->size()));
      std::vector<uint8_t>& bytes = send[0];
      const uint64_t n = mine.senders.size();
      append_bytes(bytes, &n, 1);
      append_bytes(bytes, mine.senders.data(), n);
      append_bytes(bytes, mine.stamps.data(), n);
      append_bytes(bytes, mine.values.data(), mine.values.size());
      const std::vector<std::vector<uint8_t>> gathered = comm_->alltoallv(send);
      all = comm_->rank() == 0 ? merged_in_order(gathered, width, tie) : std::move(mine);
    } else {
      all = std::move(mine);
    }
    RecordedEvents& store = events_[d];
    store.senders.insert(store.senders.end(), all.senders.begin(), all.senders.end());
    store.stamps.insert(store.stamps.end(), all.stamps.begin(), all.stamps.end());
    store.values.insert(store.values.end(), all.values.begin(), all.values.end());
  }
}

const RecordedEvents& Kernel::events(uint32_t recorder) {
  const uint32_t d = uint32_t(&device_of(recorder) - devices_.data());
  events_.resize(devices_.size());
  return events_[d];
}

void Kernel::set_max_D(int d) {
  if (d < 1) throw BadParameterError("max_D must be >= 1, got max_D = " + std::to_string(d));
  config_.max_D = d;
  prepared_ = false;
}

void Kernel::set_exchange(const std::string& method, int multisend_phases) {
  pathways_.set_method(method, multisend_phases);
  config_.exchange = method;
  config_.multisend_phases = multisend_phases;
  prepared_ = false;
}

uint64_t Kernel::spikes_emitted() const {
  uint64_t spikes = 0;
  for (const ThreadState& ts : threads_) spikes += ts.spikes_emitted;
  return spikes;
}

void Kernel::set_multisend_subintervals(int n) {
  if (n != 1 && n != 2)
    throw BadParameterError("multisend_subintervals must be 1 or 2, got multisend_subintervals = " +
                            std::to_string(n));
  config_.multisend_subintervals = n;
  prepared_ = false;
}

std::map<std::string, StatusValue> Kernel::status() const {
  uint64_t static_events = 0, plastic_events = 0, neuron_steps = 0, poisson_draws = 0;
  double static_bytes = 0, plastic_bytes = 0, static_n = 0, plastic_n = 0, buffer_bytes = 0;
  int64_t total = 0;  // including connections not yet sorted and those of stimulators
  int64_t long_range = 0;
  for (const ThreadState& ts : threads_) {
    total += int64_t(ts.stimuli.size());
    static_events += ts.static_events, plastic_events += ts.plastic_events;
    neuron_steps += ts.neuron_steps, poisson_draws += ts.poisson_draws;
    buffer_bytes += double(ts.input.bytes());
    for (size_t at = 0; at < ts.tables.size() + ts.long_tables.size(); ++at) {
      const ConnectionTable& t = at < ts.tables.size() ? ts.tables[at] : ts.long_tables[at - ts.tables.size()];
      if (at >= ts.tables.size()) long_range += int64_t(t.count());
      const bool plastic = t.plastic();
      (plastic ? plastic_bytes : static_bytes) += double(t.bytes());
      (plastic ? plastic_n : static_n) += double(t.size());
      total += int64_t(t.count());
    }
  }
  const double n = static_n + plastic_n;
  const ExchangeCounters counters = exchange_counters();
  return {
      {"resolution", h_},
      {"local_num_threads", int64_t(threads_.size())},
      {"total_num_virtual_procs", int64_t(threads_.size()) * ranks()},
      {"rng_seed", int64_t(seed_)},
      {"biological_time", ms_of(step())},
      {"min_delay", ms_of(min_delay_)},
      {"max_delay", ms_of(max_delay_)},
      {"network_size", int64_t(node_count())},
      {"num_connections", total},
      {"local_spike_counter", int64_t(spikes_emitted() - spikes_before_run_)},  // of the last Run, as NEST
      {"spikes_emitted", int64_t(spikes_emitted())},
      {"synaptic_events_static", int64_t(static_events)},
      {"synaptic_events_plastic", int64_t(plastic_events)},
      {"neuron_updates", int64_t(neuron_steps)},
      {"poisson_draws", int64_t(poisson_draws)},
      {"bytes_per_synapse", n > 0 ? (static_bytes + plastic_bytes) / n : 0.0},
      {"bytes_per_static_synapse", static_n > 0 ? static_bytes / static_n : 0.0},
      {"bytes_per_plastic_synapse", plastic_n > 0 ? plastic_bytes / plastic_n : 0.0},
      {"ring_buffer_bytes", buffer_bytes},
      {"time_create", times_.create.seconds()},
      {"time_connect", times_.connect.seconds()},
      {"time_prepare", times_.prepare.seconds()},
      {"time_simulate", times_.simulate.seconds()},
      {"time_deliver", times_.deliver.seconds()},
      {"time_stimulate", times_.stimulate.seconds()},
      {"time_update", times_.update.seconds()},
      {"time_collocate", times_.collocate.seconds()},
      {"time_synchronize", times_.synchronize_global.seconds() + times_.synchronize_local.seconds()},
      {"time_communicate", times_.communicate_global.seconds() + times_.communicate_local.seconds()},
      {"time_communicate_hidden", times_.communicate_hidden.seconds() + times_.communicate_hidden_long.seconds()},
      {"spikes_sent", int64_t(counters.sent)},
      {"spikes_received", int64_t(counters.received)},
      {"exchange_repeats", int64_t(counters.repeats)},
      {"exchange_cycles", int64_t(pathways_.short_cycles())},
      {"global_exchanges", int64_t(pathways_.global_exchanges())},
      {"D", int64_t(D_)},
      {"min_delay_inter", min_delay_inter_ * h_},
      {"num_long_range_connections", long_range},
      {"area_imbalance", area_imbalance_},
      {"time_synchronize_global", times_.synchronize_global.seconds()},
      {"time_communicate_global", times_.communicate_global.seconds()},
      {"num_processes", int64_t(comm_->size())},
      {"mpi_rank", int64_t(rank_)},
      {"dry_run", int64_t(config_.dry_run)},
      {"multisend_phases", int64_t(config_.multisend_phases)},
      {"sync_barrier", config_.sync_barrier},
      {"record_cycle_times", config_.record_cycle_times},
      {"overlap_exchange", config_.overlap_exchange},
      {"multisend_subintervals", int64_t(config_.multisend_subintervals)},
      {"persistent_exchange", config_.persistent_exchange},
      {"max_D", int64_t(config_.max_D)},
      {"placement", config_.placement},
      {"spike_exchange", config_.exchange},
      {"rss_mib", proc_status_bytes("VmRSS") / (1 << 20)},
      {"peak_rss_mib", proc_status_bytes("VmHWM") / (1 << 20)},
  };
}

}  // namespace ranvier
