"""A network of every rate neuron model (NEST's *_rate_ipn, *_rate_opn, rate_transformer_*)
joined by delayed and instantaneous rate connections, with nonlinear and multiplicative
coupling, rectification, a chain and a loop of instantaneous connections (which waveform
relaxation iterates), written against PyNEST's API so that NEST 3.10
(benchmarks/peers/nest_network_fixtures.py) and Ranvier (tests/test_rate_neurons.py) build the
same. Noise is off (sigma = 0), so the rates are deterministic. `mpiexec -n M python
rate_network.py USE_WFR THREADS` prints Ranvier's as JSON on rank 0."""

import json
import sys

import numpy as np

T = 12.0  # ms, over several cycles and more than the longest delay
IPN = {"tau": 5.0, "sigma": 0.0}


def _network(nest):
    drive = nest.Create("lin_rate_ipn", params={"rate": 1.5, "mu": 1.5, "sigma": 0.0})
    negative = nest.Create("lin_rate_ipn", params={"rate": -1.5, "mu": -1.5, "sigma": 0.0})
    created = {
        "tanh": nest.Create("tanh_rate_ipn", params={**IPN, "g": 2.0, "theta": 0.1}),
        "threshold": nest.Create(
            "threshold_lin_rate_ipn",
            params={**IPN, "linear_summation": False, "theta": 0.2, "alpha": 1.0},
        ),
        "mult": nest.Create(
            "lin_rate_ipn",
            params={**IPN, "mult_coupling": True, "g_ex": 0.5, "theta_ex": 2.0, "g_in": 1.5, "theta_in": 1.0},
        ),
        "rectified": nest.Create("lin_rate_ipn", params={**IPN, "rectify_output": True, "rectify_rate": 0.1}),
        "sigmoid": nest.Create("sigmoid_rate_ipn", params={**IPN, "lambda": 0.0, "beta": 3.0, "theta": 0.4}),
        "gg_1998": nest.Create("sigmoid_rate_gg_1998_ipn", params={**IPN, "g": 0.2}),
        "gauss": nest.Create("gauss_rate_ipn", params={"tau": 4.0, "mu": 0.5, "sigma": 0.7, "std": 0.0}),
        "tanh_opn": nest.Create("tanh_rate_opn", params={**IPN, "linear_summation": False}),
        "threshold_opn": nest.Create("threshold_lin_rate_opn", params={**IPN, "theta": 0.1}),
        "lin_opn": nest.Create(
            "lin_rate_opn", params={**IPN, "mult_coupling": True, "g_ex": 0.3, "theta_ex": 3.0, "theta_in": 0.5}
        ),
        "loop_a": nest.Create("lin_rate_ipn", params=IPN),
        "loop_b": nest.Create("lin_rate_ipn", params={**IPN, "lambda": 2.0}),
    }
    transformers = ("lin", "tanh", "threshold_lin", "sigmoid", "sigmoid_gg_1998", "gauss")
    for name in transformers:
        created["transformer_" + name] = nest.Create("rate_transformer_" + name)
    created["transformer_gauss"].set({"sigma": 0.5})
    created["transformer_tanh"].set({"linear_summation": False})

    def instant(source, target, weight):
        nest.Connect(source, target, syn_spec={"synapse_model": "rate_connection_instantaneous", "weight": weight})

    def delayed(source, target, weight, delay):
        nest.Connect(
            source,
            target,
            syn_spec={"synapse_model": "rate_connection_delayed", "weight": weight, "delay": delay},
        )

    c = created
    instant(drive, c["tanh"], 0.5)
    delayed(c["mult"], c["tanh"], -0.3, 1.5)
    instant(drive, c["threshold"], 0.7)
    instant(c["tanh"], c["threshold"], 0.4)  # a chain of instantaneous connections
    instant(drive, c["mult"], 0.5)
    delayed(negative, c["mult"], 0.8, 1.2)
    instant(c["threshold"], c["mult"], -0.6)
    instant(negative, c["rectified"], 0.5)
    delayed(c["tanh"], c["sigmoid"], 1.0, 2.0)
    instant(drive, c["gg_1998"], 0.5)
    instant(c["tanh"], c["gauss"], 1.0)
    delayed(drive, c["tanh_opn"], 0.5, 1.0)
    instant(c["tanh_opn"], c["threshold_opn"], 0.9)
    instant(drive, c["lin_opn"], 0.3)
    instant(c["threshold_opn"], c["lin_opn"], -0.2)
    instant(drive, c["loop_a"], 1.0)  # a loop of instantaneous connections
    instant(c["loop_a"], c["loop_b"], 0.5)
    instant(c["loop_b"], c["loop_a"], 0.5)
    for name in transformers:
        instant(c["tanh"], c["transformer_" + name], 0.5)
        delayed(drive, c["transformer_" + name], 0.3, 1.0)
    return created


def run(nest, use_wfr, threads=1, first=T / 2):
    """Every neuron's rate at every step (and noisy_rate of the output-noise ones), by name,
    simulated in two calls, the first `first` ms long. NEST loses the delayed rates of a
    cycle's first part where a call ends inside it (each part sends the whole cycle's rates,
    zeros for the steps before it, over the last), so its fixture ends calls on cycles."""
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 0.1, "local_num_threads": threads, "use_wfr": use_wfr})
    created = _network(nest)
    meters = {}
    for name, node in created.items():
        record = ["rate", "noisy_rate"] if "opn" in name else ["rate"]
        meters[name] = nest.Create("multimeter", params={"record_from": record, "interval": 0.1})
        nest.Connect(meters[name], node)
    nest.Simulate(first)
    nest.Simulate(T - first)
    out = {"min_delay": nest.GetKernelStatus("min_delay")}
    for name, meter in meters.items():
        events = meter.get("events")
        for key in ("rate", "noisy_rate"):
            if key in events:
                out[f"{name}.{key}"] = np.asarray(events[key], dtype=float).tolist()
    return out


def fixture(nest):
    return {"wfr": run(nest, True), "no_wfr": run(nest, False)}


if __name__ == "__main__":
    import ranvier

    result = run(ranvier, sys.argv[1] == "True", int(sys.argv[2]))  # a multimeter's events come from every rank
    if ranvier.Rank() == 0:
        print(json.dumps(result))
