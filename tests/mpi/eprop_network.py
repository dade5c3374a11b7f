"""A small e-prop network as NEST 3.10's e-prop tests build theirs: input spikes through parrots
into recurrent e-prop neurons of one model, two eprop_readouts that learn a target from two
step_rate_generators within a learning window and teach the recurrent neurons through
eprop_learning_signal_connections, every plastic connection an eprop_synapse. Written against
PyNEST's API so that NEST 3.10 (benchmarks/peers/nest_network_fixtures.py) and Ranvier
(tests/test_eprop.py) build the same; each case takes another recurrent model and optimizer,
and flush events and a cutoff of the traces shorter than the run take part. The bsshslm case
is NEST's original e-prop (the _bsshslm_2020 models): updates once per interval, adaptive and
plain recurrent neurons, readouts with the cross-entropy loss.
`mpiexec -n M python eprop_network.py CASE THREADS` prints Ranvier's as JSON on rank 0."""

import json
import sys

import numpy as np

N_IN, N_REC, N_OUT = 12, 10, 2
T = 80.0  # ms, at a resolution of 1 ms
CASES = {  # recurrent model, optimizer
    "iaf_adam": ("eprop_iaf", {"type": "adam", "eta": 5e-3, "batch_size": 1}),
    "adapt_descent_batches": (
        "eprop_iaf_adapt",
        {"type": "gradient_descent", "eta": 2e-2, "batch_size": 4, "optimize_each_step": False},
    ),
    "delta_descent": ("eprop_iaf_psc_delta", {"type": "gradient_descent", "eta": 1e-2}),
    "delta_adapt_adam": ("eprop_iaf_psc_delta_adapt", {"type": "adam", "eta": 1e-2, "optimize_each_step": False}),
    "bsshslm_adam": ("eprop_iaf_bsshslm_2020", {"type": "adam", "eta": 5e-2, "batch_size": 2}),
}
RECURRENT = {
    "C_m": 1.0,
    "E_L": 0.0,
    "V_m": 0.0,
    "V_th": 0.3,
    "tau_m": 20.0,
    "t_ref": 2.0,
    "c_reg": 0.5,
    "f_target": 20.0,
    "eprop_isi_trace_cutoff": 30.0,
    "flush_event_send_interval": 15.0,
    "surrogate_gradient_height": 1.0,
    "surrogate_gradient_width": 0.5,
}


def _weights(rng, shape, scale):
    return np.asarray(rng.normal(0.0, scale, shape), dtype=np.float32).astype(float)


def _bsshslm_populations(nest, model, params):
    """NEST's original e-prop: half the recurrent neurons adaptive, two readouts with the
    cross-entropy loss that normalize by each other, updates every 20 ms from the last 15."""
    nest.SetKernelStatus({"eprop_update_interval": 20.0, "eprop_learning_window": 15.0})
    params = {k: v for k, v in params.items() if k != "eprop_isi_trace_cutoff"}
    params.update({"flush_event_send_interval": 20.0})
    recurrent = nest.Create(model, N_REC // 2, params) + nest.Create(
        "eprop_iaf_adapt_bsshslm_2020", N_REC // 2, {**params, "adapt_beta": 0.2, "adapt_tau": 40.0}
    )
    readouts = nest.Create(
        "eprop_readout_bsshslm_2020", N_OUT, {"C_m": 1.0, "E_L": 0.0, "tau_m": 15.0, "loss": "cross_entropy"}
    )
    nest.Connect(
        readouts,
        readouts,
        {"rule": "all_to_all", "allow_autapses": False},
        {"synapse_model": "rate_connection_delayed", "delay": 1.0, "receptor_type": 1},
    )
    return recurrent, readouts


