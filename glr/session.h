// One decoding session: the text an LLM has produced so far under a grammar, as GSS heads plus the
// streaming lexer's configuration, with a bounded history for rollback.
//
// Every commit keeps the text *viable*: some continuation (possibly empty) makes it a sentence of
// the grammar (docs/glr.md gives the exact rule). A commit that would break this throws
// glrmask::Error naming the first byte offset at which the text stopped being viable and the
// terminals that were expected there, and leaves the session unchanged. A commit costs time in
// proportion to its own bytes and the GSS width, never to the length of the text before it.
//
// Sessions are values: copying (clone()) is cheap, shares every GSS node and the history, and the
// copies evolve independently. Const methods may run concurrently on one session.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/gss.h"
#include "glr/incremental_recognizer.h"
#include "lib/core/token_id.h"
#include "lib/tokenizer/vocabulary.h"

namespace glrmask::glr {

struct SessionOptions {
  // How many of the latest commits rollback() can undo. Older history is dropped (amortized
  // constant work per commit), so memory stays bounded however long the text gets.
  std::size_t max_rollback = 1024;
  // Wall time one commit (commit, commit_bytes, commit_end, accepts_bytes) may take before it
  // fails with ErrorCode::kLimit and leaves the session unchanged (0: no limit). A decoding
  // step's commit takes microseconds; this bounds a whole text committed at once with a grammar
  // that generalized parsing finds costly (commit_deadline.h).
  double max_commit_seconds = 60;
};

class Session {
 public:
  // `vocabulary` (optional) must outlive the session; commit(TokenId) needs it.
  explicit Session(std::shared_ptr<const CompiledGrammar> grammar,
                   const Vocabulary* vocabulary = nullptr, SessionOptions options = {});
  // Shares an already built recognizer (grammar + parser), e.g. with the sessions of a server.
  explicit Session(std::shared_ptr<const IncrementalRecognizer> recognizer,
                   const Vocabulary* vocabulary = nullptr, SessionOptions options = {});
  ~Session();
  Session(const Session&) = default;
  Session(Session&&) noexcept = default;
  Session& operator=(const Session&) = default;
  Session& operator=(Session&&) noexcept = default;

  // Commits the token's bytes. EOS (the vocabulary's) is committed only when is_accepting(), and
  // finishes the session; other special tokens, unknown ids and any token after EOS are refused.
  void commit(TokenId token);
  // Commits raw bytes as one history entry.
  void commit_bytes(std::string_view bytes);
  // As commit_bytes, but returns false instead of throwing on a syntax error (other misuse, such
  // as committing after EOS, still throws).
  bool try_commit_bytes(std::string_view bytes);
  // Ends the text (what committing EOS does): throws a RejectionError unless is_accepting(),
  // naming `stop_token` when given (the token that asked for the end).
  void commit_end(std::optional<TokenId> stop_token = std::nullopt);

  // Whether commit_bytes(bytes) would succeed. Does not change the session; thread-safe.
  bool accepts_bytes(std::string_view bytes) const;

  // Undoes the last `n_tokens` commits (each commit_bytes / commit / commit_end call is one).
  // Throws glrmask::Error if fewer than that are kept (see rollback_capacity()).
  void rollback(std::size_t n_tokens);
  std::size_t rollback_capacity() const;

  // The text so far is a complete sentence (EOS may come now). True after commit_end().
  bool is_accepting() const;
  // EOS was committed.
  bool is_finished() const { return finished_; }
  // Some non-empty byte continuation keeps the text viable (so a next token other than EOS can
  // exist). False once finished.
  bool can_continue() const;

  Session clone() const { return *this; }

  std::uint64_t byte_offset() const { return position_.offset; }
  std::size_t num_commits() const { return num_commits_; }
  const GssHeads& heads() const { return position_.heads; }
  const lexer::LexerConfiguration& lexer_configuration() const { return position_.lexer; }
  const ParsePosition& position() const { return position_; }
  // Terminals some stack can shift where the current lexeme begins ($END when accepting).
  std::vector<SymbolId> expected_terminals() const;

  const CompiledGrammar& grammar() const { return recognizer_->grammar(); }
  const IncrementalRecognizer& recognizer() const { return *recognizer_; }
  const std::shared_ptr<const IncrementalRecognizer>& recognizer_ptr() const { return recognizer_; }
  const Vocabulary* vocabulary() const { return vocabulary_; }

 private:
  struct HistoryEntry {
    ParsePosition before;
    bool finished_before = false;
    std::shared_ptr<const HistoryEntry> previous;
    std::size_t depth = 1;  // entries in the chain ending here
  };

  void require_open(std::string_view what) const;
  // recognizer_->advance under the commit's deadline; a limit error names the commit's offset.
  bool advance_within_limits(ParsePosition& position, std::string_view bytes) const;
  void record_history();
  void drop_history();
  // Throws a RejectionError for `bytes` (described as `what`; `token` is the token id, or -1)
  // at the first byte after which the text is no longer viable.
  [[noreturn]] void throw_rejection(std::string_view bytes, std::string_view what,
                                    std::int64_t token = -1) const;
  // Throws a RejectionError for ending the text (by `what`) where it is not complete.
  [[noreturn]] void throw_incomplete(std::string_view what, std::int64_t token) const;

  std::shared_ptr<const IncrementalRecognizer> recognizer_;
  const Vocabulary* vocabulary_;
  SessionOptions options_;
  ParsePosition position_;
  bool finished_ = false;
  std::size_t num_commits_ = 0;
  std::shared_ptr<const HistoryEntry> history_;  // newest first; shared by clones
};

}  // namespace glrmask::glr
