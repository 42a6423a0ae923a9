"""Fixtures of the evaluator tests."""

from .kernels import batch_kernel

__all__ = ["batch_kernel"]