def run(nest, case, threads=1):
    """Each e-prop connection's last transmitted weight, the readouts' signals, the recurrent
    spikes and two neurons' e-prop history durations, each as lists of numbers."""
    model, optimizer = CASES[case]
    nest.ResetKernel()
    nest.SetKernelStatus({"resolution": 1.0, "local_num_threads": threads})
    rng = np.random.default_rng(7)
    params = dict(RECURRENT)
    if "delta" in model:
        params.update({"V_reset": -0.2, "surrogate_gradient_function": "fast_sigmoid_derivative"})
    if "adapt" in model:
        params.update({"adapt_beta": 0.2, "adapt_tau": 40.0})
    bsshslm = model.endswith("_bsshslm_2020")
    generators = nest.Create("spike_generator", N_IN)
    inputs = nest.Create("parrot_neuron", N_IN)
    if bsshslm:
        recurrent, readouts = _bsshslm_populations(nest, model, params)
    else:
        recurrent = nest.Create(model, N_REC, params)
        readouts = nest.Create(
            "eprop_readout", N_OUT, {"C_m": 1.0, "E_L": 0.0, "tau_m": 15.0, "eprop_isi_trace_cutoff": 30.0}
        )
    targets = nest.Create("step_rate_generator", N_OUT)
    window = nest.Create("step_rate_generator")
    wr = nest.Create("weight_recorder")
    sr = nest.Create("spike_recorder")
    mm_out = nest.Create("multimeter", params={"interval": 1.0, "record_from": ["readout_signal", "error_signal"]})
    mm_history = nest.Create("multimeter", params={"interval": 1.0, "record_from": ["eprop_history_duration"]})
    synapse = "eprop_synapse_bsshslm_2020" if bsshslm else "eprop_synapse"
    common = {"optimizer": {**optimizer, "Wmin": -3.0, "Wmax": 3.0}, "weight_recorder": wr}
    nest.SetDefaults(synapse, {**common, "average_gradient": True} if bsshslm else common)
    step = {"delay": 1.0}
    nest.Connect(generators, inputs, "one_to_one", {"synapse_model": "static_synapse", **step})
    all_to_all = {"rule": "all_to_all", "allow_autapses": False}
    for source, target, scale in ((inputs, recurrent, 0.5), (recurrent, recurrent, 0.3), (recurrent, readouts, 0.3)):
        weight = _weights(rng, (len(target), len(source)), scale)
        if source == target:
            np.fill_diagonal(weight, 0.0)
        nest.Connect(source, target, all_to_all, {"synapse_model": synapse, "weight": weight, **step})
    feedback = _weights(rng, (N_REC, N_OUT), 1.0)
    nest.Connect(
        readouts,
        recurrent,
        all_to_all,
        {"synapse_model": "eprop_learning_signal_connection", "weight": feedback, **step},
    )
    nest.Connect(
        targets, readouts, "one_to_one", {"synapse_model": "rate_connection_delayed", "receptor_type": 2, **step}
    )
    if not bsshslm:  # the original e-prop's learning window is the kernel's
        nest.Connect(
            window, readouts, "all_to_all", {"synapse_model": "rate_connection_delayed", "receptor_type": 1, **step}
        )
    nest.Connect(recurrent, sr)
    nest.Connect(mm_out, readouts)
    nest.Connect(mm_history, recurrent[:1] + readouts[:1])
    for generator in generators:
        generator.set({"spike_times": [float(t) for t in np.flatnonzero(rng.random(int(T) - 5) < 0.12) + 1.0]})
    times = np.arange(2.0, T)
    for k, target in enumerate(targets):
        target.set({"amplitude_times": times, "amplitude_values": np.sin(times / (7.0 + 3.0 * k))})
    window.set({"amplitude_times": [10.0, 60.0], "amplitude_values": [1.0, 0.0]})
    nest.Simulate(T)

    def columns(events, keys):
        order = np.lexsort([np.asarray(events[k]) for k in reversed(keys)])
        return {k: np.asarray(events[k], dtype=float)[order].tolist() for k in keys}

    # each connection's last transmitted weight, with its time
    events = columns(wr.get("events"), ["senders", "targets", "times", "weights"])
    pairs = list(zip(events["senders"], events["targets"]))
    last = [k for k in range(len(pairs)) if k + 1 == len(pairs) or pairs[k + 1] != pairs[k]]
    out = {f"weights.{k}": [v[i] for i in last] for k, v in events.items()}
    for name, recorder, keys in (
        ("readouts", mm_out, ["times", "senders", "readout_signal", "error_signal"]),
        ("spikes", sr, ["times", "senders"]),
        ("history", mm_history, ["times", "senders", "eprop_history_duration"]),
    ):
        out.update({f"{name}.{k}": v for k, v in columns(recorder.get("events"), keys).items()})
    return out


def fixture(nest):
    return {case: run(nest, case) for case in CASES}


if __name__ == "__main__":
    import ranvier

    result = run(ranvier, sys.argv[1], int(sys.argv[2]))  # recorders' events come from every rank
    if ranvier.Rank() == 0:
        print(json.dumps(result))
