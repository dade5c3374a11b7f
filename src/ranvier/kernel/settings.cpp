// The declaration of every kernel setting (settings.hpp): adding one is one entry here and its
// KernelConfig field (with a Kernel setter if it may change while nodes exist).
#include "kernel/settings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <type_traits>

#include "core/errors.hpp"
#include "exchange/spike_exchange.hpp"
#include "kernel/kernel.hpp"
#include "kernel/placement.hpp"

namespace ranvier {
namespace {

template <auto Field>
SettingValue read(const KernelConfig& c) {
  const auto& v = c.*Field;
  using T = std::decay_t<decltype(v)>;
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double> || std::is_same_v<T, std::string>)
    return SettingValue(v);
  else
    return SettingValue(int64_t(v));
}

template <auto Field>
void write(KernelConfig& c, const SettingValue& value) {
  auto& v = c.*Field;
  using T = std::decay_t<decltype(v)>;
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double> || std::is_same_v<T, std::string>)
    v = std::get<T>(value);
  else
    v = T(std::get<int64_t>(value));
}

template <auto Field>
Setting declare(const char* name, SettingType type, const char* unit, const char* doc) {
  Setting s{.name = name, .type = type, .unit = unit};
  s.get = read<Field>;
  s.put = write<Field>;
  s.doc = doc;
  return s;
}

Setting ranged(Setting s, double low, double high) {
  s.low = low, s.high = high;
  return s;
}

Setting live(Setting s, void (*apply)(Kernel&, const SettingValue&)) {
  s.phase = SettingPhase::any_time;
  s.apply = apply;
  return s;
}

// NEST's delay extrema: set together, before the first connection; then every delay must lie
// within them and the cycle is min_delay.
Setting delay_extremum(Setting s) {
  s.phase = SettingPhase::before_connections;
  s.low = 0.0, s.high = INFINITY;
  return s;
}

// A setting the running kernel reads at its next Simulate.
Setting any_time(Setting s) {
  s.phase = SettingPhase::any_time;
  return s;
}

int64_t integer(const SettingValue& v) { return std::get<int64_t>(v); }

std::vector<std::string> exchange_choices() {
  std::vector<std::string> names = exchange_methods();
  names.insert(names.begin(), "auto");
  return names;
}

std::vector<std::string> queued_input_choices() { return {"auto", "on", "off"}; }

