// What a mask engine reads of a decoding session: where the text stands (the GSS heads, the
// lexer's configuration, the indenter's branches, the byte offset), the recognizer that advances a
// position, and whether the text has ended or is already a sentence.
//
// Engines take this view instead of the Session, so a mask computation cannot reach the session's
// history, rollback or commit machinery, and an engine's dependencies say exactly what a mask
// depends on. The two questions that need the session's budgets (is the text a sentence, would
// these bytes be accepted: the oracle's question) are answered by the session behind the view.
#pragma once

#include <cstdint>
#include <string_view>

#include "glr/compiled_grammar.h"
#include "glr/incremental_recognizer.h"

namespace glrmask::glr {

class Session;

class ParseView {
 public:
  // Implicit, so an engine is called with a session as before; the view is valid while the
  // session is alive and unchanged.
  ParseView(const Session& session);  // NOLINT(google-explicit-constructor)

  const IncrementalRecognizer& recognizer() const { return *recognizer_; }
  const CompiledGrammar& grammar() const { return recognizer_->grammar(); }
  const ParsePosition& position() const { return *position_; }
  const GssHeads& heads() const { return position_->heads; }
  const lexer::LexerConfiguration& lexer_configuration() const { return position_->lexer; }
  std::uint64_t byte_offset() const { return position_->offset; }
  // The text has ended (a stop id was committed): every mask is empty.
  bool is_finished() const { return finished_; }
  // The text so far is a complete sentence (EOS may come now).
  bool is_accepting() const;
  // Whether committing `bytes` now would succeed (a commit on a copy of the session).
  bool accepts_bytes(std::string_view bytes) const;

 private:
  const Session* session_;
  const IncrementalRecognizer* recognizer_;
  const ParsePosition* position_;
  bool finished_;
};

}  // namespace glrmask::glr
