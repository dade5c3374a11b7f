// NEST's multimeter: samples the variables record_from names (none by default) of neurons, or
// the recordable of a generator (a current generator's I).
#include "devices/sampler.hpp"

namespace ranvier {
namespace {

class Multimeter final : public Sampler {
 public:
  const char* name() const override { return "multimeter"; }
  std::vector<std::string> default_record_from() const override { return {}; }
};

RANVIER_REGISTER_RECORDER(Multimeter);

}  // namespace
}  // namespace ranvier
