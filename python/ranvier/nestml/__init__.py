"""Ranvier as a NESTML target: generate_ranvier_target turns NESTML models into a Ranvier module
that Install loads, as NESTML's generate_nest_target does for NEST (docs/nestml.md).

NESTML (pip install nestml) parses, checks and transforms the models and runs ODE-toolbox, with
the NEST target's transformers; Ranvier's code generator (code_generator.py) renders its own
templates, and ranvier.modules builds the result against the installed kernel."""

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pynestml.cocos.co_cos_manager import CoCosManager
from pynestml.frontend import pynestml_frontend as frontend
from pynestml.frontend.frontend_configuration import FrontendConfiguration
from pynestml.utils.logger import Logger

from ..modules import build_module, default_module_dir
from .code_generator import RanvierCodeGenerator
from .support import UnsupportedNESTML

__all__ = ["generate_ranvier_target", "UnsupportedNESTML"]


def generate_ranvier_target(
    input_path: str | Sequence[str],
    target_path: str | None = None,
    install_path: str | None = None,
    logging_level: str = "ERROR",
    module_name: str = "nestmlmodule",
    store_log: bool = False,
    suffix: str = "",
    dev: bool = False,
    codegen_opts: Mapping[str, Any] | None = None,
) -> None:
    """Generates Ranvier models from the NESTML files (or folders) at input_path into target_path
    and builds them into install_path/<module_name>.so (default: ranvier.modules'
    default_module_dir(), where Install looks), with generate_nest_target's arguments and model
    names (<model><suffix>). Raises UnsupportedNESTML naming a feature the target lacks, and
    NESTML's own exception where a model has errors."""
    # NESTML's front end with the NEST target's transformers (its list of targets is fixed)
    frontend.configure_front_end(
        input_path,
        "NEST",
        target_path,
        install_path,
        logging_level,
        module_name,
        store_log,
        suffix,
        dev,
        dict(codegen_opts or {}),
    )
    options = FrontendConfiguration.get_codegen_opts()
    transformers, _ = frontend.transformers_from_target_name("NEST", options=options)
    generator = RanvierCodeGenerator(options)
    models = frontend.get_parsed_models()
    for model in models:
        if not Logger.has_errors(model):
            CoCosManager.check_cocos(model)
    broken = [m.get_name() for m in models if Logger.has_errors(m)]
    if broken or not models:
        raise Exception(f"NESTML found errors in {', '.join(broken) or 'the input'} (see its log)")
    models, metadata = frontend.transform_models(transformers, models)
    generator.generate_code(models, metadata)
    generated = Path(FrontendConfiguration.get_target_path())
    build_module([generated / f"{module_name}.cpp"], module_name, Path(install_path or default_module_dir()))
