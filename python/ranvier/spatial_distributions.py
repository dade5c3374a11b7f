"""NEST's ``spatial_distributions``: functions of a (usually distance) parameter."""

from .spatial.parameters import exponential, gabor, gamma, gaussian, gaussian2D

__all__ = ["exponential", "gaussian", "gaussian2D", "gamma", "gabor"]
