// NEST's voltmeter: a multimeter that records V_m by default.
#include "devices/sampler.hpp"

namespace ranvier {
namespace {

class Voltmeter final : public Sampler {
 public:
  const char* name() const override { return "voltmeter"; }
  std::vector<std::string> default_record_from() const override { return {"V_m"}; }
};

RANVIER_REGISTER_RECORDER(Voltmeter);

}  // namespace
}  // namespace ranvier
