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
from pynestml.utils.logger import Logger, LoggingLevel

from ..modules import build_module, default_module_dir
from .code_generator import RanvierCodeGenerator
from .support import NESTMLError, UnsupportedNESTML

__all__ = ["generate_ranvier_target", "NESTMLError", "UnsupportedNESTML"]


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
    names (<model><suffix>). Raises NESTMLError with NESTML's messages where a model has errors,
    UnsupportedNESTML naming a feature the target lacks."""
    if target_path is not None:
        Path(target_path).mkdir(parents=True, exist_ok=True)  # NESTML makes only its last folder
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
    # NESTML's log entries: (artifact, node, level, code, position, message)
    errors = [f"{e[1].get_name()} {e[4]}: {e[5]}" for m in models for e in Logger.get_messages(m, LoggingLevel.ERROR)]
    if errors or not models:
        raise NESTMLError("NESTML found errors: " + ("; ".join(errors) or f"no model in {input_path}"))
    models, metadata = frontend.transform_models(transformers, models)
    generator.generate_code(models, metadata)
    generated = Path(FrontendConfiguration.get_target_path())
    build_module(
        [generated / f"{module_name}.cpp"],
        module_name,
        Path(install_path or default_module_dir()),
        headers=list(generated.glob("*.hpp")),
    )
