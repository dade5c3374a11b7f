"""PyNN's standard cell, synapse and current-source types as Ranvier's models: each names its
Ranvier model (`ranvier_name`) and translates PyNN's names and units (nA, nF, uS) to Ranvier's
(NEST's: pA, pF, nS)."""

from typing import Any

import numpy as np
from pyNN import errors
from pyNN.parameters import ParameterSpace
from pyNN.standardmodels import build_translations, cells, electrodes, synapses

import ranvier as rv
from ranvier import recording as rv_recording

from . import simulator

_CURRENT_BASED = (
    ("v_rest", "E_L"),
    ("v_reset", "V_reset"),
    ("cm", "C_m", 1000.0),  # nF -> pF
    ("tau_m", "tau_m"),
    ("tau_refrac", "t_ref"),
    ("tau_syn_E", "tau_syn_ex"),
    ("tau_syn_I", "tau_syn_in"),
    ("v_thresh", "V_th"),
    ("i_offset", "I_e", 1000.0),  # nA -> pA
)
_CONDUCTANCES = (("e_rev_E", "E_ex"), ("e_rev_I", "E_in"))
_CONDUCTANCE_BASED = (
    *[t for t in _CURRENT_BASED if t[0] != "tau_m"],
    *_CONDUCTANCES,
    ("tau_m", "g_L", "1000.0*cm/tau_m", "C_m/g_L"),
)
V_STATE = {"v": ("V_m", 1.0)}
# state variables: PyNN's name -> (Ranvier's, factor); PyNN's units are nA and uS, Ranvier's pA and nS
_ISYN = {"isyn_exc": ("I_syn_ex", 1000.0), "isyn_inh": ("I_syn_in", 1000.0)}
_GSYN = {"gsyn_exc": ("g_ex", 1000.0), "gsyn_inh": ("g_in", 1000.0)}


class RanvierCell:
    """What Ranvier adds to a standard cell type: its model, and its state variables (PyNN's
    name -> Ranvier's and the factor from PyNN's unit to Ranvier's), each also recordable."""

    ranvier_name = ""
    off_grid_name = ""  # the model with spike times off the grid (spike_precision "off_grid"), if another
    fixed: dict[str, dict[str, Any]] = {}  # per spike_precision: Ranvier parameters its cells are made with
    state_variables: dict[str, tuple[str, float]] = V_STATE
    conductance_based = False
    spike_source = False  # its cells emit given or drawn spikes; times shift at reset
    # each cell a parrot fed by a generator (one delay earlier): a generator's train differs per
    # target, or it sends through one synapse model only
    behind_parrots = False
    weight_scale = 1.0  # of the weights onto its cells beyond the synapse's translation (input in mV: 1e-3)


class IF_curr_alpha(RanvierCell, cells.IF_curr_alpha):
    __doc__ = cells.IF_curr_alpha.__doc__
    ranvier_name = "iaf_psc_alpha"
    translations = build_translations(*_CURRENT_BASED)
    state_variables = {**V_STATE, **_ISYN}


class IF_curr_exp(RanvierCell, cells.IF_curr_exp):
    __doc__ = cells.IF_curr_exp.__doc__
    ranvier_name = "iaf_psc_exp"
    off_grid_name = "iaf_psc_exp_ps"
    translations = build_translations(*_CURRENT_BASED)
    state_variables = {**V_STATE, **_ISYN}


class IF_curr_delta(RanvierCell, cells.IF_curr_delta):
    __doc__ = cells.IF_curr_delta.__doc__
    ranvier_name = "iaf_psc_delta"
    off_grid_name = "iaf_psc_delta_ps"
    weight_scale = 1e-3  # PyNN's weight onto it is a jump of V_m in mV, as NEST's
    translations = build_translations(*[t for t in _CURRENT_BASED if not t[0].startswith("tau_syn")])


class IF_cond_alpha(RanvierCell, cells.IF_cond_alpha):
    __doc__ = cells.IF_cond_alpha.__doc__
    ranvier_name = "iaf_cond_alpha"
    translations = build_translations(*_CONDUCTANCE_BASED)
    state_variables = {**V_STATE, **_GSYN}
    conductance_based = True


class IF_cond_exp(RanvierCell, cells.IF_cond_exp):
    __doc__ = cells.IF_cond_exp.__doc__
    ranvier_name = "iaf_cond_exp"
    translations = IF_cond_alpha.translations
    state_variables = {**V_STATE, **_GSYN}
    conductance_based = True


