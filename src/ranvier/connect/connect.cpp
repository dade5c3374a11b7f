// Connection rules. Every thread creates the incoming connections of its own targets,
// finding them by walking its own gids (seed 000, Listing 3), and every random choice is
// keyed by the connection's owner so the network does not depend on the thread count.
#include <algorithm>
#include <exception>
#include <omp.h>
#include <sstream>
#include <stdexcept>

#include "kernel/kernel.hpp"
#include "spatial/spatial_connect.hpp"

namespace ranvier {
namespace {

// Positions in the ascending `targets` of the neurons that live on a thread: walks the
// thread's own gids inside the targets' range (seed 000, Listing 3), never all targets.
std::vector<uint32_t> thread_positions(const std::vector<uint32_t>& targets, const ThreadState& ts) {
  std::vector<uint32_t> positions;
  if (targets.empty()) return positions;
  const uint32_t lo = targets.front(), hi = targets.back();
  const bool contiguous = size_t(hi - lo) + 1 == targets.size();
  for (const NeuronGroup& g : ts.groups) {
    if (g.gids.empty() || g.gids.back() < lo || g.gids.front() > hi) continue;
    auto cursor = targets.begin();
    for (auto it = std::lower_bound(g.gids.begin(), g.gids.end(), lo); it != g.gids.end() && *it <= hi; ++it) {
      if (contiguous) {
        positions.push_back(*it - lo);
        continue;
      }
      cursor = std::lower_bound(cursor, targets.end(), *it);
      if (cursor == targets.end()) break;
      if (*cursor == *it) positions.push_back(uint32_t(cursor - targets.begin()));
    }
  }
  std::sort(positions.begin(), positions.end());
  return positions;
}

std::string describe(const char* name, double value, const char* rule) {
  std::ostringstream msg;
  msg << name << " must be " << rule << ", got " << name << " = " << value;
  return msg.str();
}

}  // namespace

// Turns rule output into stored connections: draws weight and delay, checks them and
// appends to the thread's staging.
class ConnectionSink {
 public:
  ConnectionSink(Kernel& k, ThreadState& ts, const ConnectRequest& r, uint32_t call)
      : k_(k), ts_(ts), r_(r), call_(call), plastic_(k.synapse_models_[r.synapse].kind == SynapseKind::stdp_pl_hom) {
    if (r.delay.kind == ValueSpec::Kind::constant) constant_delay_ = delay_steps(r.delay.p0);
  }

  // owner/index key the random weight and delay; array_index addresses array specs.
  void add(uint32_t source, uint32_t target, uint32_t lid, uint32_t owner, uint64_t index,
           uint64_t array_index) {
    const double w = r_.weight.kind == ValueSpec::Kind::constant
                         ? r_.weight.p0
                         : r_.weight.value(array_index, Stream(k_.seed_, Purpose::connect_weight, call_, owner), index);
    const uint32_t steps =
        constant_delay_ ? constant_delay_
                        : delay_steps(r_.delay.value(array_index, Stream(k_.seed_, Purpose::connect_delay, call_, owner), index));
    store(source, target, lid, w, steps);
  }

  // A connection whose weight and delay (ms) are already known.
  void add_value(uint32_t source, uint32_t target, uint32_t lid, double w, double delay) {
    store(source, target, lid, w, delay_steps(delay));
  }

 private:
  void store(uint32_t source, uint32_t target, uint32_t lid, double w, uint32_t steps) {
    if (std::isnan(w)) throw std::invalid_argument(describe("weight", w, "a number"));
    const NodeRange& src = range(source, source_);
    const bool long_range = src.area != range(target, target_).area;  // between areas
    if (!src.model) {
      const uint32_t device = src.first_device + (source - src.first_gid());
      if (!k_.devices_[device].is_stimulator())
        throw std::invalid_argument("node " + std::to_string(source) + " cannot send to neurons");
      if (plastic_)
        throw std::invalid_argument("devices connect with static synapses only, not " +
                                    k_.synapse_models_[r_.synapse].name);
      ts_.stimuli.push_back({device, lid, target, steps, w});
      return;
    }
    if (plastic_ && w < 0) throw std::invalid_argument(describe("weight", w, ">= 0 for stdp_pl_synapse_hom"));
    (long_range ? ts_.long_tables : ts_.tables)[r_.synapse].staging().push({source, lid, steps, w});
  }

  uint32_t delay_steps(double d) const {
    const long steps = std::lround(d / k_.h_);
    if (!(steps >= 1)) throw std::invalid_argument(describe("delay", d, ">= the resolution"));
    if (steps > 65535) throw std::invalid_argument(describe("delay", d, "at most 65535 steps"));
    return uint32_t(steps);
  }
  // The Create call of a gid; consecutive connections mostly share it.
  const NodeRange& range(uint32_t gid, const NodeRange*& cached) {
    if (!cached || gid < cached->first_gid() || gid - cached->first_gid() >= cached->count()) cached = &k_.range_of(gid);
    return *cached;
  }