std::vector<Setting> declare_all() {
  using T = SettingType;
  using C = KernelConfig;
  std::vector<Setting> all;
  all.push_back(ranged(declare<&C::resolution>("resolution", T::real, "ms", "the time step, a whole number of tics"),
                       std::numeric_limits<double>::min(), INFINITY));
  Setting threads = ranged(declare<&C::threads>("local_num_threads", T::integer, "",
                                                "threads of this process (virtual processes: all ranks' threads)"),
                           1, 1024);
  threads.alias = "total_num_virtual_procs";
  all.push_back(threads);
  Setting tics = ranged(declare<&C::tics_per_ms>("tics_per_ms", T::integer, "1/ms",
                                                 "tics per ms (NEST's time base); set together with resolution"),
                        1, 1099511627776.0);
  tics.takes_whole_real = true;  // NEST's nest.tics_per_ms gives a double back
  all.push_back(tics);
  all.push_back(
      live(ranged(declare<&C::seed>("rng_seed", T::integer, "", "the seed of every random stream"), 0, 4294967295.0),
           [](Kernel& k, const SettingValue& v) { k.set_seed(uint32_t(integer(v))); }));
  Setting placement = declare<&C::placement>("placement", T::text, "", "which virtual process owns each node");
  placement.choices = placement_names;
  all.push_back(placement);
  Setting exchange = live(
      declare<&C::exchange>("spike_exchange", T::text, "", "the spike exchange method"),
      [](Kernel& k, const SettingValue& v) { k.set_exchange(std::get<std::string>(v), k.config().multisend_phases); });
  exchange.choices = exchange_choices;
  all.push_back(exchange);
  all.push_back(live(ranged(declare<&C::multisend_phases>("multisend_phases", T::integer, "",
                                                          "multisend's phases (Hines et al. 2011)"),
                            1, 2),
                     [](Kernel& k, const SettingValue& v) { k.set_exchange(k.config().exchange, int(integer(v))); }));
  all.push_back(live(
      ranged(declare<&C::multisend_subintervals>("multisend_subintervals", T::integer, "",
                                                 "2: multisend's first half-cycle travels while the second updates"),
             1, 2),
      [](Kernel& k, const SettingValue& v) { k.set_multisend_subintervals(int(integer(v))); }));
  all.push_back(
      ranged(declare<&C::dry_run>("dry_run", T::integer, "", "> 0: build and simulate rank 0 of that many ranks"), 0,
             16777216.0));
  all.push_back(live(declare<&C::sync_barrier>("sync_barrier", T::boolean, "", "a barrier before each exchange, timed"),
                     [](Kernel& k, const SettingValue& v) { k.set_sync_barrier(std::get<bool>(v)); }));
  all.push_back(live(declare<&C::record_cycle_times>("record_cycle_times", T::boolean, "", "keep every cycle's time"),
                     [](Kernel& k, const SettingValue& v) { k.set_record_cycle_times(std::get<bool>(v)); }));
  all.push_back(
      live(ranged(declare<&C::max_D>("max_D", T::integer, "", "cap on D, the cycles between global exchanges"), 1,
                  1048576.0),
           [](Kernel& k, const SettingValue& v) { k.set_max_D(int(integer(v))); }));
  all.push_back(live(declare<&C::overlap_exchange>("overlap_exchange", T::boolean, "",
                                                   "exchange the first half of each cycle while the second updates"),
                     [](Kernel& k, const SettingValue& v) { k.set_overlap_exchange(std::get<bool>(v)); }));
  all.push_back(
      live(declare<&C::persistent_exchange>("persistent_exchange", T::boolean, "",
                                            "allgather's and alltoall's fixed blocks by persistent collectives"),
           [](Kernel& k, const SettingValue& v) { k.set_persistent_exchange(std::get<bool>(v)); }));
  all.push_back(delay_extremum(declare<&C::min_delay>("min_delay", T::real, "ms",
                                                      "the smallest delay, set with max_delay before connections (0: "
                                                      "the connections')")));
  all.push_back(delay_extremum(declare<&C::max_delay>("max_delay", T::real, "ms",
                                                      "the largest delay, set with min_delay before connections (0: "
                                                      "the connections')")));
  Setting queued = live(
      declare<&C::queued_input>("queued_input", T::text, "",
                                "delivery into queues per arrival step (on), into the rows (off), or chosen by size"),
      [](Kernel& k, const SettingValue& v) { k.set_queued_input(std::get<std::string>(v)); });
  queued.choices = queued_input_choices;
  all.push_back(queued);
  all.push_back(declare<&C::use_wfr>("use_wfr", T::boolean, "",
                                     "waveform relaxation of instantaneous rate connections (NEST's)"));
  Setting interval = ranged(declare<&C::wfr_comm_interval>("wfr_comm_interval", T::real, "ms",
                                                           "the cycle waveform relaxation iterates over; the "
                                                           "resolution without it"),
                            std::numeric_limits<double>::min(), INFINITY);
  interval.get = [](const KernelConfig& c) { return SettingValue(c.rate_comm_interval()); };
  all.push_back(interval);
  all.push_back(
      any_time(ranged(declare<&C::wfr_tol>("wfr_tol", T::real, "", "the change below which a relaxed rate has settled"),
                      0.0, INFINITY)));
  all.push_back(any_time(ranged(
      declare<&C::wfr_max_iterations>("wfr_max_iterations", T::integer, "", "the most relaxation passes per cycle"), 1,
      1048576.0)));
  all.push_back(any_time(ranged(declare<&C::wfr_interpolation_order>("wfr_interpolation_order", T::integer, "",
                                                                     "gap junctions' interpolation (0, 1 or 3)"),
                                0, 3)));
  all.push_back(
      any_time(ranged(declare<&C::eprop_update_interval>("eprop_update_interval", T::real, "ms",
                                                         "the _bsshslm_2020 e-prop synapses' update interval"),
                      std::numeric_limits<double>::min(), INFINITY)));
  all.push_back(any_time(
      ranged(declare<&C::eprop_learning_window>("eprop_learning_window", T::real, "ms",
                                                "the part of each e-prop update interval that its readouts learn from"),
             std::numeric_limits<double>::min(), INFINITY)));
  all.push_back(any_time(declare<&C::eprop_reset_neurons_on_update>(
      "eprop_reset_neurons_on_update", T::boolean, "", "whether _bsshslm_2020 e-prop neurons reset at each update")));
  all.push_back(
      any_time(ranged(declare<&C::structural_plasticity_update_interval>(
                          "structural_plasticity_update_interval", T::real, "ms",
                          "structural plasticity changes the connectivity at cycles whose time is a multiple of this"),
                      std::numeric_limits<double>::min(), INFINITY)));
  return all;
}

std::string shown(const SettingValue& v) {
  std::ostringstream out;
  std::visit(
      [&](const auto& x) {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, std::string>)
          out << "'" << x << "'";
        else if constexpr (std::is_same_v<X, bool>)
          out << (x ? "True" : "False");
        else
          out << x;
      },
      v);
  return out.str();
}

std::string listed_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (size_t k = 0; k < choices.size(); ++k) out += (k ? ", " : "") + choices[k];
  return out;
}

}  // namespace

const std::vector<Setting>& kernel_settings() {
  static const std::vector<Setting> all = declare_all();
  return all;
}

const Setting& kernel_setting(const std::string& name) {
  for (const Setting& s : kernel_settings())
    if (name == s.name || (s.alias && name == s.alias)) return s;
  throw UnknownParameterError("the kernel has no settable parameter " + name);
}

