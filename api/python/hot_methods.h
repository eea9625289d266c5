// The Matcher methods a decoding loop calls on every step of every sequence, written against the
// CPython calling convention (METH_FASTCALL) instead of through pybind11's dispatcher, and with
// the GIL released by PyEval_SaveThread instead of pybind11's scoped release: together these were
// most of what a Python call cost over the C++ one (docs/api.md, "What the facade costs"). Their
// behaviour, errors and signatures are those of the other bindings.
#pragma once

#include <pybind11/pybind11.h>

namespace glrmask::python {

// Adds fill_next_token_bitmask, accept_token and is_terminated to the Matcher class.
void add_hot_methods(pybind11::handle matcher_class);

}  // namespace glrmask::python
