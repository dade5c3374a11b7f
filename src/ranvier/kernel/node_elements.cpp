// Neurons' synaptic elements (NEST's synaptic_elements, models/synaptic_elements.hpp): read
// (gathered from their ranks), set (all or nothing), and counted as Connect and Disconnect make
// and remove synapses that join them.
#include <algorithm>
#include <cstring>

#include "core/errors.hpp"
#include "kernel/local_network.hpp"

namespace ranvier {

SynapticElement* LocalNetwork::synaptic_element(uint32_t gid, const std::string& name) {
  Local p{};
  if (is_device(gid) || !locate(gid, p)) return nullptr;
  return threads_[size_t(p.thread)].groups[p.group].structural.element(p.index, name);
}

void LocalNetwork::set_synaptic_elements(const std::vector<uint32_t>& gids, const ElementValues& values, bool replace) {
  place_areas();
  for (NodeRange* range : target_ranges(gids))
    if (!range->model || range->model->calcium_index() < 0)
      throw UnknownParameterError((range->model ? std::string(range->model->name()) : "a device") +
                                  " has no parameter synaptic_elements (only NEST's archiving neurons have)");
  for (const auto& [name, given] : values) {  // every rank checks what it can without the neurons
    SynapticElement probe;
    probe.name = name;
    probe.set(given);
  }
  // each neuron's new elements, checked, before any neuron changes
  std::vector<std::pair<NeuronGroup*, uint32_t>> local;
  std::vector<std::vector<SynapticElement>> next;
  for (uint32_t gid : gids) {
    Local p{};
    if (!locate(gid, p)) continue;
    NeuronGroup& g = threads_[size_t(p.thread)].groups[p.group];
    std::vector<SynapticElement> elements =
        g.structural.has_elements() ? g.structural.elements[p.index] : std::vector<SynapticElement>{};
    if (replace) elements.clear();
    for (const auto& [name, given] : values) {
      auto it =
          std::find_if(elements.begin(), elements.end(), [&](const SynapticElement& e) { return e.name == name; });
      if (it == elements.end()) {
        if (!replace) continue;  // NEST's synaptic_elements_param changes the elements a neuron has
        SynapticElement fresh;
        fresh.name = name;
        it =
            elements.insert(std::lower_bound(elements.begin(), elements.end(), name,
                                             [](const SynapticElement& e, const std::string& n) { return e.name < n; }),
                            fresh);
      }
      it->set(given);
    }
    local.emplace_back(&g, p.index);
    next.push_back(std::move(elements));
  }
  for (size_t k = 0; k < local.size(); ++k) {
    auto& [g, i] = local[k];
    if (!g->structural.has_elements()) g->structural.elements.resize(g->size());
    g->structural.elements[i] = std::move(next[k]);
  }
}

std::vector<LocalNetwork::ElementValues> LocalNetwork::get_synaptic_elements(const std::vector<uint32_t>& gids) {
  place_areas();
  for (uint32_t gid : gids)
    if (const NodeRange& r = range_of(gid); !r.model || r.model->calcium_index() < 0)
      throw UnknownParameterError((r.model ? std::string(r.model->name()) : "a device") +
                                  " has no parameter synaptic_elements");
  std::vector<uint8_t> mine;  // (position in gids, its element count, its elements) of each local node
  for (uint64_t k = 0; k < gids.size(); ++k) {
    Local p{};
    if (!locate(gids[k], p)) continue;
    const StructuralState& s = threads_[size_t(p.thread)].groups[p.group].structural;
    const uint64_t n = s.has_elements() ? s.elements[p.index].size() : 0;
    append_bytes(mine, &k, 1);
    append_bytes(mine, &n, 1);
    for (uint64_t e = 0; e < n; ++e) s.elements[p.index][e].append_to(mine);
  }
  std::vector<size_t> counts;
  const std::vector<uint8_t> all =
      comm_->size() > 1 && same_on_all_ranks(gids) ? comm_->allgatherv(mine, counts) : mine;
  std::vector<ElementValues> out(gids.size());
  for (const uint8_t* p = all.data(); p < all.data() + all.size();) {
    uint64_t header[2];
    std::memcpy(header, p, sizeof header);
    p += sizeof header;
    for (uint64_t e = 0; e < header[1]; ++e) {
      const SynapticElement element = SynapticElement::read_from(p);
      out[header[0]][element.name] = element.get();
    }
  }
  return out;
}

void LocalNetwork::connect_synaptic_elements(const std::vector<uint32_t>& gids, const std::vector<int64_t>& n,
                                             const std::string& name) {
  for (size_t k = 0; k < gids.size(); ++k)
    if (SynapticElement* e = synaptic_element(gids[k], name)) e->connect(n[k]);
}

}  // namespace ranvier
