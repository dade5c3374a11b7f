// Area placement (placement = "area"): the Create calls of each area on ranks of their own,
// balanced by the cells' cost, placed together once all areas are known.
#include <algorithm>
#include <numeric>

#include "kernel/local_network.hpp"

namespace ranvier {

void LocalNetwork::place_areas() {
  struct Area {
    int64_t key;
    uint64_t size = 0;
    int rank_first = -1, rank_count = 0;
  };
  auto key_of = [](const NodeRange& r, size_t index) { return r.area >= 0 ? int64_t(r.area) : -int64_t(index) - 1; };
  std::vector<Area> areas;  // in order of creation
  auto find = [&](int64_t key) -> Area& {
    for (Area& a : areas)
      if (a.key == key) return a;
    areas.push_back({key});
    return areas.back();
  };
  bool pending = false, any_placed = false;
  const int m = placement_.ranks();
  std::vector<uint64_t> load(size_t(m), 0);
  for (size_t i = 0; i < ranges_.size(); ++i) {
    const NodeRange& r = ranges_[i];
    if (!r.model) continue;
    Area& a = find(key_of(r, i));
    if (r.placed) {
      any_placed = true;
      a.rank_first = r.layout.rank_first, a.rank_count = r.layout.rank_count;
      for (int k = 0; k < r.layout.rank_count; ++k)
        load[size_t(r.layout.rank_first + k)] += r.work(h_) / r.layout.rank_count;
    } else {
      pending = true;
      a.size += r.work(h_);
    }
  }
  if (!pending) return;
  std::vector<Area*> fresh;
  uint64_t fresh_total = 0;
  for (Area& a : areas)
    if (a.rank_first < 0) fresh.push_back(&a), fresh_total += a.size;
  if (!any_placed && int(fresh.size()) < m) {
    // More ranks than areas: each area gets consecutive ranks in proportion to its size
    // (at least one; largest remainders take the rest).
    std::vector<int> share(fresh.size());
    std::vector<std::pair<double, size_t>> remainders;
    int given = 0;
    for (size_t k = 0; k < fresh.size(); ++k) {
      const double exact = double(m) * double(fresh[k]->size) / double(std::max<uint64_t>(fresh_total, 1));
      share[k] = std::max(1, int(exact));
      given += share[k];
      remainders.push_back({exact - int(exact), k});
    }
    std::stable_sort(remainders.begin(), remainders.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (size_t k = 0; given < m; k = (k + 1) % remainders.size(), ++given) ++share[remainders[k].second];
    for (size_t k = fresh.size(); given > m && k-- > 0;)
      while (share[k] > 1 && given > m) --share[k], --given;
    int next = 0;
    for (size_t k = 0; k < fresh.size(); ++k) {
      fresh[k]->rank_first = next, fresh[k]->rank_count = share[k];
      for (int q = 0; q < share[k]; ++q) load[size_t(next + q)] += fresh[k]->size / uint64_t(share[k]);
      next += share[k];
    }
    area_color_ = 0;
    for (size_t k = 0; k < fresh.size(); ++k)
      if (rank_ >= fresh[k]->rank_first && rank_ < fresh[k]->rank_first + fresh[k]->rank_count) area_color_ = int(k);
  } else {
    // At least as many areas as ranks: whole areas, largest first, onto the least loaded rank.
    std::vector<Area*> by_size = fresh;
    std::stable_sort(by_size.begin(), by_size.end(), [](Area* a, Area* b) { return a->size > b->size; });
    for (Area* a : by_size) {
      const size_t r = size_t(std::min_element(load.begin(), load.end()) - load.begin());
      a->rank_first = int(r), a->rank_count = 1;
      load[r] += a->size;
    }
    if (!any_placed) area_color_ = rank_;  // every rank exchanges short-range spikes alone
  }
  const double mean = double(std::accumulate(load.begin(), load.end(), uint64_t(0))) / m;
  area_imbalance_ = mean > 0 ? double(*std::max_element(load.begin(), load.end())) / mean : 1.0;
  for (size_t i = 0; i < ranges_.size(); ++i) {
    NodeRange& r = ranges_[i];
    if (!r.model || r.placed) continue;
    const Area& a = find(key_of(r, i));
    r.layout.rank_first = a.rank_first, r.layout.rank_count = a.rank_count;
    r.placed = true;
    make_groups(r);
  }
  changed();
}

}  // namespace ranvier
