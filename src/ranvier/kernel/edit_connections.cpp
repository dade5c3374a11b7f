// Single connections named by (source, target, synapse, multapse): SynapseCollection.set (new
// weights or record parameters; a column a whole run shared becomes per connection first) and
// Disconnect.
#include <map>
#include <tuple>

#include "connect/connection_sink.hpp"
#include "core/errors.hpp"
#include "kernel/local_network.hpp"

namespace ranvier {

namespace {

using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;  // source, target, synapse, multapse

// The listed connections, each to its index in `which`.
std::map<Key, size_t> listed_keys(const ConnectionList& which, const std::vector<uint32_t>& multapse, size_t models) {
  std::map<Key, size_t> wanted;
  for (size_t i = 0; i < which.source.size(); ++i) {
    if (which.synapse[i] >= models)
      throw BadParameterError("unknown synapse model id " + std::to_string(which.synapse[i]));
    wanted[{which.source[i], which.target[i], which.synapse[i], multapse[i]}] = i;
  }
  return wanted;
}

}  // namespace

// Visits each listed connection of this rank: apply(synapse id, table, run, position, i), i its
// index in `which`; multapse[i] = k names the k-th connection of its (source, target, synapse)
// in table order, as get_connections lists them.
template <class Apply>
void LocalNetwork::for_each_listed(const ConnectionList& which, const std::vector<uint32_t>& multapse, Apply apply) {
  const std::map<Key, size_t> wanted = listed_keys(which, multapse, synapse_models_.size());
  std::vector<uint8_t> listed(synapse_models_.size(), 0);
  for (uint32_t syn : which.synapse) listed[syn] = 1;
  for (ThreadState& ts : threads_)
    for (auto* tables : {&ts.tables, &ts.long_tables})
      for (size_t syn = 0; syn < tables->size(); ++syn) {
        ConnectionTable& table = (*tables)[syn];
        if (!listed[syn] || table.size() == 0) continue;
        for (size_t run = 0; run < table.sources().size(); ++run) {
          const SourceRange r = table.range_at(run);
          std::map<uint32_t, uint32_t> seen;
          for (size_t k = r.begin; k < r.end; ++k) {
            const uint32_t t = ts.input_gid[table.targets()[k]];
            const auto it = wanted.find({table.sources()[run], t, uint32_t(syn), seen[t]++});
            if (it != wanted.end()) apply(uint32_t(syn), table, run, k, it->second);
          }
        }
      }
}

// Visits each listed connection of a stimulating device (its one synapse model) on this rank:
// apply(thread state, position in its stimuli, i). A device's connections to one target sit on
// the target's thread in creation order, as get_connections lists them.
template <class Apply>
void LocalNetwork::for_each_listed_stimulus(const ConnectionList& which, const std::vector<uint32_t>& multapse,
                                            Apply apply) {
  const std::map<Key, size_t> wanted = listed_keys(which, multapse, synapse_models_.size());
  for (ThreadState& ts : threads_) {
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> seen;  // (device, target) -> connections so far
    for (size_t k = 0; k < ts.stimuli.size(); ++k) {
      const StimulusConnection& c = ts.stimuli[k];
      const Device& d = devices_[c.device];
      const auto it = wanted.find({d.gid, c.target_gid, uint32_t(d.synapse), seen[{c.device, c.target_gid}]++});
      if (it != wanted.end()) apply(ts, k, it->second);
    }
  }
}

// Recorders' connections are listed (as NEST lists them) but not stored as synapses: nothing
// changes or removes them.
void LocalNetwork::refuse_recorders(const ConnectionList& which, const char* what) const {
  for (size_t i = 0; i < which.source.size(); ++i)
    for (uint32_t gid : {which.source[i], which.target[i]}) {
      const NodeRange& r = range_of(gid);
      if (!r.model && !devices_[r.first_device + (gid - r.first_gid())].is_stimulator())
        throw BadParameterError(std::string(what) + ": the connections of recorder " + std::to_string(gid) +
                                " cannot change");
    }
}

void LocalNetwork::disconnect(const ConnectionList& which, const std::vector<uint32_t>& multapse) {
  if (multapse.size() != which.source.size())
    throw BadParameterError("disconnect needs one multapse index per connection");
  refuse_recorders(which, "Disconnect");
  std::map<ConnectionTable*, std::vector<size_t>> doomed;  // positions, ascending per table
  for_each_listed(which, multapse,
                  [&](uint32_t, ConnectionTable& table, size_t, size_t k, size_t) { doomed[&table].push_back(k); });
  for (auto& [table, positions] : doomed) table->erase(positions);
  std::map<ThreadState*, std::vector<size_t>> stimuli_doomed;  // positions, ascending per thread
  for_each_listed_stimulus(which, multapse,
                           [&](ThreadState& ts, size_t k, size_t) { stimuli_doomed[&ts].push_back(k); });
  for (auto& [ts, positions] : stimuli_doomed) {
    // a device's connections stay consecutive; each connection's state goes with it
    for (size_t n = positions.size(); n-- > 0;) {
      ts->stimuli.erase(ts->stimuli.begin() + long(positions[n]));
      if (positions[n] < ts->stimulus_state.size())
        ts->stimulus_state.erase(ts->stimulus_state.begin() + long(positions[n]));
    }
  }
  changed();  // delays, spike archives and exchange tables follow the connections left
}

void LocalNetwork::set_connections(const ConnectionList& which, const std::vector<uint32_t>& multapse,
                                   const std::string& parameter, const std::vector<double>& values) {
  if (values.size() != which.source.size() || multapse.size() != which.source.size())
    throw BadParameterError(parameter + " needs one value per connection, got " + std::to_string(values.size()) +
                            " for " + std::to_string(which.source.size()));
  refuse_recorders(which, "SynapseCollection.set");
  if (parameter == "delay") return set_delays(which, multapse, values);
  // Where each value goes: the record slot of the parameter in its model (-1: the weight).
  auto slot_of = [&](const SynapseModel& m) {
    if (parameter == "weight") {
      if (m.base->common_weight)
        throw BadParameterError("the weight of " + m.name + " is common to its connections; set it with SetDefaults");
      return -1;
    }
    const std::vector<std::string> names = m.base->record_parameters();
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == parameter) return int(i);
    for (const auto& [name, index] : m.base->named_state)
      if (parameter == name) return int(names.size() + index);
    if (m.labelled && parameter == label_name) return int(m.label_slot());
    throw UnknownParameterError(m.name + " connections have no settable parameter " + parameter);
  };
  std::vector<int> slot(synapse_models_.size(), -2);
  for (uint32_t syn : which.synapse)
    if (syn < slot.size() && slot[syn] == -2) slot[syn] = slot_of(synapse_models_[syn]);
  auto visit = [&](auto apply) {
    for_each_listed(which, multapse, [&](uint32_t syn, ConnectionTable& table, size_t run, size_t k, size_t i) {
      apply(synapse_models_[syn], table, run, k, values[i], slot[syn]);
    });
  };
  // First check every value (all or nothing), then set them.
  visit([&](const SynapseModel& m, ConnectionTable& table, size_t run, size_t k, double v, int at) {
    const size_t width = table.records().width();
    std::vector<double> record(table.records().at(run, k), table.records().at(run, k) + width);
    if (at >= 0) {
      const int i = m.base->index_of(parameter);
      const SynapseParameter* p = i >= 0 ? &m.base->parameters[size_t(i)] : nullptr;  // null: named state, label
      if (m.labelled && parameter == label_name) SynapseModel::checked_label(v);
      if (std::isnan(v) || (p && p->valid && !p->valid(v))) throw bad_value(parameter, v, p ? p->rule : "a number");
      record[size_t(at)] = v;
      if (m.base->check) m.base->check(record.data());
    } else {
      if (std::isnan(v)) throw bad_value("weight", v, "a number");
      if (m.base->check_weight) m.base->check_weight(v, m, record.data());
    }
  });
  // Stimulating devices' connections carry a weight only (their static synapses have no record).
  for_each_listed_stimulus(which, multapse, [&](ThreadState&, size_t, size_t i) {
    if (std::isnan(values[i])) throw bad_value("weight", values[i], "a number");
  });
  for_each_listed_stimulus(which, multapse,
                           [&](ThreadState& ts, size_t k, size_t i) { ts.stimuli[k].weight = values[i]; });
  visit([&](const SynapseModel&, ConnectionTable& table, size_t run, size_t k, double v, int at) {
    if (at >= 0) {
      table.expand_records();
      table.records().run(run, k)[at] = v;  // per connection now: the record of connection k
    } else {
      table.expand_weights();
      table.weights().run(run, k)[0] = v;
    }
  });
}