class IF_cond_exp_gsfa_grr(RanvierCell, cells.IF_cond_exp_gsfa_grr):
    __doc__ = cells.IF_cond_exp_gsfa_grr.__doc__
    ranvier_name = "iaf_cond_exp_sfa_rr"
    translations = build_translations(
        *_CONDUCTANCE_BASED,
        ("tau_sfa", "tau_sfa"),
        ("e_rev_sfa", "E_sfa"),
        ("q_sfa", "q_sfa"),  # nS in both
        ("tau_rr", "tau_rr"),
        ("e_rev_rr", "E_rr"),
        ("q_rr", "q_rr"),
    )
    state_variables = {**V_STATE, **_GSYN, "g_s": ("g_sfa", 1.0), "g_r": ("g_rr", 1.0)}  # nS in both
    conductance_based = True


class IF_facets_hardware1(RanvierCell, cells.IF_facets_hardware1):
    __doc__ = cells.IF_facets_hardware1.__doc__
    ranvier_name = "iaf_cond_exp"
    translations = build_translations(
        ("v_reset", "V_reset"),
        ("v_rest", "E_L"),
        ("v_thresh", "V_th"),
        ("e_rev_I", "E_in"),
        ("tau_syn_E", "tau_syn_ex"),
        ("tau_syn_I", "tau_syn_in"),
        ("g_leak", "g_L"),  # nS in both
    )
    # the hardware's fixed values, as pyNN.nest sets them
    fixed = dict.fromkeys(("on_grid", "off_grid"), {"C_m": 200.0, "t_ref": 1.0, "E_ex": 0.0})
    state_variables = {**V_STATE, **_GSYN}
    conductance_based = True


ADEX = (
    ("cm", "C_m", 1000.0),
    ("tau_refrac", "t_ref"),
    ("v_spike", "V_peak"),
    ("v_reset", "V_reset"),
    ("v_rest", "E_L"),
    ("tau_m", "g_L", "1000.0*cm/tau_m", "C_m/g_L"),
    ("i_offset", "I_e", 1000.0),
    ("a", "a"),
    ("b", "b", 1000.0),  # nA -> pA
    ("delta_T", "Delta_T"),
    ("tau_w", "tau_w"),
    ("v_thresh", "V_th"),
    ("e_rev_E", "E_ex"),
    ("tau_syn_E", "tau_syn_ex"),
    ("e_rev_I", "E_in"),
    ("tau_syn_I", "tau_syn_in"),
)
_ADEX_STATE = {**V_STATE, **_GSYN, "w": ("w", 1000.0)}  # w: nA -> pA


class GIF_cond_exp(RanvierCell, cells.GIF_cond_exp):
    __doc__ = cells.GIF_cond_exp.__doc__
    ranvier_name = "gif_cond_exp"
    translations = build_translations(
        *_CONDUCTANCE_BASED,
        ("delta_v", "Delta_V"),
        ("v_t_star", "V_T_star"),
        ("lambda0", "lambda_0"),  # Hz in both
        ("tau_eta", "tau_stc"),  # lists, one per cell
        ("tau_gamma", "tau_sfa"),
        ("a_eta", "q_stc", 1000.0),  # nA -> pA
        ("a_gamma", "q_sfa"),
    )
    state_variables = {**V_STATE, **_GSYN, "i_eta": ("I_stc", 1000.0), "v_t": ("E_sfa", 1.0)}
    conductance_based = True


class EIF_cond_alpha_isfa_ista(RanvierCell, cells.EIF_cond_alpha_isfa_ista):
    __doc__ = cells.EIF_cond_alpha_isfa_ista.__doc__
    ranvier_name = "aeif_cond_alpha"
    translations = build_translations(*ADEX)
    state_variables = _ADEX_STATE
    conductance_based = True


class EIF_cond_exp_isfa_ista(RanvierCell, cells.EIF_cond_exp_isfa_ista):
    __doc__ = cells.EIF_cond_exp_isfa_ista.__doc__
    ranvier_name = "aeif_cond_exp"
    translations = build_translations(*ADEX)
    state_variables = _ADEX_STATE
    conductance_based = True


class HH_cond_exp(RanvierCell, cells.HH_cond_exp):
    __doc__ = cells.HH_cond_exp.__doc__
    ranvier_name = "hh_cond_exp_traub"
    translations = build_translations(
        ("gbar_Na", "g_Na", 1000.0),  # uS -> nS
        ("gbar_K", "g_K", 1000.0),
        ("g_leak", "g_L", 1000.0),
        ("cm", "C_m", 1000.0),
        ("v_offset", "V_T"),
        ("e_rev_Na", "E_Na"),
        ("e_rev_K", "E_K"),
        ("e_rev_leak", "E_L"),
        *_CONDUCTANCES,
        ("tau_syn_E", "tau_syn_ex"),
        ("tau_syn_I", "tau_syn_in"),
        ("i_offset", "I_e", 1000.0),
    )
    state_variables = {**V_STATE, **_GSYN, "m": ("Act_m", 1.0), "h": ("Inact_h", 1.0), "n": ("Act_n", 1.0)}
    conductance_based = True


