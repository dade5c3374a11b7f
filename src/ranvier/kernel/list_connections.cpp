// GetConnections: the connections of the sorted tables (and of the stimulating devices),
// gathered from every rank in an order that does not depend on the partition.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <type_traits>

#include "devices/device_model.hpp"
#include "kernel/local_network.hpp"

namespace ranvier {

namespace {

std::vector<uint8_t> serialize(const ConnectionList& c) {
  std::vector<uint8_t> out;
  const uint64_t n = c.source.size();
  append_bytes(out, &n, 1);
  append_bytes(out, c.source.data(), n);
  append_bytes(out, c.target.data(), n);
  append_bytes(out, c.synapse.data(), n);
  append_bytes(out, c.receptor.data(), n);
  append_bytes(out, c.target_thread.data(), n);
  append_bytes(out, c.port.data(), n);
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
  take(c.receptor);
  take(c.target_thread);
  take(c.port);
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
    out.receptor.push_back(in.receptor[k]);
    out.target_thread.push_back(in.target_thread[k]);
    out.port.push_back(in.port[k]);
    out.weight.push_back(in.weight[k]);
    out.delay.push_back(in.delay[k]);
  }
  return out;
}

}  // namespace

void LocalNetwork::finalize_tables() {
#pragma omp parallel for num_threads(int(threads_.size())) schedule(static, 1)
  for (size_t t = 0; t < threads_.size(); ++t) {
    for (ConnectionTable& table : threads_[t].tables) table.finalize();
    for (ConnectionTable& table : threads_[t].long_tables) table.finalize();
  }
}

