"""Builds the C kernel of the batch evaluator; everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "taiwan_poker.evaluate._kernel",
            sources=["src/taiwan_poker/evaluate/_kernel.c"],
            extra_compile_args=["-O3", "-std=c11"],
        )
    ]
)