  Kernel& k_;
  ThreadState& ts_;
  const ConnectRequest& r_;
  uint32_t call_;
  bool plastic_;
  uint32_t constant_delay_ = 0;
  const NodeRange* source_ = nullptr;
  const NodeRange* target_ = nullptr;
};

void Kernel::connect(const ConnectRequest& r) {
  place_areas();
  ScopedTimer timer(times_.connect);
  const uint32_t call = ++connect_calls_;
  std::vector<size_t> staged(threads_.size()), staged_long(threads_.size()), stimuli(threads_.size());
  for (size_t t = 0; t < threads_.size(); ++t) {
    staged[t] = threads_[t].tables[r.synapse].staging().size();
    staged_long[t] = threads_[t].long_tables[r.synapse].staging().size();
    stimuli[t] = threads_[t].stimuli.size();
  }
  std::vector<std::exception_ptr> errors(threads_.size());
#pragma omp parallel num_threads(int(threads_.size()))
  {
    const int t = omp_get_thread_num();
    try {
      connect_on_thread(r, t, call);
    } catch (...) {
      errors[size_t(t)] = std::current_exception();
    }
  }
  for (const auto& e : errors) {
    if (!e) continue;
    for (size_t t = 0; t < threads_.size(); ++t) {  // the failed call leaves no trace
      threads_[t].tables[r.synapse].staging().truncate(staged[t]);
      threads_[t].long_tables[r.synapse].staging().truncate(staged_long[t]);
      threads_[t].stimuli.resize(stimuli[t]);
    }
    std::rethrow_exception(e);
  }
  prepared_ = false;
}

void Kernel::connect_on_thread(const ConnectRequest& r, int thread, uint32_t call) {
  ThreadState& ts = threads_[size_t(thread)];
  ConnectionSink sink(*this, ts, r, call);
  const std::vector<uint32_t>& pre = r.sources;
  const std::vector<uint32_t>& post = r.targets;
  const size_t n_pre = pre.size(), n_post = post.size();
  const std::vector<uint32_t> mine = thread_positions(post, ts);
  auto lid = [&](uint32_t gid) { return lid_of(gid); };
  auto local = [&](uint32_t gid) { return is_local(gid, thread); };

  // Draws `count` sources for target position p without autapses/multapses as requested.
  std::vector<uint8_t> taken(r.allow_multapses ? 0 : n_pre, 0);
  std::vector<uint32_t> chosen;
  auto draw_sources = [&](size_t p, uint64_t count) {
    const uint32_t tgt = post[p];
    SequentialStream partners(Stream(seed_, Purpose::connect_partner, call, tgt));
    chosen.clear();
    for (uint64_t i = 0; chosen.size() < count; ++i) {
      const uint32_t j = uint32_t(partners.below(i, n_pre));
      if (!r.allow_autapses && pre[j] == tgt) continue;
      if (!r.allow_multapses) {
        if (taken[j]) continue;
        taken[j] = 1;
      }
      chosen.push_back(j);
    }
    for (uint32_t j : chosen) {
      if (!r.allow_multapses) taken[j] = 0;
    }
    return chosen;
  };

  if (r.spatial) {
    size_t last = SIZE_MAX;  // consecutive connections mostly share their target
    uint32_t last_lid = 0;
    r.spatial->connect(mine, [&](size_t p) { return local(post[p]); }, pre, post, r.allow_autapses,
                       r.allow_multapses, seed_, call, [&](size_t j, size_t p, double w, double d) {
                         if (p != last) last = p, last_lid = lid(post[p]);
                         sink.add_value(pre[j], post[p], last_lid, w, d);
                       });
  } else if (r.rule == "one_to_one") {
    for (uint32_t p : mine)
      if (r.allow_autapses || pre[p] != post[p]) sink.add(pre[p], post[p], lid(post[p]), post[p], 0, p);
  } else if (r.rule == "all_to_all") {
    for (uint32_t p : mine) {
      const uint32_t target_lid = lid(post[p]);
      for (size_t j = 0; j < n_pre; ++j)
        if (r.allow_autapses || pre[j] != post[p]) sink.add(pre[j], post[p], target_lid, post[p], j, p * n_pre + j);
    }
  } else if (r.rule == "fixed_indegree") {
    for (uint32_t p : mine) {
      const uint64_t degree = r.degrees.empty() ? uint64_t(r.degree) : uint64_t(r.degrees[p]);
      const auto& sources = draw_sources(p, degree);
      const uint32_t target_lid = lid(post[p]);
      for (size_t k = 0; k < sources.size(); ++k)
        sink.add(pre[sources[k]], post[p], target_lid, post[p], k, r.degrees.empty() ? p * degree + k : 0);
    }
  } else if (r.rule == "fixed_outdegree") {
    // Every thread draws every source's targets and keeps its own: the price of keying the
    // choice by source, which keeps the network independent of the thread count.
    std::vector<uint8_t> hit(r.allow_multapses ? 0 : n_post, 0);
    std::vector<uint32_t> picked;
    for (size_t q = 0; q < n_pre; ++q) {
      SequentialStream partners(Stream(seed_, Purpose::connect_partner, call, pre[q]));
      picked.clear();
      for (uint64_t i = 0; picked.size() < uint64_t(r.degree); ++i) {
        const uint32_t j = uint32_t(partners.below(i, n_post));
        if (!r.allow_autapses && post[j] == pre[q]) continue;
        if (!r.allow_multapses) {
          if (hit[j]) continue;
          hit[j] = 1;
        }
        picked.push_back(j);
      }
      for (size_t k = 0; k < picked.size(); ++k) {
        const uint32_t j = picked[k];
        if (!r.allow_multapses) hit[j] = 0;
        if (local(post[j])) sink.add(pre[q], post[j], lid(post[j]), pre[q], k, q * uint64_t(r.degree) + k);
      }
    }
  } else if (r.rule == "fixed_total_number") {
    // The number of connections of each target is drawn identically on every thread
    // (a multinomial by sequential uniform choice); then each thread draws the sources of
    // its own targets as fixed_indegree does.
    std::vector<uint64_t> count(n_post, 0);
    SequentialStream targets(Stream(seed_, Purpose::connect_count, call, 0));
    std::vector<uint8_t> in_pre(n_post, 0);
    for (size_t p = 0; p < n_post; ++p) in_pre[p] = std::binary_search(pre.begin(), pre.end(), post[p]);
    for (uint64_t i = 0, made = 0; made < uint64_t(r.degree); ++i) {
      const size_t p = size_t(targets.below(i, n_post));
      const uint64_t cap = n_pre - (!r.allow_autapses && in_pre[p] ? 1 : 0);
      if (!r.allow_multapses && count[p] >= cap) continue;
      ++count[p];
      ++made;
    }
    for (uint32_t p : mine) {
      const auto& sources = draw_sources(p, count[p]);
      const uint32_t target_lid = lid(post[p]);
      for (size_t k = 0; k < sources.size(); ++k) sink.add(pre[sources[k]], post[p], target_lid, post[p], k, 0);
    }
  } else if (r.rule == "pairwise_bernoulli") {
    for (uint32_t p : mine) {
      const Stream coins(seed_, Purpose::connect_partner, call, post[p]);
      const uint32_t target_lid = lid(post[p]);
      uint64_t made = 0;
      for (size_t j = 0; j < n_pre; ++j) {
        if (coins.uniform(j) >= r.p) continue;
        if (!r.allow_autapses && pre[j] == post[p]) continue;
        sink.add(pre[j], post[p], target_lid, post[p], made++, 0);
      }
    }
  } else {
    throw std::invalid_argument("unknown connection rule: " + r.rule);
  }
}

void Kernel::connect_spike_recorder(uint32_t recorder, const std::vector<uint32_t>& sources) {
  place_areas();
  const uint32_t d = uint32_t(&device_of(recorder) - devices_.data());
  std::vector<Local> found;
  for (uint32_t gid : sources) {  // all are checked before anything changes
    Local p{};
    if (locate(gid, p)) found.push_back(p);
  }
  for (const Local& p : found) {
    NeuronGroup& g = threads_[size_t(p.thread)].groups[p.group];
    g.spike_recorders.resize(g.size());
    g.spike_recorders[p.index].push_back(d);
  }
  prepared_ = false;
}

void Kernel::connect_multimeter(uint32_t multimeter, const std::vector<uint32_t>& targets) {
  place_areas();
  const Device& mm = device_of(multimeter);
  const uint32_t d = uint32_t(&mm - devices_.data());
  std::vector<std::pair<Local, std::vector<int>>> probes;
  for (uint32_t gid : targets) {
    Local p{};
    const bool here = locate(gid, p);
    const NeuronModel* model = range_of(gid).model;
    std::vector<int> vars;
    for (const std::string& name : mm.record_from) {
      const int v = model->index_of(name);
      if (v < 0)
        throw std::invalid_argument("record_from: " + std::string(model->name()) + " has no variable " + name);
      vars.push_back(v);
    }
    if (here) probes.emplace_back(p, std::move(vars));
  }
  for (auto& [p, vars] : probes)
    threads_[size_t(p.thread)].groups[p.group].probes.push_back({p.index, d, std::move(vars)});
  prepared_ = false;
}

}  // namespace ranvier
