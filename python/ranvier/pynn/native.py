"""PyNN's NativeRNG on Ranvier: a connector or a distribution given it is handed to Ranvier's own
rules and random parameters, drawn in the kernel by its counter-based streams (the same network
for any threads and processes), instead of pair by pair in Python."""

from typing import Any

from pyNN import connectors
from pyNN import random as pynn_random

import ranvier as rv


class NativeRNG(pynn_random.NativeRNG):
    """Draws with Ranvier's generator. A seed sets the kernel's rng_seed (one for every draw of
    the kernel, as a NEST script's rng_seed)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        if seed is not None:
            rv.SetKernelStatus({"rng_seed": int(seed) % 2**31})

    def next(self, n: Any = None, distribution: str | None = None, parameters: Any = None, mask: Any = None) -> "Drawn":
        """What PyNN gets where it asks for values: the distribution, to be drawn in the kernel."""
        if distribution not in _DISTRIBUTIONS:
            raise NotImplementedError(
                f"Ranvier draws {', '.join(_DISTRIBUTIONS)} natively, not {distribution!r}: use a NumpyRNG for it"
            )
        return Drawn(_DISTRIBUTIONS[distribution](parameters))


class Drawn:
    """Values a NativeRNG leaves to the kernel. PyNN asks for one to guess an input's sign; the
    comparison raises TypeError, which PyNN takes as "cannot tell" (excitatory)."""

    def __init__(self, parameter: Any) -> None:
        self.parameter = parameter

    def reshape(self, shape: Any) -> "Drawn":
        return self

    def __getitem__(self, key: Any) -> "Drawn":
        return self

    def __ge__(self, other: Any) -> bool:
        raise TypeError("drawn in Ranvier's kernel, not in Python")

    __lt__ = __le__ = __gt__ = __ge__


def conn_spec(connector: Any) -> dict[str, Any] | None:
    """The Ranvier rule of a connector, or None where it has none."""
    autapses = {"allow_autapses": bool(getattr(connector, "allow_self_connections", True))}
    if isinstance(connector, connectors.AllToAllConnector):
        return {"rule": "all_to_all", **autapses}
    if isinstance(connector, connectors.OneToOneConnector):
        return {"rule": "one_to_one"}
    if isinstance(connector, connectors.FixedProbabilityConnector):
        return {"rule": "pairwise_bernoulli", "p": float(connector.p_connect), **autapses}
    multapses = {"allow_multapses": bool(getattr(connector, "with_replacement", True))}
    if isinstance(connector, connectors.FixedNumberPreConnector) and isinstance(connector.n, int):
        return {"rule": "fixed_indegree", "indegree": connector.n, **autapses, **multapses}
    if isinstance(connector, connectors.FixedNumberPostConnector) and isinstance(connector.n, int):
        return {"rule": "fixed_outdegree", "outdegree": connector.n, **autapses, **multapses}
    if isinstance(connector, connectors.FixedTotalNumberConnector):
        return {"rule": "fixed_total_number", "N": int(connector.n), **autapses, **multapses}
    return None


_DISTRIBUTIONS = {  # PyNN's name -> Ranvier's parameter, from PyNN's named parameters
    "uniform": lambda p: rv.random.uniform(min=p["low"], max=p["high"]),
    "normal": lambda p: rv.random.normal(mean=p["mu"], std=p["sigma"]),
    "lognormal": lambda p: rv.random.lognormal(mean=p["mu"], std=p["sigma"]),
    "exponential": lambda p: rv.random.exponential(beta=p["beta"]),
}


def value(given: Any, factor: float) -> Any:
    """A weight or delay as Ranvier's Connect takes it: a number, or a distribution drawn in the
    kernel; None where it cannot (a distribution of another generator, or of another kind)."""
    if isinstance(given, pynn_random.RandomDistribution):
        make = _DISTRIBUTIONS.get(given.name)
        if make is None or not isinstance(given.rng, NativeRNG):
            return None
        return make(given.parameters) * factor
    if isinstance(given, (int, float)):
        return float(given) * factor
    return None
