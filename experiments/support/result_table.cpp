#include "experiments/support/result_table.h"

#include <fmt/format.h>

#include "lib/core/error.h"

namespace glrmask::experiments {
namespace {

std::string csv_cell(const std::string& cell) {
  if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
  std::string quoted = "\"";
  for (const char c : cell) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string markdown_cell(const std::string& cell) {
  std::string text;
  for (const char c : cell) {
    if (c == '|') {
      text += "\\|";
    } else if (c == '\n' || c == '\r') {
      text += ' ';
    } else {
      text += c;
    }
  }
  return text;
}

template <class Format>
std::string join_row(const std::vector<std::string>& cells, const char* separator, Format format) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line += separator;
    line += format(cells[i]);
  }
  return line;
}

}  // namespace

void ResultTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size())
    throw Error(fmt::format("result table: row {} has {} cells, the table has {} columns",
                            rows_.size() + 1, cells.size(), columns_.size()),
                ErrorCode::kInternal);
  rows_.push_back(std::move(cells));
}

void ResultTable::align_right(std::initializer_list<std::size_t> columns) {
  for (const std::size_t column : columns) {
    if (column >= columns_.size())
      throw Error(fmt::format("result table: no column {} to align (the table has {})", column,
                              columns_.size()),
                  ErrorCode::kInternal);
    right_aligned_[column] = true;
  }
}

std::string ResultTable::to_csv() const {
  std::string text = join_row(columns_, ",", csv_cell) + "\n";
  for (const auto& row : rows_) text += join_row(row, ",", csv_cell) + "\n";
  return text;
}

std::string ResultTable::to_markdown() const {
  std::string text = "| " + join_row(columns_, " | ", markdown_cell) + " |\n|";
  for (std::size_t i = 0; i < columns_.size(); ++i) text += right_aligned_[i] ? "---:|" : "---|";
  text += "\n";
  for (const auto& row : rows_) text += "| " + join_row(row, " | ", markdown_cell) + " |\n";
  return text;
}

std::string csv_line(const std::vector<std::string>& cells) {
  return join_row(cells, ",", csv_cell) + "\n";
}

std::string format_fixed(double value, int decimals) {
  return fmt::format("{:.{}f}", value, decimals);
}

}  // namespace glrmask::experiments
