#include "api/python/arrays.h"

#include <string>
#include <vector>

#include "glrmask/error.hpp"

namespace glrmask::python {
namespace {

// True for a torch.Tensor (duck-typed: the module does not import torch).
bool is_torch_tensor(const py::object& object) {
  return py::hasattr(object, "data_ptr") && py::hasattr(object, "dtype") &&
         py::hasattr(object, "device");
}

// Refuses a tensor that is not in host memory, with what to do instead.
void require_cpu(const py::object& tensor, const char* what) {
  const std::string device = py::str(tensor.attr("device").attr("type"));
  if (device != "cpu")
    throw Error(std::string(what) + " is on the '" + device +
                    "' device; glrmask reads and writes host memory: fill a CPU bitmask (pinned, "
                    "for a fast copy) and move it to the device after",
                ErrorCode::kInvalidArgument);
}

}  // namespace

// The int32 array behind `object`, without a copy: a numpy array, or a CPU torch tensor through
// its numpy() view. A conversion that copied would lose what is written, so anything else (another
// dtype, a strided view, a read-only array) is refused.
py::array bitmask_array(py::object object, bool writable) {
  if (!py::isinstance<py::array>(object) && is_torch_tensor(object)) {
    require_cpu(object, "the bitmask");
    const std::string dtype = py::str(object.attr("dtype"));
    if (dtype != "torch.int32")
      throw Error("the bitmask must hold int32 words (got " + dtype + ")",
                  ErrorCode::kInvalidArgument);
    object = object.attr("numpy")();
  }
  if (!py::isinstance<py::array>(object))
    throw Error("the bitmask must be a numpy array or a CPU torch tensor of int32 words",
                ErrorCode::kInvalidArgument);
  py::array array = py::reinterpret_borrow<py::array>(object);
  if (!array.dtype().is(py::dtype::of<std::int32_t>()))
    throw Error(
        "the bitmask must hold int32 words (got " + std::string(py::str(array.dtype())) + ")",
        ErrorCode::kInvalidArgument);
  if (!(array.flags() & py::array::c_style) || (writable && !array.writeable()))
    throw Error(writable ? "the bitmask must be C-contiguous and writable"
                         : "the bitmask must be C-contiguous",
                ErrorCode::kInvalidArgument);
  if (array.ndim() != 1 && array.ndim() != 2)
    throw Error(
        "the bitmask must have one or two dimensions (got " + std::to_string(array.ndim()) + ")",
        ErrorCode::kInvalidArgument);
  return array;
}

py::ssize_t rows_of(const py::array& array) {
  return array.ndim() == 2 ? array.shape(0) : 1;
}
py::ssize_t words_of(const py::array& array) {
  return array.shape(array.ndim() - 1);
}

// The words of row `index` of a bitmask of one dimension (one row) or two ([rows, words]).
std::span<std::int32_t> row_of(py::array& array, py::ssize_t index) {
  const py::ssize_t rows = rows_of(array);
  const py::ssize_t words = words_of(array);
  if (index < 0 || index >= rows)
    throw Error("bitmask row " + std::to_string(index) + " is out of range (" +
                    std::to_string(rows) + " rows)",
                ErrorCode::kInvalidArgument);
  auto* data = static_cast<std::int32_t*>(array.mutable_data());
  return {data + index * words, static_cast<std::size_t>(words)};
}

// The logits behind a numpy array or a CPU torch tensor of one or two dimensions whose rows are
// contiguous (the row stride may be anything: a slice of a larger batch is fine).
LogitsView logits_view(const py::object& object) {
  LogitsView view;
  std::size_t item = 0;
  std::vector<py::ssize_t> shape;
  std::vector<py::ssize_t> strides;  // in elements
  if (py::isinstance<py::array>(object)) {
    py::array array = py::reinterpret_borrow<py::array>(object);
    if (array.dtype().is(py::dtype::of<float>())) {
      view.type = LogitType::kFloat32;
    } else if (array.dtype().is(py::dtype("float16"))) {
      view.type = LogitType::kFloat16;
    } else {
      throw Error(
          "the logits must be float32 or float16 (got " + std::string(py::str(array.dtype())) + ")",
          ErrorCode::kInvalidArgument);
    }
    if (!array.writeable()) throw Error("the logits are read-only", ErrorCode::kInvalidArgument);
    item = static_cast<std::size_t>(array.itemsize());
    for (py::ssize_t d = 0; d < array.ndim(); ++d) {
      shape.push_back(array.shape(d));
      if (array.strides(d) % static_cast<py::ssize_t>(item) != 0)
        throw Error("the logits' strides are not whole elements", ErrorCode::kInvalidArgument);
      strides.push_back(array.strides(d) / static_cast<py::ssize_t>(item));
    }
    view.data = array.mutable_data();
  } else if (is_torch_tensor(object)) {
    require_cpu(object, "the logits");
    const std::string dtype = py::str(object.attr("dtype"));
    if (dtype == "torch.float32") {
      view.type = LogitType::kFloat32;
    } else if (dtype == "torch.float16") {
      view.type = LogitType::kFloat16;
    } else if (dtype == "torch.bfloat16") {
      view.type = LogitType::kBFloat16;
    } else {
      throw Error("the logits must be float32, float16 or bfloat16 (got " + dtype + ")",
                  ErrorCode::kInvalidArgument);
    }
    for (const py::handle d : object.attr("shape")) shape.push_back(d.cast<py::ssize_t>());
    for (const py::handle d : object.attr("stride")()) strides.push_back(d.cast<py::ssize_t>());
    view.data = reinterpret_cast<void*>(object.attr("data_ptr")().cast<std::uintptr_t>());
  } else {
    throw Error("the logits must be a numpy array or a torch tensor", ErrorCode::kInvalidArgument);
  }
  if (shape.size() != 1 && shape.size() != 2)
    throw Error(
        "the logits must have one or two dimensions (got " + std::to_string(shape.size()) + ")",
        ErrorCode::kInvalidArgument);
  if (shape.back() > 1 && strides.back() != 1)
    throw Error("each row of logits must be contiguous", ErrorCode::kInvalidArgument);
  view.rows = shape.size() == 2 ? static_cast<std::size_t>(shape[0]) : 1;
  view.columns = static_cast<std::size_t>(shape.back());
  view.row_stride = shape.size() == 2 ? strides[0] : 0;
  return view;
}

std::optional<std::span<std::int32_t>> numpy_row(PyObject* object, Py_ssize_t index) {
  auto& api = py::detail::npy_api::get();
  if (!api.PyArray_Check_(object)) return std::nullopt;
  const auto* array = py::detail::array_proxy(object);
  constexpr int kNeeded =
      py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ | py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  if ((array->flags & kNeeded) != kNeeded || (array->nd != 1 && array->nd != 2) ||
      py::detail::array_descriptor_proxy(array->descr)->type_num != py::detail::npy_api::NPY_INT32_)
    return std::nullopt;
  const Py_ssize_t rows = array->nd == 2 ? array->dimensions[0] : 1;
  const Py_ssize_t words = array->dimensions[array->nd - 1];
  if (index < 0 || index >= rows) return std::nullopt;
  return std::span<std::int32_t>(reinterpret_cast<std::int32_t*>(array->data) + index * words,
                                 static_cast<std::size_t>(words));
}

}  // namespace glrmask::python
