// A table of results as strings, written both as CSV (for scripts and plots) and as a Markdown
// table (for reports). Cells are formatted once by the study, so both files show the same digits.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace glrmask::experiments {

class ResultTable {
 public:
  explicit ResultTable(std::vector<std::string> columns)
      : columns_(std::move(columns)), right_aligned_(columns_.size(), false) {}

  // Throws glrmask::Error when the row has the wrong number of cells.
  void add_row(std::vector<std::string> cells);

  // Right-aligns these columns (numbers) in the Markdown table; the others keep the default
  // alignment. Throws glrmask::Error for a column the table does not have.
  void align_right(std::initializer_list<std::size_t> columns);

  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

  // RFC 4180: cells with a comma, quote or line break are quoted, quotes doubled.
  std::string to_csv() const;
  // A GitHub Markdown table; '|' and line breaks inside cells are escaped.
  std::string to_markdown() const;

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_aligned_;  // one flag a column
};

// One CSV line (with its newline) in ResultTable::to_csv()'s quoting, for data written as it is
// produced rather than held in a table.
std::string csv_line(const std::vector<std::string>& cells);

// Number formatting shared by the studies: fixed decimals for latencies, no exponent.
std::string format_fixed(double value, int decimals);

}  // namespace glrmask::experiments
