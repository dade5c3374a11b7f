// Node variables and list parameters: read (gathered from their ranks) and set (all or nothing).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/errors.hpp"
#include "kernel/local_network.hpp"

namespace ranvier {

void LocalNetwork::set_kind(const std::vector<uint32_t>& gids, const std::string& what, const KindChange& next) {
  place_areas();                                                              // every range has its groups
  std::vector<std::pair<NodeRange*, std::shared_ptr<const CellKind>>> kinds;  // all checked first
  for (NodeRange* range : target_ranges(gids)) {
    const NeuronModel* model = range->model;
    if (!model) throw BadParameterError("node " + std::to_string(range->first_gid()) + " is a device");
    auto [kind, ports_change] = next(*range);
    if (!kind) continue;
    const auto first = std::lower_bound(gids.begin(), gids.end(), range->first_gid());
    const size_t covered = size_t(std::lower_bound(first, gids.end(), range->first_gid() + range->count()) - first);
    if (covered != range->count())
      throw BadParameterError(what + " is one for all nodes of a Create call in Ranvier: set it on all " +
                              std::to_string(range->count()) + " nodes from node " +
                              std::to_string(range->first_gid()) + " at once, got " + std::to_string(covered) +
                              " of them");
    if (ports_change && range->targeted)
      throw BadParameterError(what + ": nodes " + std::to_string(range->first_gid()) + ".." +
                              std::to_string(range->first_gid() + range->count() - 1) +
                              " have connections, therefore the number of ports cannot change (NEST's rule)");
    kinds.push_back({range, std::move(kind)});
  }
  for (auto& [range, kind] : kinds) {
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
  changed();
}

void LocalNetwork::set_lists(const std::vector<uint32_t>& gids,
                             const std::map<std::string, std::vector<double>>& values) {
  std::string name;  // the lists, as errors name them
  for (const auto& [list, _] : values) name += (name.empty() ? "" : ", ") + list;
  set_kind(gids, name, [&](const NodeRange& range) -> NewKind {
    const NeuronModel* model = range.model;
    const auto* lists = dynamic_cast<const ListKind*>(range.kind.get());
    bool same = true;
    for (const auto& [list, given] : values) {
      if (!lists || !lists->lists.count(list))
        throw UnknownParameterError(std::string(model->name()) + " has no parameter " + list);
      same = same && lists->at(list) == given;
    }
    if (same) return {};
    auto next = std::make_shared<ListKind>(*lists);
    for (const auto& [list, given] : values) next->lists[list] = given;
    model->validate_lists(*next, nullptr);
    for (size_t t = 0; t < threads_.size(); ++t) model->validate_lists(*next, &threads_[t].groups[range.group[t]]);
    const std::string& ports_list = model->list_parameters().front().name;  // its length is the ports'
    const uint32_t ports = uint32_t(next->at(ports_list).size());
    if (ports < range.recorded_ports)
      throw BadParameterError(name + ": a multimeter records port " + std::to_string(range.recorded_ports) +
                              " of nodes from " + std::to_string(range.first_gid()) + ", so " + name +
                              " needs at least that many entries, got " + std::to_string(ports));
    return {next, ports != lists->at(ports_list).size()};
  });
}

// Appends the range's columns on every thread: nothing targets them yet (set_lists checked),
// and other groups' columns stay where their connections point.
void LocalNetwork::relocate_inputs(NodeRange& range) {
  for (size_t t = 0; t < threads_.size(); ++t) {
    ThreadState& ts = threads_[t];
    NeuronGroup& g = ts.groups[range.group[t]];
    g.first_input = uint32_t(ts.n_inputs());
    for (uint32_t port = 0; port < g.ports; ++port)
      ts.input_gid.insert(ts.input_gid.end(), g.gids.begin(), g.gids.end());
  }
}

const std::vector<double>& LocalNetwork::get_list(uint32_t gid, const std::string& name) const {
  const NodeRange& range = range_of(gid);
  const auto* lists = dynamic_cast<const ListKind*>(range.kind.get());
  if (!range.model || !lists || !lists->lists.count(name))
    throw UnknownParameterError((range.model ? std::string(range.model->name()) : "a device") + " has no parameter " +
                                name);
  return lists->at(name);
}

// Whether every rank asks about the same nodes (collective): only then may their answers be
// combined. A script may ask each rank about its own (NEST's GetLocalNodeCollection).
bool LocalNetwork::same_on_all_ranks(const std::vector<uint32_t>& gids) {
  if (comm_->size() == 1) return true;
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over the ids and their count
  for (uint32_t gid : gids) hash = (hash ^ gid) * 1099511628211ull;
  hash = (hash ^ gids.size()) & ((uint64_t(1) << 52) - 1);  // exact as a double
  std::vector<int64_t> extremes{int64_t(hash), -int64_t(hash)};
  comm_->allreduce(extremes, ReduceOp::max);
  return extremes[0] == -extremes[1];
}

std::vector<double> LocalNetwork::get_variable(const std::string& name, const std::vector<uint32_t>& gids) {
  place_areas();
  const bool gather = comm_->size() > 1 && same_on_all_ranks(gids);
  std::vector<double> out(gids.size(), gather ? 0.0 : NAN);
  for (size_t k = 0; k < gids.size(); ++k) {
    Local p{};
    const NodeRange* range = nullptr;
    if (!locate(gids[k], p, &range)) continue;
    if (gather && range->model->replicated() && rank_ != 0) continue;  // every rank has it: one answers
    const NeuronGroup& g = threads_[size_t(p.thread)].groups[p.group];
    if (name == last_spike_name && g.model->archives_spikes()) {
      out[k] = g.last_spike.empty() ? -1.0 : g.last_spike[p.index];
      continue;
    }
    if (name == frozen_name) {
      out[k] = g.is_frozen(p.index) ? 1.0 : 0.0;
      continue;
    }
    const int var = g.model->index_of(name);
    if (var < 0) throw UnknownParameterError(std::string(g.model->name()) + " has no parameter " + name);
    out[k] = g.vars[size_t(var)][p.index];
  }
  if (gather) comm_->allreduce(out, ReduceOp::sum);  // each node has one owner: the sum is exact
  return out;
}

void LocalNetwork::set_frozen(const std::vector<uint32_t>& gids, bool frozen) {
  place_areas();
  std::vector<NeuronGroup*> thawed;
  for (uint32_t gid : gids)
    for (int thread = 0; thread < int(threads_.size()); ++thread) {  // a replicated node's every instance
      Local p{};
      const NodeRange* range = nullptr;
      if (!locate(gid, p, &range, thread)) break;
      if (thread > 0 && !range->model->replicated()) break;
      NeuronGroup& g = threads_[size_t(p.thread)].groups[p.group];
      if (g.frozen.empty() && !frozen) continue;
      g.frozen.resize(g.size(), 0);
      g.frozen[p.index] = frozen;
      if (!frozen) thawed.push_back(&g);
    }
  // a group none of whose neurons is frozen goes back to the plain update (kernel/frozen_nodes.hpp)
  for (NeuronGroup* g : thawed)
    if (std::find(g->frozen.begin(), g->frozen.end(), 1) == g->frozen.end()) g->frozen.clear();
}

std::vector<std::vector<double>> LocalNetwork::get_list_variable(const std::string& name,
                                                                 const std::vector<uint32_t>& gids) {
  place_areas();
  const bool gather = comm_->size() > 1 && same_on_all_ranks(gids);
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
  if (gather) {
    std::vector<uint8_t> bytes(mine.size() * sizeof(double));
    std::memcpy(bytes.data(), mine.data(), bytes.size());
    std::vector<size_t> counts;
    const std::vector<uint8_t> all = comm_->allgatherv(bytes, counts);
    std::vector<double> values(all.size() / sizeof(double));
    std::memcpy(values.data(), all.data(), all.size());
    for (size_t at = 0; at < values.size(); at += 2 + size_t(values[at + 1]))
      out[size_t(values[at])].assign(values.begin() + long(at + 2),
                                     values.begin() + long(at + 2 + size_t(values[at + 1])));
  }
  return out;
}

void LocalNetwork::set_variables(const std::vector<std::string>& names, const std::vector<uint32_t>& gids,
                                 const std::vector<std::vector<double>>& values,
                                 const std::vector<std::string>& list_names,
                                 const std::vector<std::vector<std::vector<double>>>& list_values, int64_t step) {
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
    for (size_t k = 0; k < gids.size(); ++k)
      for (int thread = 0; thread < int(threads_.size()); ++thread) {  // a replicated node's every instance
        Local p{};
        const NodeRange* range = nullptr;
        if (!locate(gids[k], p, &range, thread)) break;
        if (thread > 0 && !range->model->replicated()) break;
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
    const SetContext context{h_, step, &names, &list_names, config_.tics_per_ms};
    for (const auto& [g, i] : touched) g->model->on_set(*g, i, context);
    for (const auto& [g, i] : touched) g->model->validate(*g, i), g->model->validate_traces(*g, i);
  } catch (...) {  // leave every neuron as it was
    for (auto c = list_changes.rbegin(); c != list_changes.rend(); ++c)
      c->group->lists[size_t(c->var)][c->index] = std::move(c->old_value);
    for (auto c = changes.rbegin(); c != changes.rend(); ++c) c->group->vars[size_t(c->var)][c->index] = c->old_value;
    throw;
  }
  for (const auto& [g, i] : touched) g->model->after_set(*g, i);
  changed();
}

}  // namespace ranvier
