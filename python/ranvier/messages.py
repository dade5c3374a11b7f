"""NEST's message levels over Python's logging: ``nest.verbosity = nest.VerbosityLevel.ERROR``
(NEST 3.10), ``nest.set_verbosity("M_ERROR")`` (NEST 3.0-3.9) and ``nest.message``.

Messages go to the logger ``"ranvier"``; handlers and formats are Python's to configure
(``logging.getLogger("ranvier")``). The verbosity is that logger's level."""

import enum
import logging
from typing import Any

from .errors import BadParameterError

logger = logging.getLogger("ranvier")


class VerbosityLevel(enum.IntEnum):
    """NEST's severities, from everything (ALL) to nothing (QUIET)."""

    ALL = 0
    DEBUG = 5
    STATUS = 7
    INFO = 10
    DEPRECATED = 18
    WARNING = 20
    ERROR = 30
    FATAL = 40
    QUIET = 100


# NEST's level -> Python's level at which the same messages pass
_TO_LOGGING = {
    VerbosityLevel.ALL: 1,
    VerbosityLevel.DEBUG: logging.DEBUG,
    VerbosityLevel.STATUS: logging.INFO - 1,
    VerbosityLevel.INFO: logging.INFO,
    VerbosityLevel.DEPRECATED: logging.WARNING - 1,
    VerbosityLevel.WARNING: logging.WARNING,
    VerbosityLevel.ERROR: logging.ERROR,
    VerbosityLevel.FATAL: logging.CRITICAL,
    VerbosityLevel.QUIET: logging.CRITICAL + 50,
}
DEFAULT = VerbosityLevel.INFO


def _install_handler():
    """NEST prints its messages to the terminal by default; so does Ranvier, once. NEST's
    levels between Python's get their names."""
    logging.addLevelName(_TO_LOGGING[VerbosityLevel.STATUS], "STATUS")
    logging.addLevelName(_TO_LOGGING[VerbosityLevel.DEPRECATED], "DEPRECATED")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("[%(levelname)s] %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
    logger.setLevel(_TO_LOGGING[DEFAULT])


def level(value: VerbosityLevel | int | str) -> VerbosityLevel:
    """A VerbosityLevel from a VerbosityLevel, its number, its name or NEST 3.0's "M_NAME"."""
    if isinstance(value, str):
        name = value[2:] if value.startswith("M_") else value
        if name in VerbosityLevel.__members__:
            return VerbosityLevel[name]
    elif isinstance(value, int) and not isinstance(value, bool) and value in set(VerbosityLevel):
        return VerbosityLevel(value)
    names = ", ".join(VerbosityLevel.__members__)
    raise BadParameterError(f"verbosity must be a VerbosityLevel ({names}), got verbosity = {value!r}")


def set_verbosity(value: VerbosityLevel | int | str) -> None:
    logger.setLevel(_TO_LOGGING[level(value)])


def get_verbosity() -> VerbosityLevel:
    current = logger.level
    return max((lvl for lvl, py in _TO_LOGGING.items() if py <= current), default=VerbosityLevel.ALL)


def message(*args: Any) -> None:
    """``message(text, level=VerbosityLevel.INFO)`` (NEST 3.10) or ``message(level, sender, text)``
    (NEST 3.0-3.9)."""
    if len(args) == 3:
        lvl, sender, text = args
        text = f"{sender}: {text}"
    elif len(args) in (1, 2):
        text, lvl = args[0], args[1] if len(args) == 2 else VerbosityLevel.INFO
    else:
        raise BadParameterError(f"message takes (text, level) or (level, sender, text), got {len(args)} arguments")
    logger.log(_TO_LOGGING[level(lvl)], "%s", text)


_install_handler()
