// Spatial rules: a request's SpatialConnect (spatial/) chooses the connections of this
// thread's targets and computes their weights and delays from the nodes' positions.
#include <cstdint>

#include "connect/connection_rule.hpp"
#include "spatial/spatial_connect.hpp"

namespace ranvier {
namespace {

void connect_spatial(RuleContext& c) {
  const ConnectRequest& r = c.request;
  size_t last = SIZE_MAX;  // consecutive connections mostly share their target
  uint32_t last_input = 0;
  const spatial::ThreadShare share{.mine = c.mine,
                                   .is_mine = [&](size_t p) { return c.local(r.targets[p]); },
                                   .source_gids = r.sources,
                                   .target_gids = r.targets,
                                   .autapses = r.allow_autapses,
                                   .multapses = r.allow_multapses,
                                   .seed = c.seed,
                                   .call = c.call};
  r.spatial->connect(share, [&](size_t j, size_t p, double w, double d) {
    if (p != last) last = p, last_input = c.input(r.targets[p]);
    c.sink.add_value(r.sources[j], r.targets[p], last_input, w, d);
  });
}

}  // namespace

const ConnectionRule& spatial_rule() {
  static const ConnectionRule rule{.connect = &connect_spatial};
  return rule;
}

}  // namespace ranvier
