// What `experiments/run STUDY ...` passes to a study: the size and the axes to sweep. Every study
// reads only the fields it needs; empty lists mean "the study's defaults for this size".
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"

namespace glrmask::experiments {

enum class StudySize { kSmall, kFull };

struct StudyOptions {
  std::string study;
  StudySize size = StudySize::kSmall;
  std::vector<std::string> engines;     // registry names (harness/mask_engines.h)
  std::vector<std::string> grammars;    // corpus names (go, java, sql, json, python)
  std::vector<std::string> tokenizers;  // names or tokenizer.json paths
  std::filesystem::path out_dir;
  // A grammar file and its inputs instead of the named corpora (tests, or a user's own grammar).
  std::filesystem::path grammar_file;
  std::vector<std::filesystem::path> input_files;
  // Overrides the corpus's conflict policy when set ("glr" or "lark").
  std::string policy;
  // Caps the teacher-forced programs per grammar and steps per program (0: the size's default).
  std::size_t max_programs = 0;
  std::size_t max_steps = 0;
  // `--skip-programs N`: leave out each corpus's first N programs (list order), so a long study
  // can be split into ranges run by separate processes or resumed where an earlier run stopped.
  std::size_t skip_programs = 0;
  // The engine the exactness study compares against (the oracle unless --reference names a
  // cheaper engine that was itself checked against the oracle).
  std::string reference = "oracle";
  // `--mask-output buffer`: the teacher-forcing studies time fill_mask() (the mask copied into
  // the caller's buffer) instead of mask_view() (mask/mask_engine.h).
  bool mask_into_buffer = false;
  // `--mask-read bit`: between steps the harness tests only the next token's bit instead of
  // counting every token of the mask. Counting (the default) reads the whole mask as a sampler
  // applying it to logits would, a read that grows with the vocabulary and may push the engine's
  // data out of cache; `bit` times get_mask without it (experiments/results/tail_latency/LOG.md
  // compares the two).
  bool read_whole_mask = true;

  bool small() const { return size == StudySize::kSmall; }
  const char* size_name() const { return small() ? "small" : "full"; }
};

}  // namespace glrmask::experiments