std::string setting_rule(const Setting& s) {
  switch (s.type) {
    case SettingType::integer:
      return "an integer in [" + std::to_string(int64_t(s.low)) + ", " + std::to_string(int64_t(s.high)) + "]";
    case SettingType::real:
      return std::string(s.low > 0.0 ? "a positive number" : "a number >= 0") +
             (*s.unit ? std::string(" of ") + s.unit : "");
    case SettingType::boolean:
      return "True or False";
    case SettingType::text:
      return s.choices ? "one of " + listed_choices(s.choices()) : "a string";
  }
  return "";
}

SettingValue checked_setting(const Setting& s, const SettingValue& value, const std::string& given) {
  const auto refuse = [&] {
    return BadParameterError(given + " must be " + setting_rule(s) + ", got " + given + " = " + shown(value));
  };
  switch (s.type) {
    case SettingType::integer: {
      int64_t v = 0;
      if (const auto* i = std::get_if<int64_t>(&value))
        v = *i;
      else if (const auto* d = std::get_if<double>(&value);
               d && s.takes_whole_real && std::isfinite(*d) && *d == std::floor(*d) && std::fabs(*d) < 9e18)
        v = int64_t(*d);
      else
        throw refuse();
      if (double(v) < s.low || double(v) > s.high) throw refuse();
      return v;
    }
    case SettingType::real: {
      double v = 0.0;
      if (const auto* d = std::get_if<double>(&value))
        v = *d;
      else if (const auto* i = std::get_if<int64_t>(&value))
        v = double(*i);
      else
        throw refuse();
      if (!(v >= s.low && v <= s.high)) throw refuse();
      return v;
    }
    case SettingType::boolean:
      if (!std::holds_alternative<bool>(value)) throw refuse();
      return value;
    case SettingType::text: {
      const auto* text = std::get_if<std::string>(&value);
      if (!text) throw refuse();
      if (s.choices) {
        const std::vector<std::string> choices = s.choices();
        if (std::find(choices.begin(), choices.end(), *text) == choices.end()) throw refuse();
      }
      return value;
    }
  }
  return value;
}

std::vector<std::pair<std::string, SettingValue>> checked_settings(
    const std::vector<std::pair<std::string, SettingValue>>& given) {
  std::vector<std::pair<std::string, SettingValue>> out;
  const auto named = [&](const char* name) {
    return std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == name; });
  };
  for (const auto& [name, value] : given) {
    const Setting& s = kernel_setting(name);
    out.emplace_back(s.name, checked_setting(s, value, name));
  }
  if (const auto tics = named("tics_per_ms"); tics != out.end() && named("resolution") == out.end())
    throw BadParameterError("tics_per_ms = " + shown(tics->second) +
                            " must be set together with resolution (a multiple of the new tic)");
  if ((named("min_delay") == out.end()) != (named("max_delay") == out.end()))
    throw BadParameterError("min_delay and max_delay must be set together (NEST's rule)");
  if (const auto use = named("use_wfr");
      use != out.end() && !std::get<bool>(use->second) && named("wfr_comm_interval") != out.end())
    throw BadParameterError("wfr_comm_interval cannot be set with use_wfr = False (it is the resolution then)");
  return out;
}

void check_config(const KernelConfig& c) {
  if (c.use_wfr && c.wfr_comm_interval < c.resolution * (1.0 - 1e-12))
    throw BadParameterError("wfr_comm_interval must be at least the resolution " + shown(c.resolution) +
                            " ms, got wfr_comm_interval = " + shown(c.wfr_comm_interval));
  if (c.wfr_interpolation_order == 2)
    throw BadParameterError("wfr_interpolation_order must be 0, 1 or 3, got wfr_interpolation_order = 2");
  if (c.min_delay == 0.0 && c.max_delay == 0.0) return;  // the connections' own
  if (c.min_delay > c.max_delay)
    throw BadParameterError("min_delay must be at most max_delay, got min_delay = " + shown(c.min_delay) +
                            " and max_delay = " + shown(c.max_delay));
  if (c.min_delay < c.resolution * (1.0 - 1e-12))
    throw BadParameterError("min_delay must be at least the resolution " + shown(c.resolution) +
                            " ms, got min_delay = " + shown(c.min_delay));
}

void check_eprop_window(const std::vector<std::pair<std::string, SettingValue>>& values, const KernelConfig& c) {
  const bool set =
      std::any_of(values.begin(), values.end(), [](const auto& v) { return v.first == "eprop_learning_window"; });
  if (set && c.eprop_learning_window > c.eprop_update_interval)
    throw BadParameterError("eprop_learning_window must be <= eprop_update_interval, got eprop_learning_window = " +
                            shown(c.eprop_learning_window) +
                            " and eprop_update_interval = " + shown(c.eprop_update_interval));
}

KernelConfig config_from(const std::vector<std::pair<std::string, SettingValue>>& values) {
  KernelConfig c;
  for (const auto& [name, value] : values) {
    const Setting& s = kernel_setting(name);
    s.put(c, checked_setting(s, value, name));
  }
  check_config(c);
  return c;
}

}  // namespace ranvier
