#include "synapses/connection_table.hpp"

namespace ranvier {

size_t ConnectionTable::bytes() const {
  return sources_.capacity() * sizeof(uint32_t) + offsets_.capacity() * sizeof(size_t) +
         target_.capacity() * sizeof(uint32_t) + weight_.bytes() + delay_.bytes() + records_.bytes();
}

uint16_t ConnectionTable::max_delay() const {
  const std::vector<uint16_t>& d = delay_.values();
  return d.empty() ? 0 : *std::max_element(d.begin(), d.end());
}

uint16_t ConnectionTable::min_delay() const {
  const std::vector<uint16_t>& d = delay_.values();
  return d.empty() ? 0 : *std::min_element(d.begin(), d.end());
}

void ConnectionTable::erase(const std::vector<size_t>& positions) {
  std::vector<uint8_t> keep_connection(size(), 1), keep_run(sources_.size(), 0);
  for (size_t k : positions) keep_connection[k] = 0;
  std::vector<uint32_t> sources;
  std::vector<size_t> offsets(1, 0);
  size_t out = 0;
  for (size_t run = 0; run < sources_.size(); ++run) {
    for (size_t k = offsets_[run]; k < offsets_[run + 1]; ++k)
      if (keep_connection[k]) target_[out++] = target_[k];
    if (out == offsets.back()) continue;  // the source has no connection left here
    keep_run[run] = 1;
    sources.push_back(sources_[run]);
    offsets.push_back(out);
  }
  target_.resize(out);
  sources_ = std::move(sources);
  offsets_ = std::move(offsets);
  weight_.keep(keep_run, keep_connection);
  delay_.keep(keep_run, keep_connection);
  records_.keep(keep_run, keep_connection);
}

namespace {

// A connection's record, compared by value (it points into the old column or the initial
// records, both alive while a table is finalised).
struct RecordRef {
  const double* values = nullptr;
  size_t width = 0;
  bool operator==(const RecordRef& o) const { return std::equal(values, values + width, o.values); }
};

// Whether every source's connections share one value of a column, and that value, by slot
// (a source's offset from the lowest source, or its run).
template <class T>
struct SharedBySource {
  SharedBySource(size_t slots, bool check) : value(check ? slots : 0), seen(check ? slots : 0), shared(check) {}
  void see(size_t slot, const T& v) {
    if (!shared) return;
    if (!seen[slot])
      seen[slot] = 1, value[slot] = v;
    else if (!(value[slot] == v))
      shared = false;
  }
  // From slots to runs: value[run] = value[slot_of_run[run]] (slots ascend, never below runs).
  void to_runs(const std::vector<uint32_t>& sources, uint32_t lo) {
    if (!shared) return;
    for (size_t run = 0; run < sources.size(); ++run) value[run] = value[sources[run] - lo];
    value.resize(sources.size());
  }
  std::vector<T> value;
  std::vector<uint8_t> seen;
  bool shared;
};

}  // namespace

void ConnectionTable::finalize() {
  const size_t n_new = staging_.size();
  if (n_new == 0) return;
  const size_t n_old = size(), total = n_old + n_new;
  uint32_t lo = staging_.min_source(), hi = staging_.max_source();
  for (uint32_t src : sources_) lo = std::min(lo, src), hi = std::max(hi, src);
  const bool plastic = plastic_;
  const size_t width = records_.width();
  const bool has_records = width > 0;

  // Connection k: the old ones first (in table order), then the staged ones.
  struct Item {
    uint32_t source, target;
    double weight;
    uint16_t delay;
    RecordRef record;
  };
  std::vector<uint32_t> old_run(n_old);
  for (size_t i = 0; i < sources_.size(); ++i)
    std::fill(old_run.begin() + long(offsets_[i]), old_run.begin() + long(offsets_[i + 1]), uint32_t(i));
  auto staged = [&](const StagedConnection& c) {
    return Item{c.source, c.target, c.weight, uint16_t(c.delay),
                {has_records ? initial_records_.data() + size_t(c.record) * width : nullptr, width}};
  };
  auto item = [&](size_t k) {
    if (k >= n_old) return staged(staging_[k - n_old]);
    const size_t run = old_run[k];
    return Item{sources_[run], target_[k], weight_.at(run, k), delay_.at(run, k),
                {has_records ? records_.at(run, k) : nullptr, width}};
  };
  // Visits every connection in order of k, a staged chunk at a time (releasing each when
  // asked, so that placing keeps the peak near one copy of the connections).
  auto for_each = [&](bool release, auto visit) {
    for (size_t k = 0; k < n_old; ++k) visit(item(k));
    for (size_t c = 0; c < staging_.chunk_count(); ++c) {
      const StagedConnection* chunk = staging_.chunk(c);
      const size_t n = std::min(ConnectionStaging::chunk_size, n_new - c * ConnectionStaging::chunk_size);
      for (size_t i = 0; i < n; ++i) visit(staged(chunk[i]));
      if (release) staging_.release_chunk(c);
    }
  };

  // The runs: a stable counting sort for dense sources; for sparse ones (a few connections
  // each from a huge gid range, as on one rank of many) sorted (source, k) keys, so memory
  // follows the connections. Weights, delays and plastic state that all of a source's
  // connections share are found on the way: they are kept once per source and never
  // scattered (plastic weights drift apart, so shared ones are spread over their runs).
  std::vector<uint32_t> sources;
  std::vector<size_t> offsets(1, 0);
  const bool dense = size_t(hi - lo) < 4 * total + 1024;
  const size_t slots = dense ? size_t(hi - lo) + 1 : 0;  // sparse: the runs, known after sorting
  SharedBySource<double> weights(slots, true);
  SharedBySource<uint16_t> delays(slots, true);
  SharedBySource<RecordRef> record(slots, has_records);
  auto see = [&](size_t slot, const Item& c) {
    weights.see(slot, c.weight);
    delays.see(slot, c.delay);
    record.see(slot, c.record);
  };
  std::vector<size_t> next;    // dense: next position of each source
  std::vector<uint64_t> keys;  // sparse
  if (dense) {
    next.assign(slots + 1, 0);
    for_each(false, [&](const Item& c) {
      ++next[c.source - lo + 1];
      see(c.source - lo, c);
    });
    for (size_t i = 1; i < next.size(); ++i) next[i] += next[i - 1];
    for (size_t i = 0; i < slots; ++i)
      if (next[i + 1] > next[i]) sources.push_back(lo + uint32_t(i)), offsets.push_back(next[i + 1]);
    weights.to_runs(sources, lo);
    delays.to_runs(sources, lo);
    record.to_runs(sources, lo);
  } else {
    keys.reserve(total);
    for (size_t k = 0; k < total; ++k) keys.push_back((uint64_t(item(k).source) << 32) | k);
    std::sort(keys.begin(), keys.end());
    for (size_t at = 0; at < total; ++at) {
      const uint32_t src = uint32_t(keys[at] >> 32);
      if (sources.empty() || sources.back() != src) {
        if (!sources.empty()) offsets.push_back(at);
        sources.push_back(src);
      }
    }
    offsets.push_back(total);
    weights = SharedBySource<double>(sources.size(), true);
    delays = SharedBySource<uint16_t>(sources.size(), true);
    record = SharedBySource<RecordRef>(sources.size(), has_records);
    for (size_t run = 0, at = 0; at < total; ++at) {
      if (at == offsets[run + 1]) ++run;
      see(run, item(keys[at] & 0xffffffffu));
    }
  }

  std::vector<uint32_t> target(total);
  std::vector<double> weight(weights.shared ? 0 : total);
  std::vector<uint16_t> delay(delays.shared ? 0 : total);
  std::vector<double> records(has_records && !record.shared ? total * width : 0);
  auto place = [&](size_t at, const Item& c) {
    target[at] = c.target;
    if (!weights.shared) weight[at] = c.weight;
    if (!delays.shared) delay[at] = c.delay;
    if (!records.empty()) std::copy_n(c.record.values, width, records.begin() + long(at * width));
  };
  if (dense)
    for_each(true, [&](const Item& c) { place(next[c.source - lo]++, c); });
  else
    for (size_t at = 0; at < total; ++at) place(at, item(keys[at] & 0xffffffffu));
  if (record.shared) {  // one record per run, copied before the old column goes
    records.reserve(sources.size() * width);
    for (const RecordRef& r : record.value) records.insert(records.end(), r.values, r.values + width);
  }
  staging_.clear();
  sources_ = std::move(sources);
  offsets_ = std::move(offsets);
  target_ = std::move(target);
  auto keep = [](auto& column, auto& shared, auto& per_connection) {
    if (shared.shared)
      column.assign_per_source(std::move(shared.value));
    else
      column.assign_per_connection(std::move(per_connection));
  };
  if (plastic && weights.shared) {  // plastic weights drift apart: filled run by run, not scattered
    weight.resize(total);
    for (size_t run = 0; run < sources_.size(); ++run)
      std::fill(weight.begin() + long(offsets_[run]), weight.begin() + long(offsets_[run + 1]), weights.value[run]);
    weights.shared = false;
  }
  keep(weight_, weights, weight);
  keep(delay_, delays, delay);
  records_.assign(std::move(records), record.shared);
  initial_records_.clear();
}

}  // namespace ranvier
