#include "synapses/connection_table.hpp"

#include "synapses/run_order.hpp"

namespace ranvier {

size_t ConnectionTable::bytes() const {
  return sources_.capacity() * sizeof(uint32_t) + offsets_.bytes() + target_.capacity() * sizeof(uint32_t) +
         weight_.bytes() + delay_.bytes() + records_.bytes();
}

void ConnectionTable::erase(const std::vector<size_t>& positions) {
  model_count_ = -1;
  std::vector<uint8_t> keep_connection(size(), 1), keep_run(sources_.size(), 0);
  for (size_t k : positions) keep_connection[k] = 0;
  std::vector<uint32_t> sources;
  RunOffsets offsets;
  offsets.push_back(0);
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
  sources.shrink_to_fit();
  offsets.finish();
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

// Whether every run of a column shares one value, and those values by run.
template <class T>
struct SharedByRun {
  explicit SharedByRun(bool check) : shared(check) {}
  std::vector<T> value;
  bool shared;
};

}  // namespace

// Two passes over the staging, a block of sources at a time. The first counts each source's
// connections (its run) and finds the weights, delays and records that all of a source's
// connections share: those are kept once per source and never scattered. The second places
// the block's connections into its stretch of the table (a stable counting sort within the
// block) and frees the block, so the table grows as the staging shrinks. Within a run the
// existing connections come first, then the staged ones in staging order; where delays are
// kept per connection, each run is then ordered by delay and target (synapses/run_order.hpp).
void ConnectionTable::finalize() {
  const size_t n_new = staging_.size();
  if (n_new == 0) return;
  model_count_ = -1;
  const size_t total = size() + n_new;
  const size_t width = records_.width();
  const bool has_records = width > 0, may_share = has_records && !own_records_;
  constexpr unsigned bits = ConnectionStaging::block_bits;
  constexpr size_t span = ConnectionStaging::block_span;
  staging_.group();
  const size_t n_blocks =
      std::max(staging_.n_blocks(), sources_.empty() ? size_t(0) : size_t(sources_.back() >> bits) + 1);

  // Runs of the existing connections from block b on.
  auto first_old_run = [&](size_t b) { return seek(uint32_t(b << bits), 0); };
  auto empty = [&](size_t b) {
    const size_t old = first_old_run(b);
    return staging_.block_size(b) == 0 && (old == sources_.size() || (sources_[old] >> bits) != b);
  };
  // Calls visit(slot, target, weight, delay, record) for the connections of block b, the
  // existing ones first.
  auto visit_block = [&](size_t b, auto&& visit) {
    for (size_t run = first_old_run(b); run < sources_.size() && (sources_[run] >> bits) == b; ++run) {
      const uint8_t slot = uint8_t(sources_[run] & (span - 1));
      for (size_t k = offsets_[run]; k < offsets_[run + 1]; ++k)
        visit(slot, target_[k], weight_.at(run, k), delay_.at(run, k),
              RecordRef{has_records ? records_.at(run, k) : nullptr, width});
    }
    staging_.visit(b, [&](uint8_t slot, uint32_t t, double w, uint16_t d, uint32_t record) {
      visit(slot, t, w, d, RecordRef{has_records ? initial_records_.data() + size_t(record) * width : nullptr, width});
    });
  };

  // The runs' columns are reserved once, for as many runs as there can be (exactly as many
  // for a list), so they never grow by copies: one rank of many has about a run per
  // connection, and copies would double the peak of preparation.
  const size_t most_runs = sources_.size() + staging_.most_sources();
  std::vector<uint32_t> sources;
  RunOffsets offsets;
  sources.reserve(most_runs);
  offsets.reserve(most_runs + 1);
  offsets.push_back(0);
  std::vector<size_t> block_runs(n_blocks + 1, 0);  // the first run of each block
  SharedByRun<double> weights(true);
  SharedByRun<uint16_t> delays(true);
  if (!plastic_) weights.value.reserve(most_runs);  // plastic weights are kept per connection
  delays.value.reserve(most_runs);
  bool records_shared = may_share;
  std::vector<double> run_records;  // where runs share their records: the final column, one per run
  if (records_shared) run_records.reserve(most_runs * width);
  {
    std::vector<size_t> count(span);
    std::vector<double> w(span);
    std::vector<uint16_t> d(span);
    std::vector<RecordRef> rec(span);
    for (size_t b = 0; b < n_blocks; ++b) {
      block_runs[b] = sources.size();
      if (empty(b)) continue;
      std::fill(count.begin(), count.end(), 0);
      visit_block(b, [&](uint8_t slot, uint32_t, double weight, uint16_t delay, const RecordRef& r) {
        if (count[slot]++ == 0) {
          w[slot] = weight, d[slot] = delay, rec[slot] = r;
          return;
        }
        if (weights.shared && !(w[slot] == weight)) weights.shared = false;
        if (delays.shared && d[slot] != delay) delays.shared = false;
        if (records_shared && !(rec[slot] == r)) records_shared = false;
      });
      for (size_t slot = 0; slot < span; ++slot) {
        if (!count[slot]) continue;
        sources.push_back(uint32_t((b << bits) | slot));
        offsets.push_back(offsets.back() + count[slot]);
        if (!plastic_) weights.value.push_back(w[slot]);
        delays.value.push_back(d[slot]);
        if (records_shared) run_records.insert(run_records.end(), rec[slot].values, rec[slot].values + width);
      }
      if (!records_shared && run_records.capacity()) std::vector<double>().swap(run_records);
    }
    block_runs[n_blocks] = sources.size();
  }

  // Per-connection columns grow block by block (reserved, so their pages are written only
  // as the staging is freed).
  const bool weight_each = plastic_ || !weights.shared, delay_each = !delays.shared,
             record_each = has_records && !records_shared;
  std::vector<uint32_t> target;
  std::vector<double> weight, records;
  std::vector<uint16_t> delay;
  target.reserve(total);
  if (weight_each) weight.reserve(total);
  if (delay_each) delay.reserve(total);
  if (record_each) records.reserve(total * width);
  std::vector<size_t> next(span);
  RunOrder order;
  for (size_t b = 0; b < n_blocks; ++b) {
    const size_t r0 = block_runs[b], r1 = block_runs[b + 1];
    if (r0 == r1) continue;
    for (size_t run = r0; run < r1; ++run) next[sources[run] & (span - 1)] = offsets[run];
    const size_t end = offsets[r1];
    target.resize(end);
    if (weight_each) weight.resize(end);
    if (delay_each) delay.resize(end);
    if (record_each) records.resize(end * width);
    visit_block(b, [&](uint8_t slot, uint32_t t, double w, uint16_t d, const RecordRef& r) {
      const size_t at = next[slot]++;
      target[at] = t;
      if (weight_each) weight[at] = w;
      if (delay_each) delay[at] = d;
      if (record_each) std::copy_n(r.values, width, records.begin() + long(at * width));
    });
    if (b < staging_.n_blocks()) staging_.release(b);
    if (delay_each)  // while the block's stretch is in cache
      for (size_t run = r0; run < r1; ++run) {
        const size_t begin = offsets[run], n = offsets[run + 1] - begin;
        if (!order.sort(target.data() + begin, delay.data() + begin, n)) continue;
        order.apply(target.data() + begin, n);
        order.apply(delay.data() + begin, n);
        if (weight_each) order.apply(weight.data() + begin, n);
        if (record_each) order.apply(records.data() + begin * width, n, width);
      }
  }
  if (records_shared) records = std::move(run_records);
  staging_.clear();
  sources.shrink_to_fit();  // reserved for the most runs there could be
  offsets.finish();
  sources_ = std::move(sources);
  offsets_ = std::move(offsets);
  target_ = std::move(target);
  if (weights.shared && !plastic_)
    weight_.assign_per_source(std::move(weights.value));
  else
    weight_.assign_per_connection(std::move(weight));
  if (delays.shared)
    delay_.assign_per_source(std::move(delays.value));
  else
    delay_.assign_per_connection(std::move(delay));
  records.shrink_to_fit();
  records_.assign(std::move(records), records_shared);
  initial_records_.clear();
}

void ConnectionTable::set_delays(const std::vector<std::pair<size_t, uint16_t>>& changes) {
  std::vector<uint16_t> all(size());
  for (size_t run = 0; run + 1 < offsets_.size(); ++run)
    for (size_t k = offsets_[run]; k < offsets_[run + 1]; ++k) all[k] = delay_.at(run, k);
  for (const auto& [k, steps] : changes) all[k] = steps;
  delay_.assign_per_connection(std::move(all));
}

}  // namespace ranvier
