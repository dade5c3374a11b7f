// Checkpoints: a rank's simulation state beyond the network's structure, taken as columns
// addressed by node id (and port, step, connection) so that any partition can take it up.
// Python rebuilds the structure with the usual calls (checkpoint/), then hands every rank's
// snapshot to resume, which keeps what lives here. Exactness rests on restoring each stored
// double as it is and on delivery adding into the same sums in the same order, which the
// kernel guarantees for any partition.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/errors.hpp"
#include "kernel/checkpoint_owners.hpp"
#include "kernel/kernel.hpp"

namespace ranvier {

using checkpoint::column_owners, checkpoint::ColumnOwner, checkpoint::Instances, checkpoint::Where;

namespace {

// Lists of lists as one stream per neuron: each list's length, then its values.
void encode_lists(const std::vector<std::vector<std::vector<double>>>& lists, size_t i, std::vector<double>& out) {
  for (const auto& list : lists) {
    const std::vector<double>& values = list[i];
    out.push_back(double(values.size()));
    out.insert(out.end(), values.begin(), values.end());
  }
}

void decode_lists(const double* begin, const double* end, std::vector<std::vector<std::vector<double>>>& lists,
                  size_t i, size_t n) {
  for (size_t k = 0; begin < end; ++k) {
    const size_t length = size_t(*begin++);
    if (lists.size() <= k) lists.resize(k + 1);
    if (lists[k].size() < n) lists[k].resize(n);
    lists[k][i].assign(begin, begin + long(length));
    begin += length;
  }
}

}  // namespace

// Stimulating devices' connections, each keyed by (device, target, the how-manyth of that pair
// on this rank, whether it is a tap): a tap is a generator's connection to a spike recorder
// (the target is the recorder), whose train waits in tap_input. Each keeps state words where
// its model has any (gamma_sup_generator's, poisson_generator_ps's).
using StimulusKey = std::tuple<uint32_t, uint32_t, int64_t, bool>;
using StimulusCounts = std::map<std::tuple<uint32_t, uint32_t, bool>, int64_t>;

template <class Visit>
static void each_stimulus(const ThreadState& ts, const std::vector<Device>& devices, StimulusCounts& seen,
                          Visit visit) {
  for (const bool tap : {false, true}) {
    const auto& stimuli = tap ? ts.tap_stimuli : ts.stimuli;
    for (size_t k = 0; k < stimuli.size(); ++k) {
      const uint32_t device = devices[stimuli[k].device].gid;
      const uint32_t target = tap ? devices[ts.tap_recorder[k]].gid : stimuli[k].target_gid;
      visit(StimulusKey{device, target, seen[{device, target, tap}]++, tap}, k);
    }
  }
}

static void save_stimuli(ThreadState& ts, int64_t now, const std::vector<Device>& devices, StimulusCounts& seen,
                         Snapshot& out) {
  auto& I = out.ints;
  ts.stimulus_state.resize(ts.stimuli.size()), ts.tap_stimulus_state.resize(ts.tap_stimuli.size());
  std::vector<StimulusKey> taps;
  each_stimulus(ts, devices, seen, [&](const StimulusKey& key, size_t k) {
    const auto& [device, target, nth, tap] = key;
    I["stimulus.device"].push_back(device), I["stimulus.target"].push_back(target);
    I["stimulus.nth"].push_back(nth), I["stimulus.tap"].push_back(tap);
    for (uint64_t word : (tap ? ts.tap_stimulus_state : ts.stimulus_state)[k])
      I["stimulus.state"].push_back(int64_t(word));
    I["stimulus.state_at"].push_back(int64_t(I["stimulus.state"].size()));
    if (tap) taps.push_back(key);
  });
  ts.tap_input.visit_scheduled(
      now, [](int64_t, uint32_t, int, double) {},  // taps take events only
      [&](int64_t step, const InputEvent& e, bool) {
        const auto& [device, recorder, nth, tap] = taps[e.column];
        I["tap_event.device"].push_back(device), I["tap_event.recorder"].push_back(recorder);
        I["tap_event.nth"].push_back(nth), I["tap_event.step"].push_back(step);
        out.reals["tap_event.offset"].push_back(e.offset), out.reals["tap_event.weight"].push_back(e.weight);
      });
}

static void restore_stimuli(const Snapshot& all, std::vector<ThreadState>& threads, const std::vector<Device>& devices,
                            const Instances& local) {
  std::map<StimulusKey, std::pair<size_t, size_t>> here;  // -> (thread, position)
  StimulusCounts seen;
  for (size_t t = 0; t < threads.size(); ++t) {
    threads[t].stimulus_state.assign(threads[t].stimuli.size(), {});
    threads[t].tap_stimulus_state.assign(threads[t].tap_stimuli.size(), {});
    each_stimulus(threads[t], devices, seen, [&](const StimulusKey& key, size_t k) { here[key] = {t, k}; });
  }
  const auto &device = all.int_column("stimulus.device"), &target = all.int_column("stimulus.target"),
             &nth = all.int_column("stimulus.nth"), &tap = all.int_column("stimulus.tap"),
             &words = all.int_column("stimulus.state"), &words_at = all.int_column("stimulus.state_at");
  for (size_t k = 0; k < device.size(); ++k) {
    const StimulusKey key{uint32_t(device[k]), uint32_t(target[k]), nth[k], tap[k] != 0};
    const auto it = here.find(key);
    if (it == here.end()) {
      if (!tap[k] && local.find(target[k]))
        throw BadParameterError("the checkpoint's device " + std::to_string(device[k]) + " has no connection to " +
                                std::to_string(target[k]) + " here");
      continue;  // it lives on another rank
    }
    ThreadState& ts = threads[it->second.first];
    (tap[k] ? ts.tap_stimulus_state : ts.stimulus_state)[it->second.second].assign(words.begin() + words_at[k],
                                                                                   words.begin() + words_at[k + 1]);
  }
  const auto &event_device = all.int_column("tap_event.device"), &recorder = all.int_column("tap_event.recorder"),
             &event_nth = all.int_column("tap_event.nth"), &step = all.int_column("tap_event.step");
  for (size_t k = 0; k < event_device.size(); ++k)
    if (const auto it = here.find({uint32_t(event_device[k]), uint32_t(recorder[k]), event_nth[k], true});
        it != here.end())
      threads[it->second.first].tap_input.restore_event(
          step[k], {uint32_t(it->second.second), 0, all.real_column("tap_event.offset")[k],
                    all.real_column("tap_event.weight")[k]});
}

// The volume transmitters' spike lists, on every thread.
static void restore_modulators(const Snapshot& all, std::vector<ThreadState>& threads) {
  const auto &gid = all.int_column("modulator.gid"), &stamp = all.int_column("modulator.stamp");
  const auto &t = all.real_column("modulator.t"), &multiplicity = all.real_column("modulator.multiplicity");
  std::map<uint32_t, ModulatorSpikes> lists;
  for (size_t k = 0; k < gid.size(); ++k) lists[uint32_t(gid[k])].push_back({stamp[k], t[k], multiplicity[k]});
  for (ThreadState& ts : threads) ts.modulators.assign(lists);
}

// What a checkpoint cannot hold yet, named; the same on every rank where it concerns settings.
static void refuse_unsupported(const LocalNetwork& net) {
  auto refuse = [](const std::string& what) { throw KernelStateError("checkpoints do not hold " + what + " yet"); };
  for (const ThreadState& ts : net.threads()) {
    for (const NeuronGroup& g : ts.groups) {
      std::vector<double> probe;
      if (g.state && g.size() && !g.state->save(0, probe)) refuse(std::string("cells of model ") + g.model->name());
    }
  }
}

Snapshot Kernel::snapshot() {
  prepare();
  refuse_unsupported(network_);
  Snapshot out;
  const auto [connect_calls, parameter_draws] = network_.draw_calls();
  out.ints["kernel.clock"] = {origin_, lag_, connect_calls, parameter_draws, D_};
  auto& I = out.ints;
  auto& R = out.reals;
  StimulusCounts seen_stimuli;
  auto save_spikes = [&](const std::string& prefix, const std::vector<Spike>& spikes) {
    for (const Spike& s : spikes)
      I[prefix + ".gid"].push_back(s.gid), I[prefix + ".offset"].push_back(s.offset),
          I[prefix + ".stamp"].push_back(s.stamp);
  };
  auto save_payloads = [&](const std::string& prefix, const std::vector<SpikePayload>& payloads) {
    for (const SpikePayload& p : payloads)
      I[prefix + ".gid"].push_back(p.gid), I[prefix + ".stamp"].push_back(p.stamp),
          R[prefix + ".value"].push_back(p.value);
  };
  I["neuron.vars_at"] = I["neuron.lists_at"] = I["neuron.list_state_at"] = I["neuron.cell_state_at"] = {0};
  I["element.at"] = {0};
  out.u8["element.bytes"];
  for (ThreadState& ts : network_.threads()) {
    const bool first_instance = rank_ == 0 && &ts == &network_.threads().front();
    for (const NeuronGroup& g : ts.groups)
      for (size_t i = 0; i < g.size() && (first_instance || !g.model->replicated()); ++i) {
        I["neuron.gid"].push_back(g.gids[i]);
        I["neuron.counter"].push_back(g.counters.empty() ? 0 : g.counters[i]);
        I["neuron.second_counter"].push_back(g.second_counters.empty() ? 0 : g.second_counters[i]);
        R["neuron.last_spike"].push_back(g.last_spike.empty() ? NAN : g.last_spike[i]);
        for (const std::vector<double>& v : g.vars) R["neuron.vars"].push_back(v[i]);
        encode_lists(g.lists, i, R["neuron.lists"]);
        encode_lists(g.list_state, i, R["neuron.list_state"]);
        if (g.state) g.state->save(i, R["neuron.cell_state"]);
        R["neuron.calcium_since"].push_back(g.structural.since.empty() ? NAN : g.structural.since[i]);
        if (g.structural.has_elements() && !g.structural.elements[i].empty()) {  // a row per neuron that has any
          I["element.gid"].push_back(g.gids[i]);
          for (const SynapticElement& e : g.structural.elements[i]) e.append_to(out.u8["element.bytes"]);
          I["element.at"].push_back(int64_t(out.u8["element.bytes"].size()));
        }
        I["neuron.cell_state_at"].push_back(int64_t(R["neuron.cell_state"].size()));
        I["neuron.vars_at"].push_back(int64_t(R["neuron.vars"].size()));
        I["neuron.lists_at"].push_back(int64_t(R["neuron.lists"].size()));
        I["neuron.list_state_at"].push_back(int64_t(R["neuron.list_state"].size()));
      }
    const std::vector<ColumnOwner> owner = column_owners(ts, first_instance);
    ts.input.visit_scheduled(
        step(),
        [&](int64_t s, uint32_t column, int row, double value) {
          if (owner[column].copy) return;
          I["input.gid"].push_back(owner[column].gid), I["input.port"].push_back(owner[column].port);
          I["input.step"].push_back(s), I["input.row"].push_back(row), R["input.value"].push_back(value);
        },
        [&](int64_t s, const InputEvent& e, bool long_range) {
          if (owner[e.column].copy) return;
          I["event.gid"].push_back(owner[e.column].gid), I["event.port"].push_back(owner[e.column].port);
          I["event.step"].push_back(s), I["event.long"].push_back(long_range), I["event.sender"].push_back(e.sender);
          R["event.offset"].push_back(e.offset), R["event.weight"].push_back(e.weight);
        });
    if (first_instance)  // every thread of every rank holds the same lists
      for (const auto& [transmitter, spikes] : ts.modulators.lists())
        for (const ModulatorSpike& m : spikes) {
          I["modulator.gid"].push_back(transmitter), I["modulator.stamp"].push_back(m.stamp);
          R["modulator.t"].push_back(m.t), R["modulator.multiplicity"].push_back(m.multiplicity);
        }
    if (!ts.archives.empty())
      for (size_t column = 0; column < ts.n_inputs(); ++column) {
        const std::vector<std::vector<double>> kept = ts.archives.kept_values(column);
        const std::vector<SpikeArchives::Entry> entries = ts.archives.entries(column);
        for (size_t k = 0; k < entries.size(); ++k) {
          const SpikeArchives::Entry& e = entries[k];
          I["archive.gid"].push_back(owner[column].gid), I["archive.port"].push_back(owner[column].port);
          I["archive.stamp"].push_back(e.stamp), I["archive.reads"].push_back(e.reads);
          I["archive.offset"].push_back(e.offset), R["archive.k_minus"].push_back(e.k_minus);
          I["archive.kept"].push_back(int64_t(kept[k].size()));  // values in archive.values, entry after entry
          R["archive.values"].insert(R["archive.values"].end(), kept[k].begin(), kept[k].end());
        }
      }
    save_stimuli(ts, step(), network_.devices(), seen_stimuli, out);
    save_spikes("emitted", ts.emitted);
    save_payloads("payload.emitted", ts.payloads);
  }
  save_spikes("received", pathways_.received());
  if (rank_ == 0) save_payloads("payload.received", payloads_.received());  // every rank holds them
  save_spikes("long.pending", pathways_.long_pending());
  save_spikes("long.waiting", pathways_.lumped_waiting());
  save_spikes("epoch", pathways_.first_epoch());
  // every column exists, also where this rank has no rows of it
  for (const char* name : {"neuron.gid",         "neuron.counter",   "neuron.second_counter",
                           "input.gid",          "input.port",       "input.step",
                           "input.row",          "event.gid",        "event.port",
                           "event.step",         "archive.gid",      "archive.port",
                           "archive.stamp",      "archive.reads",    "archive.offset",
                           "archive.kept",       "stimulus.device",  "stimulus.target",
                           "stimulus.nth",       "stimulus.tap",     "tap_event.device",
                           "tap_event.recorder", "tap_event.nth",    "tap_event.step",
                           "stimulus.state",     "emitted.gid",      "emitted.offset",
                           "emitted.stamp",      "received.gid",     "received.offset",
                           "received.stamp",     "modulator.gid",    "modulator.stamp",
                           "event.long",         "long.pending.gid", "long.pending.offset",
                           "long.pending.stamp", "long.waiting.gid", "long.waiting.offset",
                           "long.waiting.stamp", "epoch.gid",        "epoch.offset",
                           "epoch.stamp",        "element.gid"})
    I[name];
  for (const char* name :
       {"payload.emitted.gid", "payload.emitted.stamp", "payload.received.gid", "payload.received.stamp"})
    I[name];
  I["stimulus.state_at"].insert(I["stimulus.state_at"].begin(), 0);
  for (const char* name : {"neuron.last_spike", "neuron.vars", "neuron.lists", "neuron.list_state", "neuron.cell_state",
                           "neuron.calcium_since", "input.value", "event.offset", "event.weight", "archive.k_minus",
                           "archive.values", "modulator.t", "modulator.multiplicity", "tap_event.offset",
                           "tap_event.weight", "payload.emitted.value", "payload.received.value"})
    R[name];
  return out;
}

void Kernel::resume(const Snapshot& all) {
  const std::vector<int64_t>& clock = all.int_column("kernel.clock");
  if (clock.size() != 5 || clock[0] < 0 || clock[1] < 0)
    throw BadParameterError("the checkpoint's clock is not a clock");
  std::vector<ThreadState>& threads = network_.threads();
  const Instances local(threads, node_count());
  auto find = [&](int64_t gid) { return local.find(gid); };
  auto column = [&](const Where& w, int64_t port) {
    const NeuronGroup& g = threads[w.thread].groups[w.group];
    if (port < 0 || uint32_t(port) >= g.ports)
      throw BadParameterError("the checkpoint names port " + std::to_string(port) + " of node " +
                              std::to_string(g.gids[w.index]) + ", which has " + std::to_string(g.ports));
    return g.input(w.index, uint32_t(port));
  };

  const auto& gid = all.int_column("neuron.gid");
  const auto& vars = all.real_column("neuron.vars");
  const auto& lists = all.real_column("neuron.lists");
  const auto& list_state = all.real_column("neuron.list_state");
  const auto &vars_at = all.int_column("neuron.vars_at"), &lists_at = all.int_column("neuron.lists_at"),
             &list_state_at = all.int_column("neuron.list_state_at");
  for (size_t k = 0; k < gid.size(); ++k)
    local.each(gid[k], [&](const Where& w) {
      NeuronGroup& g = threads[w.thread].groups[w.group];
      const size_t i = w.index;
      if (size_t(vars_at[k + 1] - vars_at[k]) != g.vars.size())
        throw BadParameterError("the checkpoint's node " + std::to_string(gid[k]) + " is not a " + g.model->name());
      for (size_t v = 0; v < g.vars.size(); ++v) g.vars[v][i] = vars[size_t(vars_at[k]) + v];
      auto set_counter = [&](std::vector<int32_t>& counters, int64_t value) {
        if (counters.empty() && value == 0) return;
        counters.resize(g.size());
        counters[i] = int32_t(value);
      };
      set_counter(g.counters, all.int_column("neuron.counter")[k]);
      set_counter(g.second_counters, all.int_column("neuron.second_counter")[k]);
      if (const double t = all.real_column("neuron.last_spike")[k]; !std::isnan(t)) {
        if (g.last_spike.empty()) g.last_spike.assign(g.size(), -1.0);
        g.last_spike[i] = t;
      }
      decode_lists(lists.data() + lists_at[k], lists.data() + lists_at[k + 1], g.lists, i, g.size());
      decode_lists(list_state.data() + list_state_at[k], list_state.data() + list_state_at[k + 1], g.list_state, i,
                   g.size());
      StructuralState& s = g.structural;
      if (const double since = all.real_column("neuron.calcium_since")[k]; !std::isnan(since)) {
        if (s.since.empty()) s.since.assign(g.size(), 0.0);
        s.since[i] = since;
      }
      if (s.has_elements()) s.elements[i].clear();  // the checkpoint's elements only (below)
    });
  const auto &element_gid = all.int_column("element.gid"), &element_at = all.int_column("element.at");
  const std::vector<uint8_t>& element_bytes = all.column<uint8_t>("element.bytes");
  for (size_t k = 0; k < element_gid.size(); ++k)
    local.each(element_gid[k], [&](const Where& w) {
      NeuronGroup& g = threads[w.thread].groups[w.group];
      if (!g.structural.has_elements()) g.structural.elements.resize(g.size());
      for (const uint8_t* p = element_bytes.data() + element_at[k]; p < element_bytes.data() + element_at[k + 1];)
        g.structural.elements[w.index].push_back(SynapticElement::read_from(p));
    });

  // The nodes' state as it was, then the clock at the start of its cycle and the kernel
  // prepared: calibration derives what it derives from the restored parameters, and the
  // buffers are shaped for the clock's steps.
  restore_modulators(all, threads);
  origin_ = clock[0], lag_ = 0;
  network_.set_draw_calls(uint32_t(clock[2]), uint32_t(clock[3]));
  prepared_ = false;
  prepare();
  refuse_unsupported(network_);
  if (clock[1] >= min_delay_) throw BadParameterError("the checkpoint's clock lies beyond its cycle");
  if (long_range_ && clock[4] != D_)
    throw BadParameterError("the checkpoint exchanges long-range spikes every " + std::to_string(clock[4]) +
                            " cycles, this kernel every " + std::to_string(D_) +
                            ": load it with the max_D and overlap_exchange it was saved with");
  lag_ = int(clock[1]);

  // What a kind keeps beyond named variables exists once the kernel prepared (calibration may make it).
  const auto& cell_state = all.real_column("neuron.cell_state");
  const auto& cell_state_at = all.int_column("neuron.cell_state_at");
  for (size_t k = 0; k < gid.size(); ++k)
    if (cell_state_at[k + 1] > cell_state_at[k])
      local.each(gid[k], [&](const Where& w) {
        NeuronGroup& g = threads[w.thread].groups[w.group];
        if (!g.state)
          throw BadParameterError("the checkpoint's node " + std::to_string(gid[k]) + " is not a " + g.model->name());
        g.state->load(w.index, cell_state.data() + cell_state_at[k], cell_state.data() + cell_state_at[k + 1]);
      });

  const auto &input_gid = all.int_column("input.gid"), &input_port = all.int_column("input.port"),
             &input_step = all.int_column("input.step"), &input_row = all.int_column("input.row");
  const auto& input_value = all.real_column("input.value");
  for (size_t k = 0; k < input_gid.size(); ++k)
    local.each(input_gid[k], [&](const Where& w) {
      threads[w.thread].input.restore_sum(input_step[k], column(w, input_port[k]), int(input_row[k]), input_value[k]);
    });
  const auto &event_gid = all.int_column("event.gid"), &event_port = all.int_column("event.port"),
             &event_step = all.int_column("event.step");
  for (size_t k = 0; k < event_gid.size(); ++k)
    local.each(event_gid[k], [&](const Where& w) {
      threads[w.thread].input.restore_event(event_step[k],
                                            {column(w, event_port[k]), uint32_t(all.int_column("event.sender")[k]),
                                             all.real_column("event.offset")[k], all.real_column("event.weight")[k]},
                                            all.int_column("event.long")[k] != 0);
    });

  const auto &archive_gid = all.int_column("archive.gid"), &archive_port = all.int_column("archive.port");
  // (gid, port): the entries oldest first, and the values kept with each
  std::map<std::pair<int64_t, int64_t>, std::pair<std::vector<SpikeArchives::Entry>, std::vector<std::vector<double>>>>
      archived;
  const std::vector<int64_t>& kept_count = all.int_column("archive.kept");
  const std::vector<double>& kept_values = all.real_column("archive.values");
  for (size_t k = 0, at = 0; k < archive_gid.size(); at += size_t(kept_count[k]), ++k)
    if (find(archive_gid[k])) {
      auto& [entries, values] = archived[{archive_gid[k], archive_port[k]}];
      entries.push_back({all.int_column("archive.stamp")[k], all.real_column("archive.k_minus")[k],
                         uint32_t(all.int_column("archive.reads")[k]), uint32_t(all.int_column("archive.offset")[k])});
      values.emplace_back(kept_values.begin() + long(at), kept_values.begin() + long(at) + kept_count[k]);
    }
  for (const auto& [key, kept] : archived) {
    const Where& w = *find(key.first);
    SpikeArchives& archives = threads[w.thread].archives;
    if (archives.empty())
      throw BadParameterError("the checkpoint keeps spike histories of a network without plastic synapses");
    archives.restore(column(w, key.second), kept.first);
    if (std::any_of(kept.second.begin(), kept.second.end(), [](const auto& v) { return !v.empty(); }))
      archives.restore_kept(column(w, key.second), kept.first, kept.second);
  }

  restore_stimuli(all, threads, network_.devices(), local);

  auto spikes = [&](const std::string& prefix) {
    const auto &g = all.int_column(prefix + ".gid"), &offset = all.int_column(prefix + ".offset"),
               &stamp = all.int_column(prefix + ".stamp");
    std::vector<Spike> out(g.size());
    for (size_t k = 0; k < g.size(); ++k) out[k] = {uint32_t(g[k]), uint32_t(offset[k]), stamp[k]};
    return out;
  };
  // The cycle's spikes so far, a first epoch's already exchanged among them: they go out again,
  // with the rest of the cycle's, at its end.
  for (ThreadState& ts : threads) ts.emitted.clear();
  for (const char* kind : {"emitted", "epoch"})
    for (const Spike& s : spikes(kind))
      if (const Where* w = find(s.gid)) threads[w->thread].emitted.push_back(s);
  auto payloads = [&](const std::string& prefix) {
    const auto &g = all.int_column(prefix + ".gid"), &stamp = all.int_column(prefix + ".stamp");
    const auto& value = all.real_column(prefix + ".value");
    std::vector<SpikePayload> out(g.size());
    for (size_t k = 0; k < g.size(); ++k) out[k] = {uint32_t(g[k]), stamp[k], value[k]};
    return out;
  };
  for (ThreadState& ts : threads) ts.payloads.clear();
  for (const SpikePayload& p : payloads("payload.emitted"))
    if (const Where* w = find(p.gid)) threads[w->thread].payloads.push_back(p);
  payloads_.restore(payloads("payload.received"));
  pathways_.restore_received(spikes("received"));
  std::vector<Spike> pending;  // this rank's own of earlier cycles, for the next global exchange
  for (const Spike& s : spikes("long.pending"))
    if (find(s.gid) && s.stamp <= origin_) pending.push_back(s);
  pathways_.restore_long(std::move(pending), spikes("long.waiting"));
}

void Kernel::restore_events(uint32_t recorder, RecordedEvents events) {
  if (rank_ == 0) stored_events(recorder) = std::move(events);
}

}  // namespace ranvier
