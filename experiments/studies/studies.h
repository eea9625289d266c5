// The studies the `studies` program runs (`experiments/run STUDY`, docs/experiments.md). Each
// writes its report under options.out_dir and returns the process exit code.
#pragma once

#include <string_view>

#include "experiments/studies/study_options.h"

namespace glrmask::experiments {

int run_tail_latency(const StudyOptions& options);
int run_exactness(const StudyOptions& options);
int run_vocab_scaling(const StudyOptions& options);
int run_batch_throughput(const StudyOptions& options);
int run_preprocessing(const StudyOptions& options);
int run_terminal_dwa(const StudyOptions& options);
int run_token_classes(const StudyOptions& options);
int run_psc_tables(const StudyOptions& options);
int run_jump_forward(const StudyOptions& options);
int run_ambiguity(const StudyOptions& options);
int run_json_schema(const StudyOptions& options);
int run_json_schema_suite(const StudyOptions& options);

// One measurement in a fresh child process (peak memory belongs to it alone): the program runs
// itself with `--child KIND ARGS...`; see preprocessing.cpp and terminal_dwa.cpp.
int run_preprocessing_child(int argc, char** argv);
int run_terminal_dwa_child(int argc, char** argv);
int run_psc_tables_child(int argc, char** argv);

}  // namespace glrmask::experiments
