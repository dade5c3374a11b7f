# The compiled kernel (nanobind, src/bindings) comes without generated stubs: to mypy every
# name in it is Any, so calls into the kernel are not checked.
from typing import Any

def __getattr__(name: str) -> Any: ...