class Izhikevich(RanvierCell, cells.Izhikevich):
    __doc__ = cells.Izhikevich.__doc__
    ranvier_name = "izhikevich"
    weight_scale = 1e-3  # PyNN's weight onto it is a jump of V_m in mV, as NEST's
    translations = build_translations(("a", "a"), ("b", "b"), ("c", "c"), ("d", "d"), ("i_offset", "I_e", 1000.0))
    state_variables = {**V_STATE, "u": ("U_m", 1.0)}


class SpikeSourcePoisson(RanvierCell, cells.SpikeSourcePoisson):
    # each cell a poisson_generator behind a parrot_neuron: one train per cell, the same for all
    # of its targets, as PyNN means it
    __doc__ = cells.SpikeSourcePoisson.__doc__
    ranvier_name = "poisson_generator"
    off_grid_name = "poisson_generator_ps"
    behind_parrots = True
    translations = build_translations(
        ("rate", "rate"), ("start", "start"), ("duration", "stop", "start + duration", "stop - start")
    )
    state_variables = {}
    spike_source = True


class SpikeSourceGamma(RanvierCell, cells.SpikeSourceGamma):
    __doc__ = cells.SpikeSourceGamma.__doc__
    ranvier_name = "gamma_sup_generator"
    translations = build_translations(
        ("alpha", "gamma_shape"),
        ("beta", "rate", "beta/alpha", "gamma_shape * rate"),  # the mean rate of a train is beta / alpha
        ("start", "start"),
        ("duration", "stop", "start + duration", "stop - start"),
    )
    state_variables = {}
    spike_source = behind_parrots = True


class SpikeSourcePoissonRefractory(RanvierCell, cells.SpikeSourcePoissonRefractory):
    __doc__ = cells.SpikeSourcePoissonRefractory.__doc__
    ranvier_name = "ppd_sup_generator"
    translations = build_translations(
        ("rate", "rate"),
        ("tau_refrac", "dead_time"),
        ("start", "start"),
        ("duration", "stop", "start + duration", "stop - start"),
    )
    state_variables = {}
    spike_source = behind_parrots = True


class SpikeSourceArray(RanvierCell, cells.SpikeSourceArray):
    __doc__ = cells.SpikeSourceArray.__doc__
    ranvier_name = "spike_generator"
    translations = build_translations(("spike_times", "spike_times"))
    # PyNN's times need not be on the grid: kept exact, or moved to the end of their step
    fixed = {"off_grid": {"precise_times": True}, "on_grid": {"allow_offgrid_times": True}}
    behind_parrots = True  # a device sends through one synapse model; its parrot through any
    state_variables = {}
    spike_source = True


class MultiQuantalSynapse(synapses.MultiQuantalSynapse):
    __doc__ = synapses.MultiQuantalSynapse.__doc__
    ranvier_name = "quantal_stp_synapse"
    translations = build_translations(
        ("weight", "weight", 1000.0), ("delay", "delay"), ("U", "U"), ("n", "n"), ("tau_rec", "tau_rec"),
        ("tau_facil", "tau_fac"),
    )  # fmt: skip

    def _get_minimum_delay(self):
        return simulator.state.default_delay()


class SimpleStochasticSynapse(synapses.SimpleStochasticSynapse):
    __doc__ = synapses.SimpleStochasticSynapse.__doc__
    ranvier_name = "bernoulli_synapse"
    translations = build_translations(("weight", "weight", 1000.0), ("delay", "delay"), ("p", "p_transmit"))

    def _get_minimum_delay(self):
        return simulator.state.default_delay()


class StaticSynapse(synapses.StaticSynapse):
    __doc__ = synapses.StaticSynapse.__doc__
    ranvier_name = "static_synapse"
    translations = build_translations(("weight", "weight", 1000.0), ("delay", "delay"))

    def _get_minimum_delay(self):
        return simulator.state.default_delay()


class TsodyksMarkramSynapse(synapses.TsodyksMarkramSynapse):
    __doc__ = synapses.TsodyksMarkramSynapse.__doc__
    ranvier_name = "tsodyks_synapse"
    # per connection, a value of its target: its synaptic time constant (excitatory, inhibitory)
    from_target = {"tau_psc": ("tau_syn_ex", "tau_syn_in")}
    translations = build_translations(
        ("weight", "weight", 1000.0), ("delay", "delay"), ("U", "U"), ("tau_rec", "tau_rec"), ("tau_facil", "tau_fac")
    )
    _get_minimum_delay = StaticSynapse._get_minimum_delay


