// glrmask errors as Python exceptions: glrmask.Error (a RuntimeError) and glrmask.RejectionError
// (also a ValueError), classes written in glrmask/__init__.py and handed over at import. Each is
// raised as Class(message, details), `details` holding the code and the place (file, line,
// column, JSON pointer, byte offset, token) that the classes expose as attributes.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>

#include "glrmask/error.hpp"

namespace glrmask::python {

namespace py = pybind11;

// glrmask/__init__.py calls this (as _glrmask._set_error_classes) once.
void set_error_classes(py::object error, py::object rejection);

// The place of an error or a warning as a dict.
py::dict location_dict(const ErrorLocation& where);

// Sets the Python error for a glrmask::Error; returns false for any other exception.
bool translate_error(std::exception_ptr pointer);

// For functions called without pybind11's dispatcher (hot_methods.h): sets the Python error for
// whatever `pointer` holds (a glrmask::Error, a Python error raised meanwhile, any other C++
// exception as RuntimeError). Call in a catch block; then return nullptr to Python.
void set_python_error(std::exception_ptr pointer);

}  // namespace glrmask::python
