// Nodes, their variables, synapse models and the read-out of connections and events.
#include "kernel/kernel.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ranvier {

Kernel::Kernel(int threads, double resolution, uint32_t seed)
    : threads_(size_t(threads)), h_(resolution), seed_(seed) {
  add_synapse_model({"static_synapse", SynapseKind::static_synapse, {}});
  add_synapse_model({"stdp_pl_synapse_hom", SynapseKind::stdp_pl_hom, {}});
}

DeviceType device_type_from_name(const std::string& name, bool* found) {
  static const std::map<std::string, DeviceType> types = {
      {"poisson_generator", DeviceType::poisson_generator},
      {"dc_generator", DeviceType::dc_generator},
      {"spike_generator", DeviceType::spike_generator},
      {"spike_recorder", DeviceType::spike_recorder},
      {"multimeter", DeviceType::multimeter},
      {"voltmeter", DeviceType::multimeter}};
  const auto it = types.find(name);
  *found = it != types.end();
  return *found ? it->second : DeviceType::spike_recorder;
}

uint32_t Kernel::create_neurons(const std::string& model_name, uint32_t n) {
  ScopedTimer timer(times_.create);
  const NeuronModel* model = find_neuron_model(model_name);
  if (!model) throw std::invalid_argument("unknown model: " + model_name);
  NodeRange range{next_gid_, n, model, 0, {}};
  const uint32_t T = uint32_t(threads_.size());
  for (uint32_t t = 0; t < T; ++t) {
    ThreadState& ts = threads_[t];
    NeuronGroup g;
    g.model = model;
    g.first_lid = uint32_t(ts.n_local());
    const uint32_t first_local = range.first_gid + (t + T - range.first_gid % T) % T;
    for (uint32_t gid = first_local; gid < range.first_gid + n; gid += T) g.gids.push_back(gid);
    for (const Variable& v : model->variables())
      g.vars.emplace_back(g.gids.size(), v.default_value);
    ts.lid_gid.insert(ts.lid_gid.end(), g.gids.begin(), g.gids.end());
    range.group.push_back(uint32_t(ts.groups.size()));
    ts.groups.push_back(std::move(g));
  }
  ranges_.push_back(std::move(range));
  next_gid_ += n;
  prepared_ = false;
  return ranges_.back().first_gid;
}

uint32_t Kernel::create_devices(DeviceType type, uint32_t n) {
  NodeRange range{next_gid_, n, nullptr, uint32_t(devices_.size()), {}};
  for (uint32_t k = 0; k < n; ++k) {
    Device d;
    d.type = type;
    d.gid = next_gid_ + k;
    devices_.push_back(std::move(d));
  }
  ranges_.push_back(std::move(range));
  next_gid_ += n;
  prepared_ = false;
  return ranges_.back().first_gid;
}

void Kernel::undo_last_create() {
  const NodeRange& range = ranges_.back();
  if (range.model) {
    for (size_t t = 0; t < threads_.size(); ++t) {
      ThreadState& ts = threads_[t];
      ts.lid_gid.resize(ts.groups.back().first_lid);
      ts.groups.pop_back();
    }
  } else {
    devices_.resize(range.first_device);
  }
  next_gid_ = range.first_gid;
  ranges_.pop_back();
}

const NodeRange& Kernel::range_of(uint32_t gid) const {
  if (gid == 0 || gid >= next_gid_)
    throw std::out_of_range("node " + std::to_string(gid) + " does not exist");
  const auto it = std::upper_bound(ranges_.begin(), ranges_.end(), gid,
                                   [](uint32_t g, const NodeRange& r) { return g < r.first_gid; });
  return *(it - 1);
}

Device& Kernel::device_of(uint32_t gid) {
  const NodeRange& r = range_of(gid);
  if (r.model) throw std::invalid_argument("node " + std::to_string(gid) + " is not a device");
  return devices_[r.first_device + (gid - r.first_gid)];
}

Kernel::Placement Kernel::place(uint32_t gid) const {
  const NodeRange& r = range_of(gid);
  if (!r.model) throw std::invalid_argument("node " + std::to_string(gid) + " is a device");
  const uint32_t T = uint32_t(threads_.size());
  const uint32_t t = gid % T;
  const uint32_t first_local = r.first_gid + (t + T - r.first_gid % T) % T;
  return {int(t), r.group[t], (gid - first_local) / T};
}

