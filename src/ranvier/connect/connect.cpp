// Connecting: runs a registered rule on every thread over its own targets (the rules are in
// rules/), stores what it makes, and attaches recorders.
#include <omp.h>
#include <algorithm>
#include <cmath>
#include <exception>
#include <new>
#include <sstream>

#include "connect/connection_rule.hpp"
#include "core/errors.hpp"
#include "devices/device_model.hpp"
#include "devices/recorder_model.hpp"
#include "models/coupled_model.hpp"
#include "models/eprop_model.hpp"

namespace ranvier {
namespace {

// Positions in `targets` of the neurons that live on a thread, ascending. Ascending targets:
// walks the thread's own gids inside the targets' range (Ippen et al. (2017), Listing 3), never
// all targets. Others (one_to_one's pairs, in any order and repeating): looks at each target.
std::vector<uint32_t> thread_positions(const GidList& targets, const LocalNetwork& k, int thread) {
  std::vector<uint32_t> positions;
  if (targets.empty()) return positions;
  if (!std::is_sorted(targets.begin(), targets.end())) {
    for (size_t p = 0; p < targets.size(); ++p)
      if (k.is_local(targets[p], thread)) positions.push_back(uint32_t(p));
    return positions;
  }
  const uint32_t lo = targets.front(), hi = targets.back();
  const bool contiguous = size_t(hi - lo) + 1 == targets.size();
  for (const NeuronGroup& g : k.threads()[size_t(thread)].groups) {
    if (g.gids.empty() || g.gids.back() < lo || g.gids.front() > hi) continue;
    auto cursor = targets.begin();
    for (auto it = std::lower_bound(g.gids.begin(), g.gids.end(), lo); it != g.gids.end() && *it <= hi; ++it) {
      if (contiguous) {
        positions.push_back(*it - lo);
        continue;
      }
      cursor = std::lower_bound(cursor, targets.end(), *it);
      if (cursor == targets.end()) break;
      for (; cursor != targets.end() && *cursor == *it; ++cursor)
        positions.push_back(uint32_t(cursor - targets.begin()));
    }
  }
  std::sort(positions.begin(), positions.end());
  return positions;
}

// Every receptor_type a request's connections may take: its one, or each its draws may give.
std::vector<uint32_t> receptors_of(const ConnectRequest& r) {
  const ValueSpec& draw = r.receptor_draw;
  if (draw.kind == ValueSpec::Kind::constant) return {r.receptor};
  if (draw.kind != ValueSpec::Kind::uniform_int || draw.p1 != r.receptor || draw.min != -INFINITY ||
      draw.max != INFINITY || draw.clip_min != -INFINITY || draw.clip_max != INFINITY)
    throw BadParameterError("receptor_type may be drawn as uniform_int(n) + k only");
  // a count beyond any model's ports fails at its first port past them
  std::vector<uint32_t> out;
  for (double k = 0; k < draw.p0 && out.size() < (size_t(1) << 16); ++k) out.push_back(r.receptor + uint32_t(k));
  return out;
}

}  // namespace

ConnectionSink::ConnectionSink(const LocalNetwork& k, int thread, ThreadState& ts, const ConnectRequest& r,
                               uint32_t call)
    : k_(k),
      thread_(thread),
      ts_(ts),
      r_(r),
      call_(call),
      model_(k.synapse_models()[r.synapse]),
      weights_(r.weight, k.config().seed, Purpose(uint32_t(Purpose::connect_weight) | k.collocated_spec() << 8), call),
      delays_(r.delay, k.config().seed, Purpose(uint32_t(Purpose::connect_delay) | k.collocated_spec() << 8), call),
      receptors_(r.receptor_draw, k.config().seed,
                 Purpose(uint32_t(Purpose::connect_receptor) | k.collocated_spec() << 8), call),
      drawn_receptor_(r.receptor_draw.kind != ValueSpec::Kind::constant),
      current_(k.sends_current(r)) {
  if (k.config().min_delay > 0.0)  // the delay extrema the user set (NEST's BadDelay), in steps as stored
    min_steps_ = uint32_t(k.config().min_delay_steps()), max_steps_ = uint32_t(k.config().max_delay_steps());
  if (r.delay.kind == ValueSpec::Kind::constant) constant_delay_ = delay_steps(r.delay.p0);
  if (model_.record_width() > 0) {
    record_values_ = model_.new_record(r.parameters);
    const int slot = model_.base->delay_offset_slot;
    if (slot >= 0 && r.delay.kind == ValueSpec::Kind::constant) {  // a call's delay keeps its fraction
      const ContinuousDelay d = ContinuousDelay::of(r.delay.p0, k.resolution());
      constant_delay_ = d.steps;
      record_values_[size_t(slot)] = d.offset;
    }
    record_ = ts.tables[r.synapse].add_initial_record(record_values_);
    record_long_ = ts.long_tables[r.synapse].add_initial_record(record_values_);
  } else if (!r.parameters.empty()) {
    throw UnknownParameterError(model_.name + " has no per-connection parameter " + r.parameters.begin()->first);
  }
}

void ConnectionSink::add(uint32_t source, uint32_t target, uint32_t input, uint32_t owner, uint64_t index,
                         uint64_t array_index) {
  const double w = weights_(owner, index, array_index);
  if (drawn_receptor_) input = k_.input_of(target, uint32_t(receptors_(owner, index, array_index)), current_, thread_);
  uint32_t steps = constant_delay_;
  if (steps)
    constant_used_ = true;
  else
    stored_.add(steps = delay_steps(delays_(owner, index, array_index)));
  store(source, target, input, w, steps);
}

void ConnectionSink::add_value(uint32_t source, uint32_t target, uint32_t input, double weight, double delay) {
  const uint32_t steps = delay_steps(delay);
  stored_.add(steps);
  store(source, target, input, weight, steps);
}

void ConnectionSink::store(uint32_t source, uint32_t target, uint32_t input, double w, uint32_t steps) {
  if (std::isnan(w)) throw bad_value("weight", w, "a number");
  const NodeRange& src = range(source, source_);
  const bool long_range = src.area != range(target, target_).area;  // between areas
  if (!src.model) {
    const uint32_t device = src.first_device + (source - src.first_gid());
    if (!k_.devices()[device].is_stimulator())
      throw IllegalConnectionError("node " + std::to_string(source) + " cannot send to neurons");
    if (!model_.base->from_devices)
      throw IllegalConnectionError("devices connect with static synapses only, not " + model_.name);
    const int slot = model_.base->delay_offset_slot;  // a continuous delay's offset: NEST's steps
    const double offset = slot >= 0 ? record_values_[size_t(slot)] : 0.0;
    if (model_.base->common_weight) w = model_.value_or("weight", 0.0);  // kept as the model's (prepare_stimulators)
    ts_.stimuli.push_back({device, input, target, ContinuousDelay{steps, offset}.nest_steps(), w, offset});
    return;
  }
  // As NEST 3.10 when run: Connect checks a weight against the model only where it also sets
  // the connections' own parameters (NEST's set_status); a weight alone is taken as given.
  if (model_.base->check_weight && !r_.parameters.empty()) model_.base->check_weight(w, model_, record_values_.data());
  if (model_.base->common_weight) w = 0.0;  // unused: every run shares one stored value
  (long_range ? ts_.long_tables : ts_.tables)[r_.synapse].staging().push(
      {source, input, steps, long_range ? record_long_ : record_, w});
}

uint32_t ConnectionSink::delay_steps(double d) const {
  const uint32_t steps = steps_of(d, k_.resolution());
  if (steps < min_steps_ || steps > max_steps_) [[unlikely]]
    return checked_steps(d, k_.config(), k_.resolution());  // raises
  return steps;
}

uint32_t ConnectionSink::checked_steps(double d, const KernelConfig& c, double h) {
  const uint32_t steps = steps_of(d, h);
  if (c.min_delay <= 0.0) return steps;
  const bool low = steps < c.min_delay_steps();
  if (!low && steps <= c.max_delay_steps()) return steps;
  std::ostringstream rule;
  rule << (low ? ">= min_delay = " : "<= max_delay = ") << double(low ? c.min_delay_steps() : c.max_delay_steps()) * h
       << " ms (set before Connect)";
  throw bad_value("delay", d, rule.str());
}

uint32_t ConnectionSink::steps_of(double d, double h) {
  if (!std::isfinite(d)) throw bad_value("delay", d, "a finite number of ms");
  // the range is checked before rounding: std::lround of a huge quotient is undefined
  const double exact = d / h;
  if (!(exact >= 0.5)) {  // as NEST: a delay that rounds to 0 steps
    std::ostringstream least;
    least << ">= the resolution " << h
          << " ms once rounded to it (NEST: Delay must be greater than or equal to resolution.)";
    throw bad_value("delay", d, least.str());
  }
  if (!(exact < 65535.5)) {  // a connection holds its delay in 16 bits
    std::ostringstream most;
    most << "at most " << 65535 * h << " ms (65535 steps)";
    throw bad_value("delay", d, most.str());
  }
  return uint32_t(std::lround(exact));
}

const NodeRange& ConnectionSink::range(uint32_t gid, const NodeRange*& cached) {
  if (!cached || gid < cached->first_gid() || gid - cached->first_gid() >= cached->count()) cached = &k_.range_of(gid);
  return *cached;
}

RuleContext::RuleContext(const LocalNetwork& k, int thread, const RuleCall& rule_call, uint32_t call,
                         ConnectionSink& sink)
    : request(rule_call.request),
      params(rule_call),
      sink(sink),
      seed(k.config().seed),
      call(call),
      mine(thread_positions(request.targets, k, thread)),
      k_(k),
      thread_(thread),
      current_(k.sends_current(request)),
      taken_(request.allow_multapses ? 0 : request.sources.size(), 0) {}

uint32_t RuleContext::input(uint32_t gid) const { return k_.input_of(gid, request.receptor, current_, thread_); }
bool RuleContext::local(uint32_t gid) const { return k_.is_local(gid, thread_); }

const std::vector<uint32_t>& RuleContext::draw_sources(size_t p, uint64_t count) {
  const ConnectRequest& r = request;
  const uint32_t target = r.targets[p];
  SequentialStream partners(stream(Purpose::connect_partner, target));
  chosen_.clear();
  for (uint64_t i = 0; chosen_.size() < count; ++i) {
    const uint32_t j = uint32_t(partners.below(i, r.sources.size()));
    if (!r.allow_autapses && r.sources[j] == target) continue;
    if (!r.allow_multapses) {
      if (taken_[j]) continue;
      taken_[j] = 1;
    }
    chosen_.push_back(j);
  }
  if (!r.allow_multapses)
    for (uint32_t j : chosen_) taken_[j] = 0;
  return chosen_;
}

bool LocalNetwork::sends_current(const ConnectRequest& r) const {
  if (r.sources.empty()) return false;
  const NodeRange& source = range_of(r.sources.front());
  if (source.model) return false;
  const Device& d = devices_[source.first_device + (r.sources.front() - source.first_gid())];
  return d.is_stimulator() && d.stimulator->sends_current();
}

// The stimulating devices among a request's sources, each once.
std::vector<Device*> LocalNetwork::source_stimulators(const ConnectRequest& r) {
  std::vector<Device*> out;
  const bool ascending = std::is_sorted(r.sources.begin(), r.sources.end());
  for (auto it = r.sources.begin(); it != r.sources.end();) {
    const NodeRange& range = range_of(*it);
    const auto end = ascending ? std::lower_bound(it, r.sources.end(), range.first_gid() + range.count()) : it + 1;
    if (!range.model)
      for (; it != end; ++it) {
        Device& d = devices_[range.first_device + (*it - range.first_gid())];
        if (d.is_stimulator()) out.push_back(&d);
      }
    it = end;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The Create calls of the targets, each once (targets in any order).
std::vector<NodeRange*> LocalNetwork::target_ranges(const GidList& targets) {
  GidList sorted;
  const GidList* ascending = &targets;
  if (!std::is_sorted(targets.begin(), targets.end())) {
    std::vector<uint32_t> ids = targets.to_vector();
    std::sort(ids.begin(), ids.end());
    sorted = std::move(ids);
    ascending = &sorted;
  }
  std::vector<NodeRange*> out;
  for (auto it = ascending->begin(); it != ascending->end();) {
    NodeRange& range = range_of(*it);
    out.push_back(&range);
    it = std::lower_bound(it, ascending->end(), range.first_gid() + range.count());
  }
  return out;
}

void LocalNetwork::connect(const ConnectRequest& r) {
  const SynapseBase& base = *synapse_models_.at(r.synapse).base;
  if (!has_own_delay(base.secondary) &&
      !(r.delay.kind == ValueSpec::Kind::constant && r.delay.p0 == config_.rate_comm_interval())) {
    ConnectRequest fixed = r;  // its delay is the kernel's: the cycle relaxation iterates over
    fixed.delay = ValueSpec{};
    fixed.delay.p0 = config_.rate_comm_interval();
    return connect(fixed);
  }
  const ConnectionRule* rule = r.spatial ? &spatial_rule() : ConnectionRules::instance().find(r.rule);
  if (!rule) throw BadParameterError("unknown connection rule: rule = '" + r.rule + "'");
  // the rule's parameters, checked on every rank before anything changes
  const RuleCall rule_call(r, r.spatial ? RuleParameters{} : check_rule_parameters(r.rule, *rule, r));
  place_areas();
  // Every rank checks the receptor against every target's Create call: all raise alike.
  const std::vector<NodeRange*> targeted = target_ranges(r.targets), senders = target_ranges(r.sources);
  const std::vector<uint32_t> receptors = receptors_of(r);
  const bool current = sends_current(r);
  for (uint32_t receptor : receptors)
    for (const NodeRange* range : targeted)
      if (range->model) range->model->port(range->kind.get(), receptor, current);
  // every delay of an array, once, so that every rank refuses a bad one, not only those that store it
  for (double d : r.delay.values) ConnectionSink::checked_steps(d, config_, h_);
  const std::vector<Device*> stimulators = source_stimulators(r);
  if (!stimulators.empty() && r.parameters.count(label_name))  // their connections keep a weight only
    throw BadParameterError("a device's connections carry no synapse_label in Ranvier; label neurons' connections");
  if (replicated_nodes_)  // they never spike (NEST: IllegalConnection)
    for (const NodeRange* range : senders) refuse_replicated(*range, "send spikes");
  for (const NodeRange* source : senders)  // what sender and target allow (NEST's test events)
    for (const NodeRange* range : targeted)
      if (range->model)
        for (uint32_t receptor : receptors) {
          if (source->model) source->model->check_target(*range->model, receptor);
          range->model->check_source(source->model, receptor);
        }
  for (const NodeRange* range : targeted)
    if (range->model && range->model->replicated() && !stimulators.empty())
      throw IllegalConnectionError("devices cannot connect to " + std::string(range->model->name()) + " node " +
                                   std::to_string(range->first_gid()) +
                                   ", which receives from every process (NEST: a global receiver)");
  if (base.check_model) base.check_model(synapse_models_[r.synapse]);
  refuse_mixed_events(r, receptors, senders, targeted, stimulators);
  for (const Device* d : stimulators)
    if (d->synapse >= 0 && uint32_t(d->synapse) != r.synapse)
      throw BadParameterError("all outgoing connections of a device must use one synapse model: node " +
                              std::to_string(d->gid) + " connects with " + synapse_models_[size_t(d->synapse)].name +
                              ", not " + synapse_models_[r.synapse].name);
  ScopedTimer timer(times_.connect);
  if (collocation_.spec > 0 && collocation_.next >= collocation_.calls.size())
    throw KernelStateError("a collocated synapse spec connects more often than the first did");
  const uint32_t call = collocation_.spec > 0 ? collocation_.calls[collocation_.next++] : ++connect_calls_;
  if (collocation_.spec == 0) collocation_.calls.push_back(call);
  std::vector<size_t> stimuli(threads_.size());
  for (size_t t = 0; t < threads_.size(); ++t) {
    threads_[t].tables[r.synapse].staging().begin_call();
    threads_[t].long_tables[r.synapse].staging().begin_call();
    stimuli[t] = threads_[t].stimuli.size();
  }
  std::vector<std::exception_ptr> errors(threads_.size());
  std::vector<DelayExtrema> delays(threads_.size());
#pragma omp parallel num_threads(int(threads_.size()))
  {
    const int t = omp_get_thread_num();
    try {
      delays[size_t(t)] = connect_on_thread(*rule, rule_call, t, call);
    } catch (...) {
      errors[size_t(t)] = std::current_exception();
    }
  }
  for (const auto& e : errors) {
    if (!e) continue;
    for (size_t t = 0; t < threads_.size(); ++t) {  // the failed call leaves no trace
      threads_[t].tables[r.synapse].staging().undo_call();
      threads_[t].long_tables[r.synapse].staging().undo_call();
      threads_[t].stimuli.resize(stimuli[t]);
    }
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {  // say what did not fit
      std::string given;
      for (const auto& [key, value] : r.rule_parameters) given += ", " + key + " = " + text_of(value);
      throw OutOfMemoryError("Connect(rule = " + r.rule + given + ") of " + std::to_string(r.sources.size()) +
                             " sources and " + std::to_string(r.targets.size()) +
                             " targets: its connections do not fit in this process's memory");
    }
  }
  for (NodeRange* range : targeted) range->targeted = true;
  for (Device* d : stimulators) d->synapse = int32_t(r.synapse);
  for (const DelayExtrema& d : delays) delay_extrema_.add(d);
  changed();
}

// Rate connections join rate neurons, gap junctions neurons with gap junctions, spike
// connections the others (NEST: each node handles only its own kinds of events).
void LocalNetwork::refuse_mixed_events(const ConnectRequest& r, const std::vector<uint32_t>& receptors,
                                       const std::vector<NodeRange*>& senders, const std::vector<NodeRange*>& targeted,
                                       const std::vector<Device*>& stimulators) {
  const SynapseModel& model = synapse_models_[r.synapse];
  const SecondaryEvent kind = model.base->secondary;
  if (kind != SecondaryEvent::none && !stimulators.empty())
    throw IllegalConnectionError("devices cannot connect through " + model.name + ", which joins coupled neurons");
  // NEST's words, which its test suite looks for
  const char* carried = kind == SecondaryEvent::none                  ? "spike"
                        : kind == SecondaryEvent::gap_junction        ? "gap junction"
                        : kind == SecondaryEvent::diffusion           ? "diffusion"
                        : kind == SecondaryEvent::learning_signal     ? "learning signal"
                        : kind == SecondaryEvent::slow_inward_current ? "slow inward current"
                                                                      : "rate";
  auto refuse = [&](const NodeRange& range, bool source) {
    const CoupledModel* coupled = range.model ? range.model->coupled_model() : nullptr;
    if (coupled && !source)
      for (uint32_t receptor : receptors) coupled->check_receptor(kind, receptor);
    if (coupled ? (source ? coupled->sends(kind) : coupled->joins(kind)) : kind == SecondaryEvent::none) return;
    const std::string node = range.model ? std::string(range.model->name()) + " node " : std::string("device ");
    throw IllegalConnectionError(std::string(source ? "The source node does not support "
                                                    : "The target node or synapse model does not support ") +
                                 carried + (source ? " output" : " input") + ": " + node +
                                 std::to_string(range.first_gid()) + " cannot " + (source ? "send" : "receive") +
                                 " through " + model.name);
  };
  const std::vector<NodeRange*> sources = stimulators.empty() ? senders : std::vector<NodeRange*>{};
  for (const NodeRange* range : sources) refuse(*range, true);
  for (const NodeRange* range : targeted) refuse(*range, false);
  for (const NodeRange* source : sources)  // NEST's words
    for (const NodeRange* target : targeted)
      if (source->model && target->model && source->model->binary() != target->model->binary())
        throw IllegalConnectionError("Source and target neuron are not compatible (e.g., spiking vs binary neuron): " +
                                     std::string(source->model->name()) + " node " +
                                     std::to_string(source->first_gid()) + " cannot connect to " +
                                     target->model->name() + " node " + std::to_string(target->first_gid()));
  if (model.base->eprop != Eprop::none) refuse_non_eprop(r, targeted);
  if (const PostHistory history = model.base->post_history; history != PostHistory::none)
    for (const NodeRange* range : targeted)
      if (!range->model || range->model->post_history() != history)
        throw IllegalConnectionError(model.name + " needs neurons that keep its history as targets (" +
                                     (history == PostHistory::clopath ? "Clopath's" : "Urbanczik's") +
                                     "): " + (range->model ? std::string(range->model->name()) + " node " : "device ") +
                                     std::to_string(range->first_gid()) + " is none");
  if (const char* paired = model.base->paired_neuron)  // it reads what that model keeps with its spikes
    for (const NodeRange* range : targeted)
      if (!range->model || std::string(range->model->name()) != paired)
        throw IllegalConnectionError(model.name + " was generated with " + paired + " and targets only its neurons: " +
                                     (range->model ? std::string(range->model->name()) + " node " : "device ") +
                                     std::to_string(range->first_gid()) + " is none");
}

// e-prop synapses reach into their targets' e-prop histories and are one step long (NEST).
void LocalNetwork::refuse_non_eprop(const ConnectRequest& r, const std::vector<NodeRange*>& targeted) const {
  const std::string& name = synapse_models_[r.synapse].name;
  const Eprop variant = synapse_models_[r.synapse].base->eprop;
  for (const NodeRange* range : targeted)
    if (!range->model || !range->model->eprop_model() || range->model->eprop_model()->variant() != variant)
      throw IllegalConnectionError(name + " needs e-prop neurons of its variant as targets: " +
                                   (range->model ? std::string(range->model->name()) + " node " : "device ") +
                                   std::to_string(range->first_gid()) + " is none");
  const auto is_step = [&](double d) { return std::abs(d - h_) <= 1e-9 * h_; };
  const bool one_step = r.delay.kind == ValueSpec::Kind::constant ? is_step(r.delay.p0)
                        : r.delay.kind == ValueSpec::Kind::array
                            ? std::all_of(r.delay.values.begin(), r.delay.values.end(), is_step)
                            : false;
  if (!one_step)
    throw IllegalConnectionError(name + " requires a delay of one simulation step (" + std::to_string(h_) +
                                 " ms), as NEST's e-prop synapses do");
}

void LocalNetwork::refuse_replicated(const NodeRange& range, const char* what) const {
  if (range.model && range.model->replicated())
    throw IllegalConnectionError(std::string(range.model->name()) + " node " + std::to_string(range.first_gid()) +
                                 " does not " + what);
}

void LocalNetwork::collocate(int spec) {
  if (spec <= 0) collocation_.calls.clear();
  collocation_.spec = spec;
  collocation_.next = 0;
}

DelayExtrema LocalNetwork::connect_on_thread(const ConnectionRule& rule, const RuleCall& rule_call, int thread,
                                             uint32_t call) {
  ConnectionSink sink(*this, thread, threads_[size_t(thread)], rule_call.request, call);
  RuleContext context(*this, thread, rule_call, call, sink);
  rule.connect(context);
  return sink.delays();
}

void LocalNetwork::connect_recorder(uint32_t recorder, const std::vector<uint32_t>& nodes, double delay,
                                    const std::vector<RecordedEvents>& events, uint32_t port, double weight) {
  place_areas();
  Device& device = device_of(recorder);
  const uint32_t steps = ConnectionSink::steps_of(delay, h_);
  if (device.records(Records::spikes)) {
    device.recorder->check_port(device, port);
    connect_spike_sources(device, nodes, steps, events, port, weight);
  } else if (device.records(Records::samples)) {
    connect_sampled(device, nodes, steps);
  } else
    throw BadParameterError("node " + std::to_string(recorder) + " is not a recorder of nodes");
  delay_extrema_.add(steps);  // NEST counts a recorder's connections too
}

void LocalNetwork::connect_spike_sources(Device& device, const std::vector<uint32_t>& sources, uint32_t delay,
                                         const std::vector<RecordedEvents>& events, uint32_t port, double weight) {
  const uint32_t recorder = device.gid;
  const uint32_t d = uint32_t(&device - devices_.data());
  std::vector<Local> found;
  std::vector<uint32_t> generators;
  bool precise = false;
  for (uint32_t gid : sources) {  // all are checked before anything changes
    const NodeRange& range = range_of(gid);
    if (!range.model) {
      const Device& g = devices_[range.first_device + (gid - range.first_gid())];
      if (!g.is_stimulator() || !g.stimulator->emits_spikes())
        throw BadParameterError(std::string(device.recorder->name()) + " " + std::to_string(recorder) +
                                " records spikes; node " + std::to_string(gid) +
                                (g.is_stimulator() ? " sends currents" : " is a recorder"));
      generators.push_back(uint32_t(&g - devices_.data()));
      precise = precise || g.stimulator->precise_spike_times();
      continue;
    }
    refuse_replicated(range, "send spikes");
    Local p{};
    if (locate(gid, p)) found.push_back(p);
    precise = precise || range.model->precise_spike_times() || range.model->spike_payload();  // NEST subtracts both
  }
  // events carry offsets from now on (where the model fixes no columns of its own): none may exist yet
  if (precise && !device.offsets && device.recorder->columns().empty()) {
    if (d < events.size() && !events[d].senders.empty())
      throw KernelStateError(
          "connect nodes with precise spike times (cable cells, precise models and generators) to spike recorder " +
          std::to_string(recorder) + " before it records");
    device.offsets = true;
  }
  for (const Local& p : found) {
    NeuronGroup& g = threads_[size_t(p.thread)].groups[p.group];
    g.spike_recorders.resize(g.size());
    g.spike_recorders[p.index].push_back({d, delay, port, weight});
  }
  // A generator's train to the recorder is drawn once: on rank 0, on the generator's thread.
  for (uint32_t g : rank_ == 0 ? generators : std::vector<uint32_t>{}) {
    ThreadState& ts = threads_[g % threads_.size()];
    ts.tap_stimuli.push_back({g, uint32_t(ts.tap_recorder.size()), recorder, delay, weight});
    ts.tap_recorder.push_back(d);
    ts.tap_port.push_back(port);
  }
  changed();
}

void LocalNetwork::connect_sampled(const Device& mm, const std::vector<uint32_t>& targets, uint32_t delay) {
  const uint32_t d = uint32_t(&mm - devices_.data());
  std::vector<std::pair<Local, Probe>> probes;
  std::vector<std::pair<NodeRange*, uint32_t>> recorded;
  std::vector<uint32_t> generators;  // a generator's recordable (NEST's "I" or "rate")
  for (uint32_t gid : targets) {
    if (is_device(gid)) {
      const Device& g = device_of(gid);
      const std::string node =
          "node " + std::to_string(gid) + " (" + (g.is_stimulator() ? g.stimulator->name() : "a recorder") + ")";
      const char* recordable = g.is_stimulator() ? g.stimulator->recordable() : nullptr;
      if (!recordable)
        throw IllegalConnectionError(std::string(mm.recorder->name()) + ": " + node + " has no recordables");
      for (const std::string& name : mm.record_from)
        if (name != recordable)
          throw IllegalConnectionError("record_from: " + node + " records only " + recordable + ", not " + name);
      generators.push_back(uint32_t(&g - devices_.data()));
      continue;
    }
    refuse_replicated(range_of(gid), "have recordables");
    Local p{};
    const bool here = locate(gid, p);
    NodeRange& range = range_of(gid);
    const NeuronModel* model = range.model;
    std::vector<int> vars;
    for (const std::string& name : mm.record_from) {
      const int v = model->recordable(range.kind.get(), name);
      if (v < 0)  // NEST's IllegalConnection, in its words
        throw IllegalConnectionError(
            "record_from: Creation of connection is not possible because:\nCannot connect with unknown recordable " +
            name + " (" + model->name() + " has no such variable)");
      vars.push_back(v);
      if (!model->list_parameters().empty()) {  // a list's port recordable (I_syn_2): its number
        const int ports = v + 1 - int(model->variables().size());
        recorded.push_back({&range, uint32_t(std::max(ports, 0))});
      }
    }
    const int32_t site = mm.location ? model->site(range.kind.get(), *mm.location) : -1;
    if (here) probes.push_back({p, {p.index, d, std::move(vars), site, delay}});
  }
  for (auto& [p, probe] : probes) threads_[size_t(p.thread)].groups[p.group].probes.push_back(std::move(probe));
  for (auto& [range, port] : recorded) range->recorded_ports = std::max(range->recorded_ports, port);
  for (uint32_t g : rank_ == 0 ? generators : std::vector<uint32_t>{})  // recorded once, as taps are
    threads_[devices_[g].gid % threads_.size()].generator_probes.push_back({g, d, {}, delay});
  changed();
}

}  // namespace ranvier
