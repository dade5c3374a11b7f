// A registry of named things (neuron models, devices, synapse models, connection rules,
// exchange methods): each registers itself from its own file with one line, so adding one
// touches no list elsewhere. The kernel and Python look them up by name.
#pragma once
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace ranvier {

template <typename Entry>
class Registry {
 public:
  // The one registry of this kind (built on first use, so registrations from other files'
  // static initialisers are safe whatever their order).
  static Registry& instance() {
    static Registry registry;
    return registry;
  }
  // Registers entry under name; returns true so it can initialise a static. A second entry
  // of one name is a programming error, refused (at load time: two files registering alike).
  bool add(const std::string& name, Entry entry) {
    if (!entries_.emplace(name, std::move(entry)).second) throw std::logic_error("registered twice: " + name);
    return true;
  }
  const Entry* find(const std::string& name) const {
    const auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }
  // The entry of name; `what` names the kind in the error ("neuron model", "connection rule").
  const Entry& at(const std::string& name, const char* what) const {
    const Entry* e = find(name);
    if (!e) throw UnknownModelError(std::string("unknown ") + what + ": " + name);
    return *e;
  }
  std::vector<std::string> names() const {  // sorted
    std::vector<std::string> out;
    for (const auto& [name, entry] : entries_) out.push_back(name);
    return out;
  }

 private:
  std::map<std::string, Entry> entries_;
};

}  // namespace ranvier
