// Where a study's results go: one folder holding header.txt (the run header), one CSV per table,
// the gnuplot scripts with their SVG plots, and README.md, which gathers the header, every table
// and every plot in the order the study added them.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "experiments/studies/run_header.h"
#include "experiments/support/result_table.h"

namespace glrmask::experiments {

class StudyReport {
 public:
  // Creates `dir` (and parents). Throws glrmask::Error when it cannot.
  StudyReport(std::filesystem::path dir, std::string title, RunHeader header);

  const std::filesystem::path& dir() const { return dir_; }

  // Writes `file` into the folder (data for plots, per-step CSVs, ...).
  void write_file(std::string_view file, std::string_view contents) const;
  // Writes <name>.csv and appends the table, under `heading`, to the report.
  void add_table(std::string_view name, std::string_view heading, const ResultTable& table);
  // Writes <name>.csv without showing it in the report (large per-step data).
  void add_data_table(std::string_view name, const ResultTable& table) const;
  // Appends Markdown text to the report.
  void add_text(std::string_view markdown);
  // Writes <name>.gp (an SVG terminal setup followed by `commands`) and runs gnuplot on it in
  // the folder, producing <name>.svg; the plot is linked from the report. Throws glrmask::Error
  // naming the script when gnuplot fails or is missing.
  void add_plot(std::string_view name, std::string_view title, std::string_view commands);
  // Writes header.txt alone (a long study does it at its start, so a stopped run keeps it).
  void write_header() const;
  // Writes header.txt and README.md.
  void finish() const;

 private:
  std::filesystem::path dir_;
  std::string title_;
  RunHeader header_;
  std::string body_;
};

// Progress for long work: one line on stderr, prefixed with the study's name.
void progress(std::string_view study, std::string_view message);

}  // namespace glrmask::experiments
