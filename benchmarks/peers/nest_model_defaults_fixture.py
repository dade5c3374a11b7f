"""Writes tests/fixtures/nest_model_defaults.json: for every neuron and synapse model Ranvier
has, the keys of NEST 3.10's GetDefaults, its recordables (neurons) and the values that are
plain data (numbers, strings, booleans and lists of them; not node collections or dicts).

    /work/peers-venv/bin/python benchmarks/peers/nest_model_defaults_fixture.py

The model lists below are Ranvier's (ranvier.Models("nodes") less its devices, and
ranvier.Models("synapses")); tests/test_model_defaults.py checks that they still are, and
compares Ranvier's GetDefaults with the fixture. Models NEST does not have are listed under
"not_in_nest"."""

import json
import math
import numbers
import os
import sys

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "nest_model_defaults.json")
NEURONS = (
    "aeif_cond_alpha",
    "aeif_cond_alpha_multisynapse",
    "aeif_cond_beta_multisynapse",
    "aeif_cond_exp",
    "aeif_psc_alpha",
    "aeif_psc_delta",
    "aeif_psc_delta_clopath",
    "aeif_psc_exp",
    "artificial_spiking_cell",
    "cable_cell",
    "cm_default",
    "gif_cond_exp",
    "gif_cond_exp_multisynapse",
    "gif_psc_exp",
    "gif_psc_exp_multisynapse",
    "glif_cond",
    "glif_psc",
    "glif_psc_double_alpha",
    "hh_cond_exp_traub",
    "hh_psc_alpha",
    "hh_psc_alpha_clopath",
    "iaf_chs_2007",
    "iaf_chxk_2008",
    "iaf_cond_alpha",
    "iaf_cond_alpha_mc",
    "iaf_cond_beta",
    "iaf_cond_exp",
    "iaf_cond_exp_sfa_rr",
    "iaf_psc_alpha",
    "iaf_psc_alpha_multisynapse",
    "iaf_psc_alpha_ps",
    "iaf_psc_delta",
    "iaf_psc_delta_ps",
    "iaf_psc_exp",
    "iaf_psc_exp_htum",
    "iaf_psc_exp_multisynapse",
    "iaf_psc_exp_ps",
    "iaf_psc_exp_ps_lossless",
    "iaf_tum_2000",
    "iaf_bw_2001",
    "gif_pop_psc_exp",
    "ignore_and_fire",
    "izhikevich",
    "mat2_psc_exp",
    "amat2_psc_exp",
    "parrot_neuron",
    "parrot_neuron_ps",
    "pp_cond_exp_mc_urbanczik",
    "pp_psc_delta",
    "spike_train_injector",
    "volume_transmitter",
    "gauss_rate_ipn",
    "lin_rate_ipn",
    "lin_rate_opn",
    "sigmoid_rate_gg_1998_ipn",
    "sigmoid_rate_ipn",
    "tanh_rate_ipn",
    "tanh_rate_opn",
    "threshold_lin_rate_ipn",
    "threshold_lin_rate_opn",
    "rate_transformer_gauss",
    "rate_transformer_lin",
    "rate_transformer_sigmoid",
    "rate_transformer_sigmoid_gg_1998",
    "rate_transformer_tanh",
    "rate_transformer_threshold_lin",
    "hh_psc_alpha_gap",
    "hh_cond_beta_gap_traub",
    "siegert_neuron",
    "step_rate_generator",
    "eprop_iaf",
    "eprop_iaf_adapt",
    "eprop_iaf_psc_delta",
    "eprop_iaf_psc_delta_adapt",
    "eprop_readout",
    "eprop_iaf_bsshslm_2020",
    "eprop_iaf_adapt_bsshslm_2020",
    "eprop_readout_bsshslm_2020",
    "ht_neuron",
    "astrocyte_lr_1994",
    "aeif_cond_alpha_astro",
    "ginzburg_neuron",
    "mcculloch_pitts_neuron",
    "erfc_neuron",
)
_SYNAPSE_BASES = (
    "bernoulli_synapse",
    "clopath_synapse",
    "cont_delay_synapse",
    "ht_synapse",
    "jonke_synapse",
    "quantal_stp_synapse",
    "static_synapse",
    "static_synapse_hom_w",
    "stdp_dopamine_synapse",
    "stdp_facetshw_synapse_hom",
    "stdp_nn_pre_centered_synapse",
    "stdp_nn_restr_synapse",
    "stdp_nn_symm_synapse",
    "stdp_pl_synapse_hom",
    "stdp_synapse",
    "stdp_synapse_hom",
    "stdp_triplet_synapse",
    "tsodyks2_synapse",
    "tsodyks_synapse",
    "tsodyks_synapse_hom",
    "urbanczik_synapse",
    "vogels_sprekeler_synapse",
)
# the connections between coupled nodes have no _hpc or _lbl variants
SYNAPSES = tuple(b + s for b in _SYNAPSE_BASES for s in ("", "_hpc", "_lbl")) + (
    "rate_connection_delayed",
    "rate_connection_instantaneous",
    "gap_junction",
    "diffusion_connection",
    "sic_connection",
    "eprop_synapse",
    "eprop_synapse_hpc",
    "eprop_learning_signal_connection",
    "eprop_synapse_bsshslm_2020",
    "eprop_synapse_bsshslm_2020_hpc",
    "eprop_learning_signal_connection_bsshslm_2020",
)


def plain(value):
    """value as JSON data if it is plain data, else None."""
    if isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, (list, tuple)) or type(value).__name__ == "ndarray":
        items = [plain(v) for v in list(value)]
        return items if all(isinstance(v, (bool, str, int, float)) for v in items) else None
    return None


def dumps(out):
    """JSON with one line per model in each section (readable diffs)."""
    items = []
    for key in sorted(out):
        value = out[key]
        if isinstance(value, dict):
            lines = ",\n".join(f"  {json.dumps(m)}: {json.dumps(value[m], sort_keys=True)}" for m in sorted(value))
            items.append(f" {json.dumps(key)}: {{\n{lines}\n }}")
        else:
            items.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(items) + "\n}\n"


def main():
    import nest

    nest.verbosity = nest.VerbosityLevel.FATAL
    available = set(nest.node_models) | set(nest.synapse_models)
    out = {
        "nest_version": nest.__version__,
        "neurons": list(NEURONS),
        "synapses": list(SYNAPSES),
        "not_in_nest": sorted(m for m in NEURONS + SYNAPSES if m not in available),
        "keys": {},
        "values": {},
        "recordables": {},
    }
    for model in NEURONS + SYNAPSES:
        if model not in available:
            continue
        d = nest.GetDefaults(model)
        out["keys"][model] = sorted(d)
        values = {}
        for k in sorted(d):
            if k == "recordables":
                continue
            v = plain(d[k])
            if v is not None:
                values[k] = v
        out["values"][model] = values
        if "recordables" in d:
            out["recordables"][model] = sorted(str(r) for r in d["recordables"])
    assert not any(isinstance(v, float) and math.isnan(v) for m in out["values"].values() for v in m.values())
    with open(FIXTURE, "w") as f:
        f.write(dumps(out))
    print(f"wrote {FIXTURE}", file=sys.stderr)


if __name__ == "__main__":
    main()