std::vector<double> Kernel::get_variable(const std::string& name,
                                         const std::vector<uint32_t>& gids) const {
  std::vector<double> out(gids.size());
  for (size_t k = 0; k < gids.size(); ++k) {
    const Placement p = place(gids[k]);
    const NeuronGroup& g = threads_[size_t(p.thread)].groups[p.group];
    const int var = g.model->index_of(name);
    if (var < 0) throw std::invalid_argument(std::string(g.model->name()) + " has no parameter " + name);
    out[k] = g.vars[size_t(var)][p.index];
  }
  return out;
}

void Kernel::set_variables(const std::vector<std::string>& names, const std::vector<uint32_t>& gids,
                           const std::vector<std::vector<double>>& values) {
  struct Change {
    NeuronGroup* group;
    int var;
    uint32_t index;
    double old_value;
  };
  std::vector<Change> changes;
  changes.reserve(gids.size() * names.size());
  try {
    for (size_t k = 0; k < gids.size(); ++k) {
      const Placement p = place(gids[k]);
      NeuronGroup& g = threads_[size_t(p.thread)].groups[p.group];
      for (size_t n = 0; n < names.size(); ++n) {
        const int var = g.model->index_of(names[n]);
        if (var < 0)
          throw std::invalid_argument(std::string(g.model->name()) + " has no parameter " + names[n]);
        changes.push_back({&g, var, p.index, g.vars[size_t(var)][p.index]});
        g.vars[size_t(var)][p.index] = values[n][k];
      }
    }
    for (const Change& c : changes) c.group->model->validate(*c.group, c.index);
  } catch (...) {  // leave every neuron as it was
    for (auto c = changes.rbegin(); c != changes.rend(); ++c)
      c->group->vars[size_t(c->var)][c->index] = c->old_value;
    throw;
  }
  for (const Change& c : changes) c.group->model->after_set(*c.group, c.index);
  prepared_ = false;
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
  for (ThreadState& ts : threads_) ts.tables.emplace_back(model.kind);
  return uint32_t(synapse_models_.size() - 1);
}

ConnectionList Kernel::get_connections(const std::vector<uint32_t>* sources,
                                       const std::vector<uint32_t>* targets, int synapse) {
  prepare();
  auto wanted = [](const std::vector<uint32_t>* set, uint32_t gid) {
    return !set || std::binary_search(set->begin(), set->end(), gid);
  };
  ConnectionList out;
  auto add = [&](uint32_t s, uint32_t t, uint32_t syn, double w, double d_steps) {
    out.source.push_back(s);
    out.target.push_back(t);
    out.synapse.push_back(syn);
    out.weight.push_back(w);
    out.delay.push_back(d_steps * h_);
  };
  for (ThreadState& ts : threads_) {
    for (size_t syn = 0; syn < ts.tables.size(); ++syn) {
      if (synapse >= 0 && size_t(synapse) != syn) continue;
      const ConnectionTable& table = ts.tables[syn];
      for (size_t i = 0; i < table.sources().size(); ++i) {
        const uint32_t s = table.sources()[i];
        if (!wanted(sources, s)) continue;
        const SourceRange r = table.range_at(i);
        for (size_t k = r.begin; k < r.end; ++k) {
          const uint32_t t = ts.lid_gid[table.target_vector()[k]];
          if (wanted(targets, t))
            add(s, t, uint32_t(syn), table.weight_vector()[k], table.delay_vector()[k]);
        }
      }
    }
    if (synapse > 0) continue;  // stimulus connections use static_synapse (id 0)
    for (const StimulusConnection& c : ts.stimuli) {
      const uint32_t s = devices_[c.device].gid;
      if (wanted(sources, s) && wanted(targets, c.target_gid)) add(s, c.target_gid, 0, c.weight, c.delay);
    }
  }
  // Order by (source, target); a stable sort keeps multapses in creation order, so the
  // list does not depend on the thread count.
  std::vector<size_t> order(out.source.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return out.source[a] != out.source[b] ? out.source[a] < out.source[b]
                                          : out.target[a] < out.target[b];
  });
  ConnectionList sorted;
  for (size_t k : order) {
    sorted.source.push_back(out.source[k]);
    sorted.target.push_back(out.target[k]);
    sorted.synapse.push_back(out.synapse[k]);
    sorted.weight.push_back(out.weight[k]);
    sorted.delay.push_back(out.delay[k]);
  }
  return sorted;
}

