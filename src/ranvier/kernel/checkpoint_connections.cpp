// Checkpoints of connections between neurons: each thread's tables as one segment of columns,
// and a loading rank's staging of the segments that reach its nodes, each thread staging its
// own nodes' connections.
#include <omp.h>
#include <algorithm>
#include <bit>
#include <exception>

#include "core/errors.hpp"
#include "kernel/checkpoint_owners.hpp"
#include "kernel/kernel.hpp"

namespace ranvier {

using checkpoint::column_owners, checkpoint::ColumnOwner, checkpoint::Instances, checkpoint::Where;

// A thread's connection tables as they are stored: per table its synapse model and runs, per
// run its source and length (and its delay, weight and record where the run shares them), per
// connection its target's node id and port, its delay in steps, its weight, and its record
// (parameters and hidden state: traces, resources). Delivery depends on no other order than
// each run's.
static void save_connections(const ThreadState& ts, const std::vector<ColumnOwner>& owner, Snapshot& out) {
  auto &table_model = out.u32["table.model"], &table_runs = out.u32["table.runs"];
  auto &run_source = out.u32["run.source"], &run_count = out.u32["run.count"], &target = out.u32["conn.target"];
  auto &shared_weights = out.u8["table.shared_weight"], &port = out.u8["conn.port"];
  auto &ported = out.u8["table.ported"], &narrow = out.u8["table.narrow_delay"], &delay8 = out.u8["conn.delay8"];
  auto& delay = out.u16["conn.delay"];
  auto &run_weight = out.reals["run.weight"], &weight = out.reals["conn.weight"], &records = out.reals["conn.record"];
  auto& run_record = out.reals["run.record"];
  auto &shared_records = out.u8["table.shared_record"], &shared_delays = out.u8["table.shared_delay"];
  auto& long_range = out.u8["table.long"];
  std::vector<uint8_t> targeted(owner.size());  // input columns of the segment's targets
  auto each_table = [&](auto f) {               // the tables, then those between areas
    for (size_t at = 0; at < 2 * ts.tables.size(); ++at) {
      const uint32_t syn = uint32_t(at % ts.tables.size());
      const ConnectionTable& table = at < ts.tables.size() ? ts.tables[syn] : ts.long_tables[syn];
      if (table.size()) f(syn, table, at >= ts.tables.size());
    }
  };
  // Room for the largest columns at once: grown by doubling, they would hold up to twice the
  // segment while saving.
  each_table([&](uint32_t, const ConnectionTable& table, bool) {
    const size_t n = table.size(), runs = table.sources().size(), width = table.records().width();
    target.reserve(target.capacity() + n);
    if (table.delays().narrow()) delay8.reserve(delay8.capacity() + (table.delays().stride() ? n : runs));
    if (table.weights().stride()) weight.reserve(weight.capacity() + n);
    std::vector<double>& record_column = table.records().stride() ? records : run_record;
    record_column.reserve(record_column.capacity() + (table.records().stride() ? n : runs) * width);
  });
  each_table([&](uint32_t syn, const ConnectionTable& table, bool between_areas) {
    long_range.push_back(between_areas);
    const bool shared_weight = table.weights().stride() == 0, narrow_delay = table.delays().narrow();
    const bool shared_record = table.records().stride() == 0, shared_delay = table.delays().stride() == 0;
    bool ports = false;  // some target takes it at a port other than 0
    for (size_t k = 0; k < table.size() && !ports; ++k) ports = owner[table.targets()[k]].port != 0;
    const size_t width = table.records().width();
    table_model.push_back(syn);
    table_runs.push_back(0);
    shared_weights.push_back(shared_weight), ported.push_back(ports), narrow.push_back(narrow_delay);
    shared_records.push_back(shared_record), shared_delays.push_back(shared_delay);
    for (size_t run = 0; run < table.sources().size(); ++run) {
      const SourceRange r = table.range_at(run);
      uint32_t saved = 0;
      for (size_t k = r.begin; k < r.end; ++k) saved += !owner[table.targets()[k]].copy;
      if (saved == 0) continue;
      ++table_runs.back();
      run_source.push_back(table.sources()[run]);
      run_count.push_back(saved);
      auto save_delay = [&](size_t k) {
        if (narrow_delay)
          delay8.push_back(uint8_t(table.delays().at(run, k)));
        else
          delay.push_back(table.delays().at(run, k));
      };
      if (shared_delay) save_delay(r.begin);
      if (shared_weight) run_weight.push_back(table.weights().at(run, r.begin));
      if (shared_record)
        run_record.insert(run_record.end(), table.records().at(run, r.begin), table.records().at(run, r.begin) + width);
      for (size_t k = r.begin; k < r.end; ++k) {
        const ColumnOwner& to = owner[table.targets()[k]];
        if (to.copy) continue;
        target.push_back(to.gid), targeted[table.targets()[k]] = 1;
        if (ports) port.push_back(uint8_t(to.port));
        if (!shared_delay) save_delay(k);
        if (!shared_weight) weight.push_back(table.weights().at(run, k));
        if (!shared_record)
          records.insert(records.end(), table.records().at(run, k), table.records().at(run, k) + width);
      }
    }
  });
  // the targets' node ids, for a loading rank to tell whether it needs the segment
  std::vector<uint32_t> targets;
  for (size_t column = 0; column < owner.size(); ++column)
    if (targeted[column]) targets.push_back(owner[column].gid);
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  out.u32["segment.targets"] = std::move(targets);
}

// The saved tables' connections to one thread's nodes into its staging (here, before the
// kernel prepares and sorts them), each run's in its order; returns their delays (steps) as
// NEST's delay extrema count them. Equal records of consecutive connections share one initial
// record, so that a table keeps one record per run where the saved one did.
static DelayExtrema restore_connections(const Snapshot& all, std::vector<ThreadState>& threads, const Instances& where,
                                        const std::vector<SynapseModel>& models, uint32_t thread) {
  const auto &table_model = all.column<uint32_t>("table.model"), &table_runs = all.column<uint32_t>("table.runs"),
             &run_source = all.column<uint32_t>("run.source"), &run_count = all.column<uint32_t>("run.count"),
             &target = all.column<uint32_t>("conn.target");
  const auto &shared_weight = all.column<uint8_t>("table.shared_weight"), &ported = all.column<uint8_t>("table.ported"),
             &narrow = all.column<uint8_t>("table.narrow_delay"),
             &shared_record = all.column<uint8_t>("table.shared_record"),
             &shared_delay = all.column<uint8_t>("table.shared_delay");
  const auto &port = all.column<uint8_t>("conn.port"), &delay8 = all.column<uint8_t>("conn.delay8"),
             &long_range = all.column<uint8_t>("table.long");
  const auto& delay16 = all.column<uint16_t>("conn.delay");
  const auto &run_weight = all.real_column("run.weight"), &weight = all.real_column("conn.weight"),
             &run_record = all.real_column("run.record"), &conn_record = all.real_column("conn.record");
  const auto same_bits = [](double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); };
  DelayExtrema extrema;
  // the next run, connection, shared and own weight, shared and own record value, port, narrow and wide delay
  size_t run = 0, k = 0, shared = 0, each = 0, run_at = 0, at = 0, next_port = 0, next8 = 0, next16 = 0;
  // the last record added, per table (the models', then those between areas)
  std::vector<std::pair<const double*, uint32_t>> last(2 * models.size(), {nullptr, 0});
  for (size_t t = 0; t < table_model.size(); ++t) {
    const uint32_t syn = table_model[t];
    if (syn >= models.size()) throw BadParameterError("the checkpoint names synapse model " + std::to_string(syn));
    const size_t width = models[syn].record_width();
    const int offset_slot = models[syn].base->delay_offset_slot;
    for (const size_t end = run + table_runs[t]; run < end; ++run) {
      auto next_delay = [&] { return narrow[t] ? uint16_t(delay8[next8++]) : delay16[next16++]; };
      const uint16_t run_steps = shared_delay[t] ? next_delay() : 0;
      const double run_w = shared_weight[t] ? run_weight[shared++] : 0.0;
      const double* run_r = shared_record[t] ? run_record.data() + run_at : nullptr;
      if (shared_record[t]) run_at += width;
      for (uint32_t n = 0; n < run_count[run]; ++n, ++k) {
        const double* record = run_r ? run_r : conn_record.data() + at;
        if (!run_r) at += width;
        const double w = shared_weight[t] ? run_w : weight[each++];
        const uint8_t at_port = ported[t] ? port[next_port++] : 0;
        const uint16_t steps = shared_delay[t] ? run_steps : next_delay();
        where.each(target[k], [&](const Where& to) {
          if (to.thread != thread) return;
          ThreadState& ts = threads[to.thread];
          const NeuronGroup& g = ts.groups[to.group];
          if (at_port >= g.ports)
            throw BadParameterError("the checkpoint names a port that node " + std::to_string(target[k]) + " lacks");
          ConnectionTable& table = (long_range[t] ? ts.long_tables : ts.tables)[syn];
          auto& [previous, index] = last[syn + (long_range[t] ? models.size() : 0)];
          if (width && (!previous || !std::equal(previous, previous + width, record, same_bits)))
            previous = record, index = table.add_initial_record({previous, previous + width});
          table.staging().push({run_source[run], g.input(to.index, at_port), steps, index, w});
        });
        extrema.add(steps);
        if (offset_slot >= 0 && record[offset_slot] > 0.0) extrema.add(steps + 1);  // a step later too
      }
    }
  }
  if (k != target.size() || at != conn_record.size() || run_at != run_record.size() || next_port != port.size() ||
      next8 != delay8.size() || next16 != delay16.size())
    throw BadParameterError("the checkpoint's connection columns do not agree");
  return extrema;
}

