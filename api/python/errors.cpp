#include "api/python/errors.h"

#include <pybind11/stl.h>

namespace glrmask::python {
namespace {

// Leaked: they must outlive the interpreter's teardown of the module.
py::object& error_class() {
  static auto* object = new py::object();
  return *object;
}
py::object& rejection_class() {
  static auto* object = new py::object();
  return *object;
}

}  // namespace

void set_error_classes(py::object error, py::object rejection) {
  error_class() = std::move(error);
  rejection_class() = std::move(rejection);
}

py::dict location_dict(const ErrorLocation& where) {
  py::dict d;
  d["file"] = where.file;
  d["line"] = where.line;
  d["column"] = where.column;
  d["json_pointer"] = where.json_pointer;
  d["byte_offset"] = where.byte_offset;
  d["token"] = where.token;
  return d;
}

bool translate_error(std::exception_ptr pointer) {
  try {
    if (pointer) std::rethrow_exception(pointer);
  } catch (const RejectionError& e) {
    py::dict details = location_dict(e.where());
    details["code"] = error_code_name(e.code());
    details["expected"] = e.expected();
    PyObject* type = rejection_class() ? rejection_class().ptr() : PyExc_ValueError;
    PyErr_SetObject(type, py::make_tuple(e.what(), details).ptr());
    return true;
  } catch (const Error& e) {
    py::dict details = location_dict(e.where());
    details["code"] = error_code_name(e.code());
    PyObject* type = error_class() ? error_class().ptr() : PyExc_RuntimeError;
    PyErr_SetObject(type, py::make_tuple(e.what(), details).ptr());
    return true;
  } catch (...) {
    return false;
  }
  return false;
}

void set_python_error(std::exception_ptr pointer) {
  if (translate_error(pointer)) return;
  try {
    std::rethrow_exception(pointer);
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception");
  }
}

}  // namespace glrmask::python
