"""PyNN's composed cells: ``PointNeuron(neuron, **receptors)``, a neuron component (LIF, AdExp)
with named post-synaptic receptors (CurrExpPostSynapticResponse, CondAlphaPostSynapticResponse,
CondBetaPostSynapticResponse), as Ranvier's multisynapse models: the receptors, sorted by name,
are the model's ports 1..n (a Projection's receptor_type names one), their parameters the
model's lists (one per Population, as one Create call), their state its per-port recordables
(``AMPA.gsyn`` is g_k)."""

from typing import Any

import numpy as np
from pyNN import errors
from pyNN.parameters import ParameterSpace
from pyNN.standardmodels import build_translations, cells, receptors

import ranvier as rv

from .standardmodels import ADEX, V_STATE, RanvierCell

__all__ = [
    "LIF",
    "AdExp",
    "PointNeuron",
    "CurrExpPostSynapticResponse",
    "CondAlphaPostSynapticResponse",
    "CondBetaPostSynapticResponse",
    "AlphaPSR",
    "BetaPSR",
]


class LIF(RanvierCell, cells.LIF):
    __doc__ = cells.LIF.__doc__
    translations = build_translations(
        ("v_rest", "E_L"),
        ("v_reset", "V_reset"),
        ("cm", "C_m", 1000.0),  # nF -> pF
        ("tau_m", "tau_m"),
        ("tau_refrac", "t_ref"),
        ("v_thresh", "V_th"),
        ("i_offset", "I_e", 1000.0),  # nA -> pA
    )
    models = {"iaf_psc_exp_multisynapse", "iaf_psc_alpha_multisynapse"}  # with receptors: which may host it


class AdExp(RanvierCell, cells.AdExp):
    __doc__ = cells.AdExp.__doc__
    translations = build_translations(*[t for t in ADEX if not t[0].endswith(("_E", "_I"))])
    state_variables = {**V_STATE, "w": ("w", 1000.0)}  # w: nA -> pA
    models = {"aeif_cond_alpha_multisynapse", "aeif_cond_beta_multisynapse"}


class Receptor:
    """What Ranvier adds to a post-synaptic response: the models that have it, and its state
    variable (PyNN's name -> the per-port recordable's prefix and the factor to its unit)."""

    models: set[str] = set()
    state: tuple[str, str, float] = ("", "", 1.0)

    @property
    def recordable(self) -> list[str]:
        return [self.state[0]]


class CurrExpPostSynapticResponse(Receptor, receptors.CurrExpPostSynapticResponse):
    __doc__ = receptors.CurrExpPostSynapticResponse.__doc__
    translations = build_translations(("locations", "locations"), ("tau_syn", "tau_syn"))
    models = {"iaf_psc_exp_multisynapse"}
    state = ("isyn", "I_syn", 1000.0)  # nA -> pA


class CondAlphaPostSynapticResponse(Receptor, receptors.CondAlphaPostSynapticResponse):
    __doc__ = receptors.CondAlphaPostSynapticResponse.__doc__
    translations = build_translations(("locations", "locations"), ("e_syn", "E_rev"), ("tau_syn", "tau_syn"))
    models = {"aeif_cond_alpha_multisynapse"}
    state = ("gsyn", "g", 1000.0)  # uS -> nS


class CondBetaPostSynapticResponse(Receptor, receptors.CondBetaPostSynapticResponse):
    __doc__ = receptors.CondBetaPostSynapticResponse.__doc__
    translations = build_translations(
        ("locations", "locations"), ("e_syn", "E_rev"), ("tau_rise", "tau_rise"), ("tau_decay", "tau_decay")
    )
    models = {"aeif_cond_beta_multisynapse"}
    state = ("gsyn", "g", 1000.0)


AlphaPSR, BetaPSR = CondAlphaPostSynapticResponse, CondBetaPostSynapticResponse


class PointNeuron(RanvierCell, cells.PointNeuron):
    __doc__ = cells.PointNeuron.__doc__

    @property
    def ranvier_name(self) -> str:  # type: ignore[override]
        models = set(getattr(self.neuron, "models", ()))
        for psr in self.post_synaptic_receptors.values():
            models &= getattr(psr, "models", set())
        models &= set(rv.node_models)
        if len(models) != 1:
            parts = [type(self.neuron).__name__] + [type(p).__name__ for p in self.post_synaptic_receptors.values()]
            raise errors.NoModelAvailableError(f"Ranvier has no model for a PointNeuron of {', '.join(parts)}")
        return models.pop()

    @property
    def conductance_based(self) -> bool:  # type: ignore[override]
        return cells.PointNeuron.conductance_based.fget(self)  # the receptors', not RanvierCell's default

    @property
    def translations(self) -> dict[str, Any]:
        return self.neuron.translations

    @property
    def native_parameters(self) -> ParameterSpace:
        """The neuron's; the receptors' go to the model's lists when the cells are made (fixed)."""
        return self.neuron.native_parameters

    @property
    def fixed(self) -> dict[str, dict[str, Any]]:  # type: ignore[override]
        lists = self.receptor_lists()
        return {"on_grid": lists, "off_grid": lists}

    def receptor_lists(self) -> dict[str, list[float]]:
        """The model's lists: each receptor's native values, in the order of its port."""
        lists: dict[str, list[float]] = {}
        for name in self.receptor_types:
            native = self.post_synaptic_receptors[name].native_parameters
            native.shape = (1,)
            for key, value in native.items():
                if key == "locations":
                    continue
                if not value.is_homogeneous:
                    raise errors.InvalidParameterValueError(
                        f"{name}.{key}: a receptor's parameters are one for all cells of a Population in Ranvier"
                    )
                lists.setdefault(key, []).append(float(np.asarray(value.evaluate(simplify=True)).ravel()[0]))
        return lists

    def get_receptor_type(self, name: str) -> int:
        """The port of a receptor: NEST's receptor_type, from 1 in the order of the names."""
        return self.receptor_types.index(name) + 1

    @property
    def state_variables(self) -> dict[str, tuple[str, float]]:  # type: ignore[override]
        out = dict(getattr(self.neuron, "state_variables", V_STATE))
        for name, psr in self.post_synaptic_receptors.items():
            variable, prefix, factor = psr.state
            out[f"{name}.{variable}"] = (f"{prefix}_{self.get_receptor_type(name)}", factor)
        return out

    def receptor_parameter(self, native_lists: dict[str, np.ndarray], dotted: str) -> float:
        """A receptor's parameter ("GABAA.e_syn") in PyNN's units from the model's lists."""
        name, parameter = dotted.split(".")
        psr = self.post_synaptic_receptors[name]
        index = self.get_receptor_type(name) - 1
        native_names = psr.get_native_names(parameter)
        space = ParameterSpace({n: float(native_lists[n][index]) for n in native_names}, shape=(1,))
        standard = psr.reverse_translate(space)
        standard.evaluate(simplify=True)
        return float(np.asarray(standard[parameter]).ravel()[0])