Snapshot Kernel::snapshot_connections(size_t thread) {
  if (!prepared_) throw KernelStateError("a thread's connections are saved after the snapshot (which prepares)");
  if (thread >= network_.threads().size())
    throw BadParameterError("thread " + std::to_string(thread) + " does not exist");
  const ThreadState& ts = network_.threads()[thread];
  Snapshot out;
  save_connections(ts, column_owners(ts, rank_ == 0 && thread == 0), out);
  // every column exists, also where the thread has no rows of it
  for (const char* name : {"run.weight", "conn.weight", "run.record", "conn.record"}) out.reals[name];
  for (const char* name : {"table.model", "table.runs", "run.source", "run.count", "conn.target"}) out.u32[name];
  out.u16["conn.delay"];
  for (const char* name : {"conn.port", "conn.delay8", "table.shared_weight", "table.shared_record",
                           "table.shared_delay", "table.ported", "table.narrow_delay", "table.long"})
    out.u8[name];
  return out;
}

bool Kernel::hosts_any(const std::vector<uint32_t>& gids) const {
  const Instances local(network_.threads(), node_count());
  return std::any_of(gids.begin(), gids.end(), [&](uint32_t gid) { return local.find(gid) != nullptr; });
}

void Kernel::stage_connections(const Snapshot& segment) {
  std::vector<ThreadState>& threads = network_.threads();
  const Instances local(threads, node_count());
  std::vector<DelayExtrema> found(threads.size());
  std::vector<std::exception_ptr> errors(threads.size());
#pragma omp parallel num_threads(int(threads.size()))
  {  // each thread reads the whole segment and stages its own nodes' connections
    const uint32_t t = uint32_t(omp_get_thread_num());
    try {
      found[t] = restore_connections(segment, threads, local, network_.synapse_models(), t);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);  // LoadCheckpoint resets the kernel
  DelayExtrema delays = network_.delay_extrema();
  for (const DelayExtrema& d : found) delays.add(d);
  network_.set_delay_extrema(delays);
}

}  // namespace ranvier
