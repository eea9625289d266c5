// What a constraint was made from, kept with it: the format of the source (a front end of the
// source registry, source_registry.h), its text and its options. Compiling the same source with
// the same options gives the same grammar, so a saved constraint stores this (serialize()) and
// load() rebuilds the grammar from it, then checks the stored grammar fingerprint before mapping
// the automata.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "glr/compiled_grammar.h"
#include "glrmask/constraint.hpp"
#include "lib/grammar/grammar_model.h"

namespace glrmask {

struct ConstraintSource {
  std::string format = "lark";  // a name of the source registry
  std::string name;             // names the source in messages (a file name, "<schema>")
  std::string text;             // the grammar, the schema or the pattern; empty for any_json
  GrammarOptions grammar;
  JsonOptions json;

  // A source of `format` (throws glrmask::Error, kInvalidArgument, for an unknown one) with the
  // format's default name when `name` is empty.
  static ConstraintSource make(std::string_view format, std::string_view text,
                               const SourceOptions& options, std::string_view name);

  // The grammar model. Throws glrmask::Error (kGrammar / kSchema with the place).
  GrammarModel build() const;
  glr::ParseOptions parse_options() const;
  // The grammar compiled for parsing, its lexer within `lexer_limits`.
  std::shared_ptr<const glr::CompiledGrammar> compile(
      const lexer::LexerDfaLimits& lexer_limits = {}, std::size_t max_lookahead_bytes = 0) const;
  // parse_options() and compile() for a model already built.
  std::shared_ptr<const glr::CompiledGrammar> compile(
      GrammarModel model, const lexer::LexerDfaLimits& lexer_limits = {},
      std::size_t max_lookahead_bytes = 0) const;

  std::string serialize() const;
  // Throws glrmask::Error (kArtifact) naming `file` for bytes serialize() did not write.
  static ConstraintSource parse(std::string_view bytes, const std::string& file);

  // "json_schema person.json (whitespace default)" and the like.
  std::string description() const;
};

// The facade's grammar options for the parser's own (the inverse of
// ConstraintSource::parse_options()), for the programs that start from glr::ParseOptions.
GrammarOptions grammar_options(const glr::ParseOptions& options);

// What a saved constraint stores as its artifact's source section (mask/artifact/mask_artifact.h):
// the source and the engine it serves with.
struct StoredConstraint {
  ConstraintSource source;
  Engine engine = Engine::kWfa;

  std::string serialize() const;
  // Throws glrmask::Error (kArtifact) naming `file` for bytes serialize() did not write.
  static StoredConstraint parse(std::string_view bytes, const std::string& file);
};

}  // namespace glrmask
