// The facade's own: construction, recorder gathering, settings and status.
#include "kernel/kernel.hpp"

#include <algorithm>
#include <numeric>

#include "core/errors.hpp"

namespace ranvier {

namespace {
std::shared_ptr<Communicator> communicator_for(const KernelConfig& c) {
  return c.dry_run > 0 ? single_process_communicator() : world_communicator();
}
}  // namespace

Kernel::Kernel(const KernelConfig& config)
    : config_(config),
      comm_(communicator_for(config)),
      rank_(comm_->rank()),
      h_(config.resolution),
      seed_(config.seed),
      network_(config_, comm_, times_),
      pathways_(config_, comm_, times_) {
  tics_per_step(h_, config.tics_per_ms);  // refuses a resolution off the tics
  set_exchange(config.exchange, config.multisend_phases);
}

void Kernel::set(const std::vector<std::pair<std::string, SettingValue>>& given) {
  const std::vector<std::pair<std::string, SettingValue>> values = checked_settings(given);
  bool before_connections = false;
  KernelConfig trial = config_;
  for (const auto& [name, value] : values) {
    const Setting& s = kernel_setting(name);
    if (s.phase == SettingPhase::empty_kernel)
      throw KernelStateError(name + " cannot change after nodes were created; call ResetKernel first");
    before_connections |= s.phase == SettingPhase::before_connections;
    s.put(trial, value);
  }
  if (before_connections) {  // every rank asks, every rank answers alike
    std::vector<int64_t> count{local_connections()};
    comm_->allreduce(count, ReduceOp::sum);
    if (count[0] > 0)
      throw BadParameterError(
          "connections already exist: min_delay and max_delay are set before the first Connect; "
          "call ResetKernel first");
  }
  check_config(trial);
  check_eprop_window(values, trial);
  for (const auto& [name, value] : values) {
    const Setting& s = kernel_setting(name);
    if (s.apply) {  // the setter knows whether the network must prepare again
      s.apply(*this, value);
    } else {  // the delay extrema (the cycle and the buffers follow them), or read at the next Simulate
      s.put(config_, value);
      prepared_ = false;
    }
  }
}

int64_t Kernel::local_connections() const {
  int64_t n = 0;
  for (const ThreadState& ts : network_.threads()) {
    n += int64_t(ts.stimuli.size() + ts.tap_stimuli.size() + ts.generator_probes.size());
    for (const NeuronGroup& g : ts.groups) {  // recorders' connections (NEST counts them)
      n += int64_t(g.probes.size());
      for (const auto& links : g.spike_recorders) n += int64_t(links.size());
    }
    for (const auto* tables : {&ts.tables, &ts.long_tables})
      for (const ConnectionTable& t : *tables) n += int64_t(t.count());
  }
  return n;
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
  events_.resize(network_.devices().size());
  for (size_t d = 0; d < network_.devices().size(); ++d) {
    if (network_.devices()[d].is_stimulator()) continue;
    const size_t width = network_.devices()[d].event_width();
    RecordedEvents mine;  // this rank's new events: all threads, then (time, sender) order
    struct Ref {
      const RecordedEvents* events;
      size_t k;
    };
    std::vector<Ref> refs;
    for (const ThreadState& ts : network_.threads())
      if (d < ts.recorded.size())
        for (size_t k = 0; k < ts.recorded[d].senders.size(); ++k) refs.push_back({&ts.recorded[d], k});
    // a weight recorder's events of one spike: by target (each target's connections, in
    // their order, are on one thread)
    const size_t tie = network_.devices()[d].records(Records::transmissions) ? Device::target_column : width;
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
    for (ThreadState& ts : network_.threads())
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

RecordedEvents& Kernel::stored_events(uint32_t recorder) {
  const uint32_t d = uint32_t(&network_.device_of(recorder) - network_.devices().data());
  events_.resize(network_.devices().size());
  return events_[d];
}

const RecordedEvents& Kernel::events(uint32_t recorder) { return stored_events(recorder); }

size_t Kernel::forget_events(uint32_t recorder) {
  RecordedEvents& e = stored_events(recorder);
  const size_t n = e.senders.size();
  e = RecordedEvents{};  // the memory itself goes, not only the count
  return n;
}

void Kernel::set_queued_input(const std::string& mode) {
  if (mode != config_.queued_input) prepared_ = false;
  config_.queued_input = mode;
}

void Kernel::set_max_D(int d) {
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
  for (const ThreadState& ts : network_.threads()) spikes += ts.spikes_emitted;
  return spikes;
}

void Kernel::set_multisend_subintervals(int n) {
  config_.multisend_subintervals = n;
  prepared_ = false;
}

std::vector<std::pair<const char*, double>> Kernel::cycle_phase_times() const {
  return {{"deliver", times_.deliver.seconds()},
          {"stimulate", times_.stimulate.seconds()},
          {"relax", times_.relax.seconds()},  // waveform relaxation of coupled neurons
          {"update", times_.update.seconds()},
          {"collocate", times_.collocate.seconds()},
          {"synchronize", times_.synchronize_global.seconds() + times_.synchronize_local.seconds()},
          {"communicate", times_.communicate_global.seconds() + times_.communicate_local.seconds()}};
}

std::map<std::string, StatusValue> Kernel::status() const {
  DelayExtrema extrema = network_.delay_extrema();
  if (const DelayExtrema structural = structural_.delays(h_); !structural.empty()) extrema.add(structural);
  uint64_t static_events = 0, plastic_events = 0, neuron_steps = 0, poisson_draws = 0;
  double static_bytes = 0, plastic_bytes = 0, static_n = 0, plastic_n = 0, buffer_bytes = 0;
  int64_t long_range = 0;
  for (const ThreadState& ts : network_.threads()) {
    static_events += ts.static_events, plastic_events += ts.plastic_events;
    neuron_steps += ts.neuron_steps, poisson_draws += ts.poisson_draws;
    buffer_bytes += double(ts.input.bytes());
    for (size_t at = 0; at < ts.tables.size() + ts.long_tables.size(); ++at) {
      const ConnectionTable& t = at < ts.tables.size() ? ts.tables[at] : ts.long_tables[at - ts.tables.size()];
      if (at >= ts.tables.size()) long_range += int64_t(t.count());
      const bool plastic = t.plastic();
      (plastic ? plastic_bytes : static_bytes) += double(t.bytes());
      (plastic ? plastic_n : static_n) += double(t.size());
    }
  }
  const double n = static_n + plastic_n;
  const ExchangeCounters counters = exchange_counters();
  std::map<std::string, StatusValue> status{
      {"total_num_virtual_procs", int64_t(network_.threads().size()) * network_.ranks()},
      {"biological_time", ms_of(step())},
      // the kernel's cycle, the smallest delay between neurons within areas (once prepared)
      {"cycle", ms_of(min_delay_)},
      // NEST's: the user's extrema, else those of every connection so far (the resolution before any)
      {"min_delay", config_.min_delay > 0.0 ? ms_of(config_.min_delay_steps())
                    : extrema.empty()       ? h_
                                            : ms_of(extrema.min)},
      {"max_delay", config_.max_delay > 0.0 ? ms_of(config_.max_delay_steps())
                    : extrema.empty()       ? h_
                                            : ms_of(extrema.max)},
      {"network_size", int64_t(node_count())},
      {"num_connections", local_connections()},
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
      {"time_structural_plasticity", times_.structural.seconds()},
      {"time_communicate_hidden", times_.communicate_hidden.seconds() + times_.communicate_hidden_long.seconds()},
      {"spikes_sent", int64_t(counters.sent)},
      {"spikes_received", int64_t(counters.received)},
      {"time_dry_run_synthesis", counters.synthesis_s},  // within time_communicate
      {"exchange_repeats", int64_t(counters.repeats)},
      // cycles whose waveform relaxation stopped at wfr_max_iterations before they settled, and its passes
      {"wfr_unsettled_cycles", int64_t(coupling_.unsettled_cycles())},
      {"wfr_passes", int64_t(coupling_.passes())},
      {"exchange_cycles", int64_t(pathways_.short_cycles())},
      {"global_exchanges", int64_t(pathways_.global_exchanges())},
      {"D", int64_t(D_)},
      {"min_delay_inter", min_delay_inter_ * h_},
      {"num_long_range_connections", long_range},
      {"area_imbalance", network_.area_imbalance()},
      {"time_synchronize_global", times_.synchronize_global.seconds()},
      {"time_communicate_global", times_.communicate_global.seconds()},
      {"num_processes", int64_t(comm_->size())},
      {"mpi_rank", int64_t(rank_)},
      {"rss_mib", proc_status_bytes("VmRSS") / (1 << 20)},
      {"peak_rss_mib", proc_status_bytes("VmHWM") / (1 << 20)},
  };
  for (const auto& [phase, seconds] : cycle_phase_times()) status.emplace(std::string("time_") + phase, seconds);
  for (const Setting& s : kernel_settings()) status.emplace(s.name, s.get(config_));  // measured ones stand
  return status;
}

}  // namespace ranvier
