// A table of results as strings, written both as CSV (for scripts and plots) and as a Markdown
// table (for reports). Cells are formatted once by the study, so both files show the same digits.
#pragma once

#include <string>
#include <vector>

namespace glrmask::experiments {

class ResultTable {
 public:
  explicit ResultTable(std::vector<std::string> columns) : columns_(std::move(columns)) {}

  // Throws glrmask::Error when the row has the wrong number of cells.
  void add_row(std::vector<std::string> cells);

  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

  // RFC 4180: cells with a comma, quote or line break are quoted, quotes doubled.
  std::string to_csv() const;
  // A GitHub Markdown table; '|' and line breaks inside cells are escaped.
  std::string to_markdown() const;

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// Number formatting shared by the studies: fixed decimals for latencies, no exponent.
std::string format_fixed(double value, int decimals);

}  // namespace glrmask::experiments