class STDPMechanism(synapses.STDPMechanism):
    __doc__ = synapses.STDPMechanism.__doc__
    base_translations = build_translations(
        ("weight", "weight", 1000.0), ("delay", "delay"), ("dendritic_delay_fraction", "dendritic_delay_fraction")
    )
    _get_minimum_delay = StaticSynapse._get_minimum_delay

    @property
    def ranvier_name(self):
        return self.model


class AdditiveWeightDependence(synapses.AdditiveWeightDependence):
    __doc__ = synapses.AdditiveWeightDependence.__doc__
    translations = build_translations(("w_max", "Wmax", 1000.0), ("w_min", "w_min", 1000.0))
    possible_models = {"stdp_synapse"}
    extra_parameters = {"mu_plus": 0.0, "mu_minus": 0.0}


class MultiplicativeWeightDependence(synapses.MultiplicativeWeightDependence):
    __doc__ = synapses.MultiplicativeWeightDependence.__doc__
    translations = AdditiveWeightDependence.translations
    possible_models = {"stdp_synapse"}
    extra_parameters = {"mu_plus": 1.0, "mu_minus": 1.0}


class AdditivePotentiationMultiplicativeDepression(synapses.AdditivePotentiationMultiplicativeDepression):
    __doc__ = synapses.AdditivePotentiationMultiplicativeDepression.__doc__
    translations = AdditiveWeightDependence.translations
    possible_models = {"stdp_synapse"}
    extra_parameters = {"mu_plus": 0.0, "mu_minus": 1.0}


class GutigWeightDependence(synapses.GutigWeightDependence):
    __doc__ = synapses.GutigWeightDependence.__doc__
    translations = build_translations(
        ("w_max", "Wmax", 1000.0), ("w_min", "w_min", 1000.0), ("mu_plus", "mu_plus"), ("mu_minus", "mu_minus")
    )
    possible_models = {"stdp_synapse"}


def _number(value: Any) -> Any:
    """A translation's operand as numbers: a homogeneous lazy array as its one value."""
    if hasattr(value, "evaluate"):
        return value.base_value if value.is_homogeneous and not value.operations else value.evaluate(simplify=True)
    return value


def _alpha(A_plus: Any, A_minus: Any, **_: Any) -> Any:
    """NEST's alpha is A_minus / A_plus; with A_plus = 0 (lambda = 0: no change at all) it keeps A_minus."""
    plus, minus = np.asarray(_number(A_plus), dtype=float), np.asarray(_number(A_minus), dtype=float)
    return _plain(np.where(plus == 0, minus, minus / np.where(plus == 0, 1.0, plus)))


def _A_minus(alpha: Any, **native: Any) -> Any:
    lam, a = np.asarray(_number(native["lambda"]), dtype=float), np.asarray(_number(alpha), dtype=float)
    return _plain(np.where(lam == 0, a, a * lam))


def _plain(values: np.ndarray) -> Any:
    """One value as a number (PyNN's lazy arrays index what they hold)."""
    return values.item() if values.ndim == 0 else values


class SpikePairRule(synapses.SpikePairRule):
    __doc__ = synapses.SpikePairRule.__doc__
    translations = build_translations(
        ("tau_plus", "tau_plus"),
        ("tau_minus", "tau_minus"),  # a parameter of the post-synaptic neurons
        ("A_plus", "lambda"),
        ("A_minus", "alpha", _alpha, _A_minus),
    )
    possible_models = {"stdp_synapse"}


