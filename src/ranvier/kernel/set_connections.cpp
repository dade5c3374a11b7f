// SynapseCollection.set: new weights or record parameters for single connections. A column a
// whole run shared becomes per connection first.
#include <map>
#include <tuple>

#include "core/errors.hpp"
#include "kernel/kernel.hpp"

namespace ranvier {

void Kernel::set_connections(const ConnectionList& which, const std::vector<uint32_t>& multapse,
                             const std::string& parameter, const std::vector<double>& values) {
  prepare();
  if (values.size() != which.source.size() || multapse.size() != which.source.size())
    throw BadParameterError(parameter + " needs one value per connection, got " + std::to_string(values.size()) +
                            " for " + std::to_string(which.source.size()));
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;  // source, target, synapse, multapse
  std::map<Key, double> wanted;
  for (size_t i = 0; i < values.size(); ++i) {
    if (which.synapse[i] >= synapse_models_.size())
      throw BadParameterError("unknown synapse model id " + std::to_string(which.synapse[i]));
    wanted[{which.source[i], which.target[i], which.synapse[i], multapse[i]}] = values[i];
  }
  // Where each value goes: the record slot of the parameter in its model (-1: the weight).
  auto slot_of = [&](const SynapseModel& m) {
    if (parameter == "weight") {
      if (m.base->common_weight)
        throw BadParameterError("the weight of " + m.name + " is common to its connections; set it with SetDefaults");
      return -1;
    }
    const std::vector<std::string> names = m.base->record_parameters();
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == parameter) return int(i);
    throw UnknownParameterError(m.name + " connections have no settable parameter " + parameter);
  };
  const std::vector<int> slot = [&] {
    std::vector<int> out(synapse_models_.size(), -2);
    for (const auto& [key, value] : wanted) {
      const uint32_t syn = std::get<2>(key);
      if (out[syn] == -2) out[syn] = slot_of(synapse_models_[syn]);
    }
    return out;
  }();
  // Visits each listed connection of this rank: (model, table, run, position, value).
  auto visit = [&](auto apply) {
    for (ThreadState& ts : threads_)
      for (auto* tables : {&ts.tables, &ts.long_tables})
        for (size_t syn = 0; syn < tables->size(); ++syn) {
          ConnectionTable& table = (*tables)[syn];
          if (slot[syn] == -2 || table.size() == 0) continue;
          for (size_t i = 0; i < table.sources().size(); ++i) {
            const SourceRange r = table.range_at(i);
            std::map<uint32_t, uint32_t> multapse;
            for (size_t k = r.begin; k < r.end; ++k) {
              const uint32_t t = ts.input_gid[table.targets()[k]];
              const auto it = wanted.find({table.sources()[i], t, uint32_t(syn), multapse[t]++});
              if (it != wanted.end()) apply(synapse_models_[syn], table, i, k, it->second, slot[syn]);
            }
          }
        }
  };
  // First check every value (all or nothing), then set them.
  visit([&](const SynapseModel& m, ConnectionTable& table, size_t run, size_t k, double v, int at) {
    const size_t width = table.records().width();
    std::vector<double> record(table.records().at(run, k), table.records().at(run, k) + width);
    if (at >= 0) {
      const int i = m.base->index_of(parameter);
      const SynapseParameter& p = m.base->parameters[size_t(i)];
      if (std::isnan(v) || (p.valid && !p.valid(v))) throw bad_value(parameter, v, p.rule);
      record[size_t(at)] = v;
      if (m.base->check) m.base->check(record.data());
    } else {
      if (std::isnan(v)) throw bad_value("weight", v, "a number");
      if (m.base->check_weight) m.base->check_weight(v, m, record.data());
    }
  });
  visit([&](const SynapseModel&, ConnectionTable& table, size_t run, size_t k, double v, int at) {
    if (at >= 0) {
      table.expand_records();
      table.records().run(run, k)[at] = v;  // per connection now: the record of connection k
    } else {
      table.expand_weights();
      table.weights().run(run, k)[0] = v;
    }
  });
}

}  // namespace ranvier
