#include "kernel/structural_plasticity.hpp"

#include <algorithm>
#include <cmath>

#include "core/rng.hpp"
#include "synapses/synapse_model.hpp"

namespace ranvier {

namespace {

// A neuron's count of elements (vacant > 0, or synapses to remove < 0), or a connection
// (source, target): two words that travel between ranks as they are.
struct Pair {
  int64_t first, second;
  bool operator<(const Pair& o) const { return first != o.first ? first < o.first : second < o.second; }
};

// Every rank's pairs, in order.
std::vector<Pair> gathered(Communicator& comm, const std::vector<Pair>& mine) {
  std::vector<uint8_t> bytes;
  append_bytes(bytes, mine.data(), mine.size());
  std::vector<size_t> counts;
  const std::vector<uint8_t> all = comm.size() > 1 ? comm.allgatherv(bytes, counts) : bytes;
  std::vector<Pair> out = from_bytes<Pair>(all.data(), all.size());
  std::stable_sort(out.begin(), out.end());
  return out;
}

// The network's neurons with an element `name`: (gid, vacant) where some are vacant, and
// (gid, -to remove) where synapses must go, by node id.
struct ElementCounts {
  std::vector<Pair> vacant, deleted;
};

ElementCounts counts(LocalNetwork& net, Communicator& comm, const std::string& name) {
  ElementCounts mine;
  for (ThreadState& ts : net.threads())
    for (NeuronGroup& g : ts.groups)
      for (size_t i = 0; g.structural.has_elements() && i < g.size(); ++i)
        if (const SynapticElement* e = g.structural.element(i, name)) {
          const int64_t n = e->vacant();
          if (n != 0) (n > 0 ? mine.vacant : mine.deleted).push_back({g.gids[i], n});
        }
  return {gathered(comm, mine.vacant), gathered(comm, mine.deleted)};
}

// The network's connections of the synapse model between neurons from the given sources or to
// the given targets (ascending), as (source, target) in that order; with `post`, only those
// whose target has a nonzero number of that element (NEST's rule for the targets a source loses).
std::vector<Pair> connections(LocalNetwork& net, Communicator& comm, const std::vector<uint32_t>* sources,
                              const std::vector<uint32_t>* targets, uint32_t synapse, const std::string* post) {
  net.finalize_tables();
  const ConnectionList c = net.get_connections(sources, targets, int(synapse), true);
  std::vector<Pair> mine;
  for (size_t k = 0; k < c.source.size(); ++k) {
    if (net.is_device(c.source[k]) || net.is_device(c.target[k])) continue;
    if (post) {
      const SynapticElement* e = net.synaptic_element(c.target[k], *post);
      if (!e || e->value() == 0.0) continue;
    }
    mine.push_back({c.source[k], c.target[k]});
  }
  return gathered(comm, mine);
}

// Moves k of v's entries, drawn at random without repeats, to its front in the order drawn.
template <class T>
void draw_front(std::vector<T>& v, size_t k, const Stream& stream, uint64_t& index) {
  for (size_t i = 0; i < k; ++i) std::swap(v[i], v[i + stream.below(index++, v.size() - i)]);
}

// Which connections each neuron with too few elements loses: as many of its connections as it
// must lose, drawn at random; the neuron is each connection's target where by_target, else its source.
std::vector<Pair> doomed(const std::vector<Pair>& deleted, std::vector<Pair> conns, bool by_target,
                         const Stream& stream) {
  if (by_target)
    for (Pair& p : conns) std::swap(p.first, p.second);
  std::stable_sort(conns.begin(), conns.end());
  std::vector<Pair> out;
  uint64_t index = 0;
  for (const Pair& d : deleted) {
    auto begin = std::lower_bound(conns.begin(), conns.end(), Pair{d.first, INT64_MIN});
    auto end = std::lower_bound(begin, conns.end(), Pair{d.first + 1, INT64_MIN});
    std::vector<Pair> own(begin, end);
    const size_t k = std::min(size_t(-d.second), own.size());
    draw_front(own, k, stream, index);
    for (size_t i = 0; i < k; ++i) out.push_back(by_target ? Pair{own[i].second, own[i].first} : own[i]);
  }
  return out;
}

// Removes those connections (one each; a pair drawn twice loses two multapses) and frees
// their elements.
void remove_connections(LocalNetwork& net, std::vector<Pair> pairs, const StructuralSynapse& s) {
  std::sort(pairs.begin(), pairs.end());
  ConnectionList which;
  std::vector<uint32_t> multapse;
  for (size_t k = 0; k < pairs.size(); ++k) {
    which.source.push_back(uint32_t(pairs[k].first));
    which.target.push_back(uint32_t(pairs[k].second));
    which.synapse.push_back(s.synapse);
    multapse.push_back(k > 0 && !(pairs[k - 1] < pairs[k]) ? multapse.back() + 1 : 0);
  }
  net.disconnect(which, multapse);
  for (const Pair& p : pairs) {
    if (SynapticElement* e = net.synaptic_element(uint32_t(p.first), s.pre)) e->connect(-1);
    if (SynapticElement* e = net.synaptic_element(uint32_t(p.second), s.post)) e->connect(-1);
  }
}

// Each neuron's id once per vacant element, by node id.
std::vector<uint32_t> elements_of(const std::vector<Pair>& vacant) {
  std::vector<uint32_t> out;
  for (const Pair& p : vacant) out.insert(out.end(), size_t(p.second), uint32_t(p.first));
  return out;
}

// Pairs the vacant elements as NEST does: all of the scarcer side, with as many of the other
// drawn at random.
void create(LocalNetwork& net, const ElementCounts& pre, const ElementCounts& post, const StructuralSynapse& s,
            const Stream& stream) {
  std::vector<uint32_t> sources = elements_of(pre.vacant), targets = elements_of(post.vacant);
  if (sources.empty() || targets.empty()) return;
  uint64_t index = 0;
  std::vector<uint32_t>& more = sources.size() > targets.size() ? sources : targets;
  const size_t n = std::min(sources.size(), targets.size());
  draw_front(more, n, stream, index);
  more.resize(n);
  ConnectRequest r;
  r.rule = "one_to_one";
  r.synapse = s.synapse;
  r.weight.p0 = s.weight;
  r.delay.p0 = s.delay;
  std::vector<uint32_t> from, to;
  for (size_t k = 0; k < n; ++k)
    if (s.allow_autapses || sources[k] != targets[k]) {
      from.push_back(sources[k]);
      to.push_back(targets[k]);
    }
  if (from.empty()) return;
  r.sources = std::move(from), r.targets = std::move(to);
  net.connect(r);
  for (size_t k = 0; k < r.sources.size(); ++k) {
    if (SynapticElement* e = net.synaptic_element(r.sources[k], s.pre)) e->connect(1);
    if (SynapticElement* e = net.synaptic_element(r.targets[k], s.post)) e->connect(1);
  }
}

std::vector<uint32_t> gids_of(const std::vector<Pair>& v) {
  std::vector<uint32_t> out;
  for (const Pair& p : v) out.push_back(uint32_t(p.first));
  return out;
}

}  // namespace

void StructuralPlasticity::set_synapses(std::vector<StructuralSynapse> synapses) {
  std::sort(synapses.begin(), synapses.end(),
            [](const StructuralSynapse& a, const StructuralSynapse& b) { return a.name < b.name; });
  synapses_ = std::move(synapses);
}

DelayExtrema StructuralPlasticity::delays(double h) const {
  DelayExtrema out;
  for (const StructuralSynapse& s : synapses_) out.add(int64_t(std::llround(s.delay / h)));
  return out;
}

void StructuralPlasticity::advance_all(LocalNetwork& net, double t, double h) {
  for (ThreadState& ts : net.threads())
    for (NeuronGroup& g : ts.groups)
      if (g.structural.calcium >= 0)
        for (size_t i = 0; i < g.size(); ++i) g.structural.advance(g, i, t, h);
}

void StructuralPlasticity::update(LocalNetwork& net, Communicator& comm, int64_t step, double t, double h,
                                  uint32_t seed) const {
  advance_all(net, t, h);
  for (uint32_t k = 0; k < synapses_.size(); ++k) {
    const StructuralSynapse& s = synapses_[k];
    // one stream per synapse entry and phase, keyed by the update's step
    auto stream = [&](uint32_t phase) {
      return Stream(seed, Purpose::structural_plasticity, uint32_t(step),
                    (uint32_t(step >> 32) << 16) ^ (k << 2) ^ phase);
    };
    ElementCounts pre = counts(net, comm, s.pre);
    if (!pre.deleted.empty()) {
      const std::vector<uint32_t> sources = gids_of(pre.deleted);
      remove_connections(
          net, doomed(pre.deleted, connections(net, comm, &sources, nullptr, s.synapse, &s.post), false, stream(0)), s);
      pre = counts(net, comm, s.pre);
    }
    ElementCounts post = counts(net, comm, s.post);
    if (!post.deleted.empty()) {
      const std::vector<uint32_t> targets = gids_of(post.deleted);
      remove_connections(
          net, doomed(post.deleted, connections(net, comm, nullptr, &targets, s.synapse, nullptr), true, stream(1)), s);
      pre = counts(net, comm, s.pre);
      post = counts(net, comm, s.post);
    }
    create(net, pre, post, s, stream(2));
  }
  for (ThreadState& ts : net.threads())
    for (NeuronGroup& g : ts.groups)
      for (auto& elements : g.structural.elements)
        for (SynapticElement& e : elements) e.decay_vacant();
}

}  // namespace ranvier
