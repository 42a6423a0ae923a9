"""Fixtures of the odds tests."""

from ..evaluate.kernels import batch_kernel

__all__ = ["batch_kernel"]
