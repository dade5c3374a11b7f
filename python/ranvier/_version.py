"""The package's version (NEST's build_info and the ASCII files' headers name it)."""

__version__ = "0.1.0"