// Delays are checked as Connect checks them, all before any changes; each table that holds one
// of them keeps a delay per connection from then on, and the kernel prepares its buffers anew.
void LocalNetwork::set_delays(const ConnectionList& which, const std::vector<uint32_t>& multapse,
                              const std::vector<double>& values) {
  std::vector<uint16_t> steps(values.size());
  for (size_t i = 0; i < values.size(); ++i) steps[i] = uint16_t(ConnectionSink::checked_steps(values[i], config_, h_));
  std::map<ConnectionTable*, std::vector<std::pair<size_t, uint16_t>>> changes;
  struct Offset {
    ConnectionTable* table;
    size_t run, k;
    int slot;
    double offset;
  };
  std::vector<Offset> offsets;  // of continuous delays (cont_delay_synapse), checked first
  for_each_listed(which, multapse, [&](uint32_t syn, ConnectionTable& table, size_t run, size_t k, size_t i) {
    const int slot = synapse_models_[syn].base->delay_offset_slot;
    if (slot < 0) return changes[&table].push_back({k, steps[i]});
    const ContinuousDelay d = ContinuousDelay::of(values[i], h_);
    changes[&table].push_back({k, uint16_t(d.steps)});
    offsets.push_back({&table, run, k, slot, d.offset});
  });
  for (const auto& [table, changed_delays] : changes) table->set_delays(changed_delays);
  for (const Offset& o : offsets) {
    o.table->expand_records();
    o.table->records().run(o.run, o.k)[o.slot] = o.offset;  // per connection now: connection k's
    if (o.offset > 0.0) delay_extrema_.add(int64_t(o.table->delays().at(o.run, o.k)) + 1);  // as NEST counts
  }
  for_each_listed_stimulus(which, multapse, [&](ThreadState& ts, size_t k, size_t i) {
    StimulusConnection& c = ts.stimuli[k];
    if (synapse_models_[size_t(devices_[c.device].synapse)].base->delay_offset_slot < 0) {
      c.delay = steps[i];
      return;
    }
    const ContinuousDelay d = ContinuousDelay::of(values[i], h_);
    c.delay = d.nest_steps(), c.delay_offset = d.offset;
  });
  for (uint16_t s : steps) delay_extrema_.add(s);
  changed();
}

}  // namespace ranvier
