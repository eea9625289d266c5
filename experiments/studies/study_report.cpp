#include "experiments/studies/study_report.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <iostream>

#include "lib/core/error.h"

namespace glrmask::experiments {

StudyReport::StudyReport(std::filesystem::path dir, std::string title, RunHeader header)
    : dir_(std::move(dir)), title_(std::move(title)), header_(std::move(header)) {
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  if (error)
    throw Error(
        fmt::format("{}: cannot create the results folder: {}", dir_.string(), error.message()),
        ErrorCode::kIo);
}

void StudyReport::write_file(std::string_view file, std::string_view contents) const {
  const std::filesystem::path path = dir_ / file;
  std::ofstream out(path, std::ios::binary);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  if (!out) throw Error(fmt::format("{}: cannot write the file", path.string()), ErrorCode::kIo);
}

void StudyReport::add_table(std::string_view name, std::string_view heading,
                            const ResultTable& table) {
  add_data_table(name, table);
  body_ += fmt::format("\n## {}\n\n{}\n(`{}.csv`)\n", heading, table.to_markdown(), name);
}

void StudyReport::add_data_table(std::string_view name, const ResultTable& table) const {
  write_file(fmt::format("{}.csv", name), table.to_csv());
}

void StudyReport::add_text(std::string_view markdown) {
  body_ += "\n";
  body_ += markdown;
  if (!markdown.empty() && markdown.back() != '\n') body_ += "\n";
}

void StudyReport::add_plot(std::string_view name, std::string_view title,
                           std::string_view commands) {
  const std::string script = fmt::format(
      "set terminal svg size 900,560 dynamic noenhanced font 'sans,11' background '#ffffff'\n"
      "set output '{}.svg'\n"
      "set title \"{}\" noenhanced\n"
      "set datafile separator ','\n"
      "set key outside right top noenhanced\n"
      "set grid\n"
      "{}\n",
      name, title, commands);
  const std::string script_file = fmt::format("{}.gp", name);
  write_file(script_file, script);
  const std::string command =
      fmt::format("cd '{}' && gnuplot '{}' 2>&1", dir_.string(), script_file);
  std::string output;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
    const int status = pclose(pipe);
    if (status != 0)
      throw Error(fmt::format("{}: gnuplot failed (is gnuplot installed?): {}",
                              (dir_ / script_file).string(), output),
                  ErrorCode::kIo);
  } else {
    throw Error(fmt::format("{}: cannot start gnuplot", (dir_ / script_file).string()),
                ErrorCode::kIo);
  }
  body_ += fmt::format("\n![{}]({}.svg)\n", title, name);
}

void StudyReport::write_header() const {
  write_file("header.txt", header_.to_text());
}

void StudyReport::finish() const {
  write_file("header.txt", header_.to_text());
  write_file("README.md", fmt::format("# {}\n\n{}{}", title_, header_.to_markdown(), body_));
}

void progress(std::string_view study, std::string_view message) {
  std::cerr << "[" << study << "] " << message << std::endl;
}

}  // namespace glrmask::experiments
