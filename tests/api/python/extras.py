"""The optional packages the Python tests use (torch, transformers, jsonschema): a test that needs
one is skipped where it is absent, except in the suite's own test environment (CTest sets
GLRMASK_PYTHON_EXTRAS=required), where an absent package is a failure: a broken environment must
not turn into tests that silently did not run."""

import importlib
import os

import pytest


def need(module):
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if os.environ.get("GLRMASK_PYTHON_EXTRAS") == "required":
            pytest.fail(f"{module} is missing from the test environment: {error}")
        pytest.skip(f"{module} is not installed")
