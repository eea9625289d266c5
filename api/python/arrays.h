// The arrays the Python module reads and writes in place: token bitmasks (int32 words, one row
// per sequence) and logits, as numpy arrays or CPU torch tensors. Nothing is converted: a dtype,
// a layout or a device that would need a copy is refused with an error saying what was given,
// because a copy would silently lose what the call writes.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <span>

#include "api/python/apply_bitmask.h"

namespace glrmask::python {

namespace py = pybind11;

// The int32 array behind a numpy array or a CPU torch tensor (its numpy() view) of one row
// ([words]) or several ([rows, words]), C-contiguous, and writable when `writable`. Throws
// glrmask::Error (kInvalidArgument) naming what is wrong.
py::array bitmask_array(py::object object, bool writable = true);
py::ssize_t rows_of(const py::array& array);
py::ssize_t words_of(const py::array& array);
// Row `index` of such an array; throws when it is out of range.
std::span<std::int32_t> row_of(py::array& array, py::ssize_t index);

// The hot path's check of the same (a numpy int32 array, C-contiguous, writable, in range), read
// from the array's header without creating any Python object. Nothing when it does not apply:
// the caller then takes bitmask_array, which accepts a tensor or names the error.
std::optional<std::span<std::int32_t>> numpy_row(PyObject* object, Py_ssize_t index);

// Logits of one or two dimensions (float32 or float16 numpy; float32, float16 or bfloat16 CPU
// torch) whose rows are contiguous; the row stride may be anything.
LogitsView logits_view(const py::object& object);

}  // namespace glrmask::python
