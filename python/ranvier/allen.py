"""Allen Cell Types database models as cable cells: the description of a perisomatic model (its
SWC morphology and its fit's parameters, the `*_fit.json` that BMTK and the AllenSDK read), built
as BMTK's `aibs_perisomatic` and the AllenSDK build it (docs/cable.md, "An Allen cell"). The
model's channels are NMODL files that `ranvier.load_mechanisms` loads first (BMTK ships them)."""

import json
from pathlib import Path
from typing import Any

from .cable import branches
from .errors import BadParameterError

# The AllenSDK's and BMTK's axon stub: two sections of 30 um x 1 um in place of the reconstructed axon.
AXON_STUB = [{"length": 30.0, "diameter": 1.0}, {"length": 30.0, "diameter": 1.0}]
# Their CV rule: nseg = 1 + 2 int(L / 40 um) (BMTK's dL = 20 um).
SEGMENT_LENGTH = 40.0


def perisomatic(morphology: str | Path, fit: str | Path | dict[str, Any]) -> dict[str, Any]:
    """The cable cell description of a perisomatic model: the SWC file's tree with its axon
    replaced by the stub, nseg = 1 + 2 int(L / 40 um) per branch, Ra, cm per section type and
    pas with e_pas everywhere (the fit's "passive"), the genome's mechanism parameters per section
    type (`gbar_NaTs` is NaTs's gbar, `g_pas` pas's g), ena and ek where the fit's conditions set
    them, and its celsius and v_init. Section types the morphology lacks are skipped, as BMTK
    does. Add synapses, clamps and a spike detector to it as to any description."""
    params: dict[str, Any] = fit if isinstance(fit, dict) else json.loads(Path(fit).read_text())
    try:
        passive, conditions, genome = params["passive"][0], params["conditions"][0], params["genome"]
        shape = {"swc": str(morphology), "replace_axon": AXON_STUB}
        regions = {b["name"] for b in branches({"morphology": shape})}
        mechanisms: dict[str, dict[str, dict[str, Any]]] = {
            region: {"pas": {"e": passive["e_pas"]}} for region in sorted(regions)
        }
        for gene in genome:
            if gene["section"] in regions:
                mechanism = gene["mechanism"] or "pas"
                parameter = gene["name"].removesuffix(f"_{mechanism}")
                mechanisms[gene["section"]].setdefault(mechanism, {})[parameter] = gene["value"]
        ions: dict[str, dict[str, dict[str, Any]]] = {"na": {"e": {}}, "k": {"e": {}}}
        for erev in conditions["erev"]:
            if erev["section"] in regions:
                ions["na"]["e"][erev["section"]], ions["k"]["e"][erev["section"]] = erev["ena"], erev["ek"]
        return {
            "morphology": shape,
            "cv_policy": {"odd_per_length": SEGMENT_LENGTH},
            "Ra": passive["ra"],
            "cm": {c["section"]: c["cm"] for c in passive["cm"] if c["section"] in regions},
            "celsius": conditions["celsius"],
            "V_init": conditions["v_init"],
            "ions": {ion: values for ion, values in ions.items() if values["e"]},
            "mechanisms": mechanisms,
        }
    except (KeyError, IndexError, TypeError) as error:
        raise BadParameterError(f"perisomatic: fit = {fit!r:.80} is not an Allen perisomatic fit ({error!r})") from None