class RanvierCurrentSource:
    """A current source: one Ranvier generator, connected to its cells with the minimum delay.
    As PyNN defines it on every simulator, a current starts at the source at `start` and acts on
    a cell from the next step: the generator's times are those less the delay (at the earliest
    the next step), after the time offset of the last reset."""

    ranvier_name = ""
    translations: dict  # the standard source's (below)
    native_parameters: Any  # PyNN's StandardModelType

    def __init__(self, **parameters):
        self._device = rv.Create(self.ranvier_name)
        self._native: dict[str, Any] = {}
        self._sampler: Any = None
        super().__init__(**parameters)
        simulator.state.current_sources.append(self)
        self.set_native_parameters(self.native_parameters)

    def inject_into(self, cells):
        for cell in cells:
            if not cell.celltype.injectable:
                raise TypeError(f"cannot inject current into a spike source ({cell.celltype.__class__.__name__})")
        targets = rv.NodeCollection(sorted({int(c) for c in cells}))
        rv.Connect(self._device, targets, syn_spec={"delay": simulator.state.min_delay})

    def set_native_parameters(self, parameters):
        parameters.shape = (1,)
        parameters.evaluate(simplify=True)
        self._native.update({name: simulator.plain(value) for name, value in parameters.items()})
        self._apply()

    def get_native_parameters(self):
        return ParameterSpace(dict(self._native))

    def _at_source(self, times: Any) -> Any:
        """Times as the generator takes them (see the class)."""
        state = simulator.state
        earliest = rv.GetKernelStatus("biological_time") + state.dt
        shifted = np.maximum(np.asarray(times, dtype=float) - state.min_delay + state.offset, earliest)
        return np.rint(shifted / state.dt) * state.dt

    def _apply(self) -> None:
        values = dict(self._native)
        for name in ("start", "stop"):
            if name in values and np.isfinite(values[name]):
                values[name] = float(self._at_source(values[name]))
        self._device.set(values)

    def record(self) -> None:
        self._sampler = rv.Create("multimeter", params={"record_from": ["I"], "interval": simulator.state.dt})
        rv.Connect(self._sampler, self._device)

    def _get_data(self) -> tuple[np.ndarray, np.ndarray]:
        """The current at the cells (nA) from time 0: the generator's, one delay later."""
        senders, times, values = rv_recording.kernel_events(int(self._sampler.global_id))
        _, ms = rv_recording.grid_times(times)
        lag = int(round(simulator.state.min_delay / simulator.state.dt))
        currents = np.r_[np.zeros(lag + 1), values[:, 0] / 1000.0][: len(ms) + 1]
        return np.r_[0.0, ms - simulator.state.offset], currents


class DCSource(RanvierCurrentSource, electrodes.DCSource):
    __doc__ = electrodes.DCSource.__doc__
    ranvier_name = "dc_generator"
    translations = build_translations(("amplitude", "amplitude", 1000.0), ("start", "start"), ("stop", "stop"))


class ACSource(RanvierCurrentSource, electrodes.ACSource):
    __doc__ = electrodes.ACSource.__doc__
    ranvier_name = "ac_generator"
    translations = build_translations(
        ("amplitude", "amplitude", 1000.0),
        ("offset", "offset", 1000.0),
        ("frequency", "frequency"),
        ("phase", "phase"),
        ("start", "start"),
        ("stop", "stop"),
    )

    def _apply(self) -> None:
        """PyNN's phase is at `start`; the generator's at its time 0."""
        super()._apply()
        native = self._native
        shift = 360.0 * native["frequency"] * self._at_source(native["start"]) / 1000.0 if "start" in native else 0.0
        self._device.set({"phase": (native.get("phase", 0.0) - shift) % 360.0})


class StepCurrentSource(RanvierCurrentSource, electrodes.StepCurrentSource):
    __doc__ = electrodes.StepCurrentSource.__doc__
    ranvier_name = "step_current_generator"
    translations = build_translations(("amplitudes", "amplitude_values", 1000.0), ("times", "amplitude_times"))

    def _apply(self) -> None:
        given = np.asarray(self._native.get("amplitude_times", []), dtype=float)
        if np.any(given < 0) or np.any(np.diff(given) <= 0):
            raise errors.InvalidParameterValueError(f"times must be >= 0 and increasing, got times = {given.tolist()}")
        amplitudes = np.asarray(self._native.get("amplitude_values", []), dtype=float)
        # times go to the nearest step; those that land on one step keep the last amplitude given
        # for them (PyNN's rule on every simulator: the source then shows these times)
        grid, amplitudes = _last_per_time(np.rint(given / simulator.state.dt) * simulator.state.dt, amplitudes)
        self._native.update({"amplitude_times": grid, "amplitude_values": amplitudes})
        times, amplitudes = _last_per_time(self._at_source(grid), amplitudes)
        self._device.set({"amplitude_times": times, "amplitude_values": amplitudes})


def _last_per_time(times: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ascending distinct times, each with the last of its values."""
    last = len(times) - 1 - np.unique(times[::-1], return_index=True)[1]
    return times[last], values[last]


class NoisyCurrentSource(RanvierCurrentSource, electrodes.NoisyCurrentSource):
    __doc__ = electrodes.NoisyCurrentSource.__doc__
    ranvier_name = "noise_generator"
    translations = build_translations(
        ("mean", "mean", 1000.0), ("stdev", "std", 1000.0), ("dt", "dt"), ("start", "start"), ("stop", "stop")
    )