ConnectionList LocalNetwork::get_connections(const std::vector<uint32_t>* sources, const std::vector<uint32_t>* targets,
                                             int synapse, bool local_only) {
  place_areas();
  auto wanted = [](const std::vector<uint32_t>* set, uint32_t gid) {
    return !set || std::binary_search(set->begin(), set->end(), gid);
  };
  ConnectionList out;
  // a connection's record as it is listed: the parameters, then a labelled model's synapse_label
  const auto listed = [](const SynapseModel& m) { return m.base->record_parameters().size() + (m.labelled ? 1 : 0); };
  for (const SynapseModel& m : synapse_models_) out.record_width = std::max(out.record_width, listed(m));
  std::vector<double> record;
  uint32_t thread = 0;
  std::vector<uint32_t> receptor_of, current_receptor_of;  // by input column of the thread
  std::map<uint32_t, uint32_t> owned;  // per device or source of connections to devices: ports so far
  auto add = [&](uint32_t s, uint32_t t, uint32_t receptor, uint32_t syn, double w, double delay_ms, uint32_t port,
                 const double* record = nullptr, size_t n_record = 0) {
    for (size_t i = 0; i < out.record_width; ++i) out.record.push_back(i < n_record ? record[i] : NAN);
    out.source.push_back(s);
    out.target.push_back(t);
    out.synapse.push_back(syn);
    out.receptor.push_back(receptor);
    out.target_thread.push_back(thread);
    out.port.push_back(port);
    out.weight.push_back(w);
    out.delay.push_back(delay_ms);
  };
  for (ThreadState& ts : threads_) {
    thread = uint32_t(&ts - threads_.data());
    owned.clear();
    receptor_of.assign(ts.n_inputs(), 0);
    current_receptor_of.assign(ts.n_inputs(), 0);
    for (const NeuronGroup& g : ts.groups)
      for (uint32_t port = 0; port < g.ports; ++port)
        for (size_t i = 0; i < g.size(); ++i) {
          receptor_of[g.input(i, port)] = g.model->receptor(port);
          current_receptor_of[g.input(i, port)] = g.model->current_receptor(port);
        }
    // the input columns of the targets asked for, so that a connection's test is a look-up and a
    // thread holding none of them (a query for recorders' connections) skips its tables
    std::vector<uint8_t> target_column(ts.n_inputs());
    for (size_t c = 0; c < target_column.size(); ++c) target_column[c] = wanted(targets, ts.input_gid[c]);
    const bool any_target = std::find(target_column.begin(), target_column.end(), 1) != target_column.end();
    for (size_t at = 0; at < 2 * ts.tables.size() && any_target; ++at) {
      const size_t syn = at % ts.tables.size();
      if (synapse >= 0 && size_t(synapse) != syn) continue;
      const ConnectionTable& table = at < ts.tables.size() ? ts.tables[syn] : ts.long_tables[syn];
      const bool common_weight = synapse_models_[syn].base->common_weight;
      const double model_weight = synapse_models_[syn].value_or("weight", 0.0);
      const SynapseModel& model = synapse_models_[syn];
      const size_t n_record = listed(model), n_parameters = model.base->record_parameters().size();
      const int offset_slot = synapse_models_[syn].base->delay_offset_slot;
      for (size_t i = 0; i < table.sources().size(); ++i) {
        const uint32_t s = table.sources()[i];
        if (!wanted(sources, s)) continue;
        const SourceRange r = table.range_at(i);
        for (size_t k = r.begin; k < r.end; ++k) {
          if (!target_column[table.targets()[k]]) continue;
          const uint32_t t = ts.input_gid[table.targets()[k]];
          const uint16_t steps = table.delays().at(i, k);
          const double delay =
              offset_slot < 0 ? steps * h_ : ContinuousDelay::ms(steps, table.records().at(i, k)[offset_slot], h_);
          if (n_record) {
            const double* at = table.records().at(i, k);
            record.assign(at, at + n_parameters);
            if (model.labelled) record.push_back(at[model.label_slot()]);
          }
          add(s, t, receptor_of[table.targets()[k]], uint32_t(syn),
              common_weight ? model_weight : table.weights().at(i, k), delay, uint32_t(k),
              n_record ? record.data() : nullptr, n_record);
        }
      }
    }
    for (const StimulusConnection& c : ts.stimuli) {  // each device's with its one (static) synapse model
      const Device& d = devices_[c.device];
      if (!(synapse < 0 || d.synapse == synapse) || !wanted(sources, d.gid) || !wanted(targets, c.target_gid)) continue;
      const SynapseModel& m = synapse_models_[size_t(d.synapse)];
      const bool current = d.is_stimulator() && d.stimulator->sends_current();
      add(d.gid, c.target_gid, (current ? current_receptor_of : receptor_of)[c.target], uint32_t(d.synapse),
          m.base->common_weight ? m.value_or("weight", 0.0) : c.weight, c.delay * h_ - c.delay_offset, owned[d.gid]++);
    }
    if (synapse > 0) continue;
    // Recorders' connections, static_synapse's as in NEST: a sampler's to a node is the node's
    // n-th sampler connection, receptor n (1, 2, ...); a spike recorder's have the receptor
    // (0, or a correlation detector's channel) and weight they were made with.
    auto sampled = [&](uint32_t recorder, uint32_t node, uint32_t nth, uint32_t delay) {
      const uint32_t gid = devices_[recorder].gid;
      if (wanted(sources, gid) && wanted(targets, node)) add(gid, node, nth, 0, 1.0, delay * h_, owned[gid]++);
    };
    for (const NeuronGroup& g : ts.groups) {
      std::vector<uint32_t> samplers(g.probes.empty() ? 0 : g.size(), 0);
      for (const Probe& p : g.probes) sampled(p.multimeter, g.gids[p.neuron], ++samplers[p.neuron], p.delay);
      for (size_t i = 0; i < g.spike_recorders.size(); ++i)
        for (const RecorderLink& link : g.spike_recorders[i])
          if (wanted(sources, g.gids[i]) && wanted(targets, devices_[link.device].gid))
            add(g.gids[i], devices_[link.device].gid, link.port, 0, link.weight, link.delay * h_, owned[g.gids[i]]++);
    }
    std::map<uint32_t, uint32_t> generator_samplers;  // generator -> its sampler connections so far
    for (const GeneratorProbe& p : ts.generator_probes)
      sampled(p.multimeter, devices_[p.generator].gid, ++generator_samplers[p.generator], p.delay);
    for (size_t k = 0; k < ts.tap_stimuli.size(); ++k) {  // generators' trains to spike recorders
      const StimulusConnection& c = ts.tap_stimuli[k];
      const uint32_t from = devices_[c.device].gid, to = devices_[ts.tap_recorder[k]].gid;
      if (wanted(sources, from) && wanted(targets, to))
        add(from, to, ts.tap_port[k], 0, c.weight, c.delay * h_, owned[from]++);
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

}  // namespace ranvier
