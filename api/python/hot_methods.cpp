#include "api/python/hot_methods.h"

#include <cstdint>
#include <string_view>

#include "api/python/arrays.h"
#include "api/python/errors.h"
#include "glrmask/matcher.hpp"

namespace glrmask::python {
namespace {

// The GIL released for a scope, with none of pybind11's thread-state bookkeeping (a hot method
// is always entered holding the GIL on a thread Python knows).
class WithoutGil {
 public:
  WithoutGil() : state_(PyEval_SaveThread()) {}
  ~WithoutGil() { PyEval_RestoreThread(state_); }
  WithoutGil(const WithoutGil&) = delete;
  WithoutGil& operator=(const WithoutGil&) = delete;

 private:
  PyThreadState* state_;
};

Matcher& matcher_of(PyObject* self) {
  return py::cast<Matcher&>(py::handle(self));
}

// The arguments of a METH_FASTCALL | METH_KEYWORDS call by position: slot i gets the i-th
// positional argument or the keyword argument named names[i]. Throws a Python TypeError for an
// unknown keyword, one given twice or too many positional arguments.
template <std::size_t N>
void bind_arguments(const char* function, const std::array<std::string_view, N>& names,
                    PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                    std::array<PyObject*, N>& slots) {
  if (nargs > static_cast<Py_ssize_t>(N))
    throw py::type_error(std::string(function) + "() takes at most " + std::to_string(N) +
                         " arguments");
  for (Py_ssize_t i = 0; i < nargs; ++i) slots[static_cast<std::size_t>(i)] = args[i];
  if (kwnames == nullptr) return;
  for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); ++k) {
    Py_ssize_t length = 0;
    const char* name = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(kwnames, k), &length);
    if (name == nullptr) throw py::error_already_set();
    std::size_t slot = N;
    for (std::size_t i = 0; i < N; ++i)
      if (names[i] == std::string_view(name, static_cast<std::size_t>(length))) slot = i;
    if (slot == N)
      throw py::type_error(std::string(function) + "() got an unexpected keyword argument '" +
                           std::string(name, static_cast<std::size_t>(length)) + "'");
    if (slots[slot] != nullptr)
      throw py::type_error(std::string(function) + "() got multiple values for argument '" +
                           std::string(names[slot]) + "'");
    slots[slot] = args[nargs + k];
  }
}

Py_ssize_t integer_argument(PyObject* value, const char* what) {
  const Py_ssize_t n = PyLong_AsSsize_t(value);
  if (n == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::type_error(std::string(what) + " must be an integer");
  }
  return n;
}

// fill_next_token_bitmask(bitmask, index=0) -> bool
PyObject* fill_next_token_bitmask(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                  PyObject* kwnames) {
  try {
    std::array<PyObject*, 2> slots{};
    bind_arguments<2>("fill_next_token_bitmask", {"bitmask", "index"}, args, nargs, kwnames, slots);
    if (slots[0] == nullptr)
      throw py::type_error("fill_next_token_bitmask() missing required argument 'bitmask'");
    const Py_ssize_t index = slots[1] == nullptr ? 0 : integer_argument(slots[1], "index");
    Matcher& matcher = matcher_of(self);
    std::span<std::int32_t> row;
    if (const auto fast = numpy_row(slots[0], index)) {
      row = *fast;
    } else {
      py::array array = bitmask_array(py::reinterpret_borrow<py::object>(slots[0]));
      row = row_of(array, index);  // the tensor's storage outlives its numpy view
    }
    bool restricts = false;
    {
      WithoutGil released;
      restricts = matcher.fill_next_token_bitmask(row);
    }
    return PyBool_FromLong(restricts ? 1 : 0);
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

// accept_token(token) -> bool
PyObject* accept_token(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  try {
    std::array<PyObject*, 1> slots{};
    bind_arguments<1>("accept_token", {"token"}, args, nargs, kwnames, slots);
    if (slots[0] == nullptr)
      throw py::type_error("accept_token() missing required argument 'token'");
    const Py_ssize_t token = integer_argument(slots[0], "token");
    if (token < INT32_MIN || token > INT32_MAX)
      throw Error("token id " + std::to_string(token) + " is out of range",
                  ErrorCode::kInvalidArgument);
    Matcher& matcher = matcher_of(self);
    bool accepted = false;
    {
      WithoutGil released;
      accepted = matcher.accept_token(static_cast<std::int32_t>(token));
    }
    return PyBool_FromLong(accepted ? 1 : 0);
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

// is_terminated() -> bool
PyObject* is_terminated(PyObject* self, PyObject* /*unused*/) {
  try {
    return PyBool_FromLong(matcher_of(self).is_terminated() ? 1 : 0);
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

// The docstrings start with the signature in the form inspect.signature reads.
PyMethodDef kHotMethods[] = {
    {"fill_next_token_bitmask",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fill_next_token_bitmask)),
     METH_FASTCALL | METH_KEYWORDS,
     "fill_next_token_bitmask($self, /, bitmask, index=0)\n--\n\n"
     "Writes the next token's mask into row `index` of `bitmask` (int32 [rows, words] or "
     "[words], numpy or CPU torch). Returns whether the mask leaves any token out (False: "
     "applying it would change nothing)."},
    {"accept_token", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&accept_token)),
     METH_FASTCALL | METH_KEYWORDS,
     "accept_token($self, /, token)\n--\n\n"
     "Advances over `token`; False, with the state unchanged, when the constraint refuses it."},
    {"is_terminated", &is_terminated, METH_NOARGS,
     "is_terminated($self, /)\n--\n\n"
     "The text has ended (a stop id was accepted, or it cannot go on): the mask is empty."},
};

}  // namespace

void add_hot_methods(py::handle matcher_class) {
  auto* type = reinterpret_cast<PyTypeObject*>(matcher_class.ptr());
  for (PyMethodDef& method : kHotMethods) {
    PyObject* descriptor = PyDescr_NewMethod(type, &method);
    if (descriptor == nullptr) throw py::error_already_set();
    if (PyObject_SetAttrString(matcher_class.ptr(), method.ml_name, descriptor) != 0) {
      Py_DECREF(descriptor);
      throw py::error_already_set();
    }
    Py_DECREF(descriptor);
  }
}

}  // namespace glrmask::python