RecordedEvents Kernel::events(uint32_t recorder) const {
  const NodeRange& r = range_of(recorder);
  const uint32_t d = r.first_device + (recorder - r.first_gid);
  const size_t width = devices_[d].record_from.size();
  struct Ref {
    const RecordedEvents* events;
    size_t k;
  };
  std::vector<Ref> refs;
  for (const ThreadState& ts : threads_)
    if (d < ts.recorded.size())
      for (size_t k = 0; k < ts.recorded[d].senders.size(); ++k) refs.push_back({&ts.recorded[d], k});
  std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) {
    const int64_t sa = a.events->stamps[a.k], sb = b.events->stamps[b.k];
    if (sa != sb) return sa < sb;
    const uint32_t ga = a.events->senders[a.k], gb = b.events->senders[b.k];
    if (ga != gb) return ga < gb;
    return a.k < b.k;  // a neuron's repeated spikes in one step stay on its one thread
  });
  RecordedEvents out;
  for (const Ref& ref : refs) {
    out.senders.push_back(ref.events->senders[ref.k]);
    out.stamps.push_back(ref.events->stamps[ref.k]);
    for (size_t c = 0; c < width; ++c) out.values.push_back(ref.events->values[ref.k * width + c]);
  }
  return out;
}

void Kernel::clear_events(uint32_t recorder) {
  const NodeRange& r = range_of(recorder);
  const uint32_t d = r.first_device + (recorder - r.first_gid);
  for (ThreadState& ts : threads_)
    if (d < ts.recorded.size()) ts.recorded[d].clear();
}

std::map<std::string, double> Kernel::status() const {
  uint64_t spikes = 0;
  double static_bytes = 0, plastic_bytes = 0, static_n = 0, plastic_n = 0, buffer_bytes = 0;
  double total = 0;  // including connections not yet sorted and those of stimulators
  for (const ThreadState& ts : threads_) {
    total += double(ts.stimuli.size());
    spikes += ts.spikes_emitted;
    buffer_bytes += double(ts.input.bytes());
    for (const ConnectionTable& t : ts.tables) {
      const bool plastic = t.kind() == SynapseKind::stdp_pl_hom;
      (plastic ? plastic_bytes : static_bytes) += double(t.bytes());
      (plastic ? plastic_n : static_n) += double(t.size());
      total += double(t.count());
    }
  }
  const double n = static_n + plastic_n;
  return {
      {"resolution", h_},
      {"local_num_threads", double(threads_.size())},
      {"rng_seed", double(seed_)},
      {"biological_time", double(step()) * h_},
      {"min_delay", min_delay_ * h_},
      {"max_delay", max_delay_ * h_},
      {"network_size", double(node_count())},
      {"num_connections", total},
      {"local_spike_counter", double(spikes)},
      {"bytes_per_synapse", n > 0 ? (static_bytes + plastic_bytes) / n : 0.0},
      {"bytes_per_static_synapse", static_n > 0 ? static_bytes / static_n : 0.0},
      {"bytes_per_plastic_synapse", plastic_n > 0 ? plastic_bytes / plastic_n : 0.0},
      {"ring_buffer_bytes", buffer_bytes},
      {"time_create", times_.create.seconds()},
      {"time_connect", times_.connect.seconds()},
      {"time_prepare", times_.prepare.seconds()},
      {"time_simulate", times_.simulate.seconds()},
      {"time_deliver", times_.deliver.seconds()},
      {"time_update", times_.update.seconds()},
      {"time_collocate", times_.collocate.seconds()},
      {"rss", proc_status_bytes("VmRSS")},
      {"peak_rss", proc_status_bytes("VmHWM")},
  };
}

}  // namespace ranvier
