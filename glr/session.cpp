#include "glr/session.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "glr/commit_deadline.h"
#include "lib/core/error.h"
#include "lib/core/escape.h"

namespace glrmask::glr {

namespace {

// Printable form of some bytes for messages: JSON-like escapes, shortened in the middle.
std::string printable(std::string_view bytes) {
  return escape_bytes(bytes, {.max_bytes = 40});
}

// A piece size for locating the first bad byte of a long rejected chunk: pieces are replayed
// whole while they pass, and byte by byte inside the first one that fails.
constexpr std::size_t kReplayPiece = 256;

}  // namespace

Session::Session(std::shared_ptr<const CompiledGrammar> grammar, const Vocabulary* vocabulary,
                 SessionOptions options)
    : Session(std::make_shared<const IncrementalRecognizer>(std::move(grammar)), vocabulary,
              options) {}

Session::Session(std::shared_ptr<const IncrementalRecognizer> recognizer,
                 const Vocabulary* vocabulary, SessionOptions options)
    : recognizer_(std::move(recognizer)),
      vocabulary_(vocabulary),
      options_(options),
      position_(recognizer_->start()) {}

Session::~Session() {
  drop_history();
}

void Session::drop_history() {
  // Unlink the chain one entry at a time instead of letting the shared_ptr destructors recurse
  // through it.
  while (history_ && history_.use_count() == 1) {
    std::shared_ptr<const HistoryEntry> previous = history_->previous;
    history_ = std::move(previous);
  }
  history_.reset();
}

void Session::require_open(std::string_view what) const {
  if (finished_) {
    throw Error(fmt::format("cannot {}: the text was ended (EOS committed) at byte offset {}", what,
                            position_.offset),
                ErrorCode::kState,
                ErrorLocation::at_byte(static_cast<std::int64_t>(position_.offset)));
  }
}

void Session::record_history() {
  if (options_.max_rollback == 0) return;
  auto entry = std::make_shared<HistoryEntry>();
  entry->before = position_;
  entry->finished_before = finished_;
  entry->depth = history_ ? history_->depth + 1 : 1;
  entry->previous = std::move(history_);
  history_ = std::move(entry);
  if (history_->depth <= 2 * options_.max_rollback) return;
  // Keep only the newest max_rollback entries: rebuild that part of the chain (the old chain may
  // be shared with clones, so it is copied, not cut). This happens once per max_rollback
  // commits, so it costs amortized O(1) per commit.
  std::vector<const HistoryEntry*> kept;
  for (const HistoryEntry* e = history_.get(); kept.size() < options_.max_rollback;
       e = e->previous.get())
    kept.push_back(e);
  std::shared_ptr<const HistoryEntry> rebuilt;
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
    auto copy = std::make_shared<HistoryEntry>();
    copy->before = (*it)->before;
    copy->finished_before = (*it)->finished_before;
    copy->depth = rebuilt ? rebuilt->depth + 1 : 1;
    copy->previous = std::move(rebuilt);
    rebuilt = std::move(copy);
  }
  drop_history();
  history_ = std::move(rebuilt);
}

void Session::commit(TokenId token) {
  if (vocabulary_ == nullptr)
    throw Error(fmt::format("cannot commit token id {}: the session has no vocabulary", token),
                ErrorCode::kState, ErrorLocation::of_token(token));
  if (!vocabulary_->contains(token)) {
    throw Error(fmt::format("cannot commit token id {}: not in the vocabulary '{}' ({} ids)", token,
                            vocabulary_->name(), vocabulary_->size()),
                ErrorCode::kInvalidArgument, ErrorLocation::of_token(token));
  }
  if (vocabulary_->eos() && token == *vocabulary_->eos()) {
    if (finished_) require_open(fmt::format("commit EOS (token id {})", token));
    if (!is_accepting()) throw_incomplete(fmt::format("EOS (token id {})", token), token);
    record_history();
    finished_ = true;
    ++num_commits_;
    return;
  }
  if (vocabulary_->is_special(token)) {
    throw RejectionError(
        fmt::format("cannot commit token id {} ({}): special tokens other than EOS are "
                    "never part of the text",
                    token, vocabulary_->piece(token)),
        ErrorLocation::at_byte(static_cast<std::int64_t>(position_.offset), token), {});
  }
  const std::string_view bytes = vocabulary_->bytes(token);
  // Formatted only when it will be thrown: commit is on every decoding step.
  if (finished_) require_open(fmt::format("commit token id {}", token));
  if (!try_commit_bytes(bytes))
    throw_rejection(bytes, fmt::format("token id {} ({})", token, printable(bytes)), token);
}

void Session::commit_bytes(std::string_view bytes) {
  if (!try_commit_bytes(bytes)) throw_rejection(bytes, fmt::format("bytes {}", printable(bytes)));
}

bool Session::try_commit_bytes(std::string_view bytes) {
  require_open("commit bytes");
  ParsePosition next = position_;
  if (!advance_within_limits(next, bytes)) return false;
  record_history();
  position_ = std::move(next);
  ++num_commits_;
  return true;
}

bool Session::accepts_bytes(std::string_view bytes) const {
  if (finished_) return false;
  ParsePosition next = position_;
  return advance_within_limits(next, bytes);
}

bool Session::advance_within_limits(ParsePosition& position, std::string_view bytes) const {
  const CommitDeadline deadline(options_.max_commit_seconds);
  try {
    return recognizer_->advance(position, bytes);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::kLimit || e.where().byte_offset >= 0) throw;
    // The parser does not know where in the text it is: name the commit's first byte.
    throw Error(fmt::format("at byte offset {}: {}", position_.offset, e.what()), ErrorCode::kLimit,
                ErrorLocation::at_byte(static_cast<std::int64_t>(position_.offset)));
  }
}

void Session::commit_end(std::optional<TokenId> stop_token) {
  require_open("end the text");
  if (!is_accepting()) {
    if (stop_token)
      throw_incomplete(fmt::format("the stop token (id {})", *stop_token),
                       static_cast<std::int64_t>(*stop_token));
    throw_incomplete("the end of the text", -1);
  }
  record_history();
  finished_ = true;
  ++num_commits_;
}

void Session::throw_rejection(std::string_view bytes, std::string_view what,
                              std::int64_t token) const {
  // Find the first byte after which the text is no longer viable. Replaying byte by byte gives
  // the same offset whatever pieces the text was committed in.
  const IncrementalRecognizer& recognizer = *recognizer_;
  ParsePosition position = position_;
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::size_t length = std::min(kReplayPiece, bytes.size() - done);
    ParsePosition next = position;
    if (!recognizer.advance(next, bytes.substr(done, length))) break;
    position = std::move(next);
    done += length;
  }
  Rejection why;
  for (; done < bytes.size(); ++done) {
    ParsePosition next = position;
    if (!recognizer.advance(next, bytes.substr(done, 1), &why)) break;
    position = std::move(next);
  }
  if (done == bytes.size()) {
    // Every prefix passed on its own: cannot happen while viability is prefix-closed (it is by
    // definition; see docs/glr.md), but never report a wrong place.
    throw Error(fmt::format("syntax error at byte offset {} committing {}: rejected as a whole",
                            position_.offset + bytes.size(), what),
                ErrorCode::kInternal);
  }
  const std::uint64_t offset = position_.offset + done;
  const std::string expected = recognizer.describe_expected(why.heads);
  std::vector<std::string> expected_names;
  for (const SymbolId terminal : recognizer.parser().shiftable_terminals(why.heads))
    expected_names.push_back(recognizer.terminal_name(terminal));
  std::string reason;
  switch (why.kind) {
    case Rejection::Kind::kUnexpectedToken: {
      const auto& dfa = recognizer.grammar().dfa();
      std::string names;
      for (const std::uint32_t t : dfa.label_terminals(why.label)) {
        if (!names.empty()) names += " or ";
        names += recognizer.describe_terminal(t);
      }
      reason = fmt::format("unexpected {} at byte offsets {}..{}", names, why.begin, why.end);
      break;
    }
    case Rejection::Kind::kNoTerminal:
      reason = fmt::format("no terminal matches the bytes {} that begin at byte offset {}",
                           printable(why.lexeme), why.begin);
      break;
    case Rejection::Kind::kIndentation:
      reason =
          fmt::format("{} (the lexeme at byte offsets {}..{})", why.detail, why.begin, why.end);
      break;
    case Rejection::Kind::kDeadEnd:
    case Rejection::Kind::kIncomplete:
      reason = fmt::format(
          "the lexeme that begins at byte offset {} can only become terminals not allowed there",
          why.begin);
      break;
  }
  throw RejectionError(fmt::format("syntax error at byte offset {} committing {}: {}; expected {}",
                                   offset, what, reason, expected),
                       ErrorLocation::at_byte(static_cast<std::int64_t>(offset), token),
                       std::move(expected_names));
}

void Session::throw_incomplete(std::string_view what, std::int64_t token) const {
  std::vector<std::string> expected_names;
  for (const SymbolId terminal : recognizer_->parser().shiftable_terminals(position_.heads))
    expected_names.push_back(recognizer_->terminal_name(terminal));
  throw RejectionError(
      fmt::format("syntax error at byte offset {} (end of input): {} is not allowed, the text is "
                  "not a complete sentence; expected {}",
                  position_.offset, what, recognizer_->describe_expected(position_.heads)),
      ErrorLocation::at_byte(static_cast<std::int64_t>(position_.offset), token),
      std::move(expected_names));
}

void Session::rollback(std::size_t n_tokens) {
  if (n_tokens > rollback_capacity()) {
    throw Error(fmt::format("cannot roll back {} commits: only the last {} are kept (of {} "
                            "commits, max_rollback {})",
                            n_tokens, rollback_capacity(), num_commits_, options_.max_rollback),
                ErrorCode::kState);
  }
  for (std::size_t i = 0; i < n_tokens; ++i) {
    position_ = history_->before;
    finished_ = history_->finished_before;
    history_ = history_->previous;
  }
  num_commits_ -= n_tokens;
}

std::size_t Session::rollback_capacity() const {
  return history_ ? history_->depth : 0;
}

bool Session::is_accepting() const {
  return finished_ || recognizer_->is_accepting(position_);
}

bool Session::can_continue() const {
  if (finished_) return false;
  // One byte per lexer byte class decides it: bytes of a class lex, and so parse, alike.
  for (const std::uint8_t byte : recognizer_->byte_classes()) {
    const char c = static_cast<char>(byte);
    if (accepts_bytes(std::string_view(&c, 1))) return true;
  }
  return false;
}

std::vector<SymbolId> Session::expected_terminals() const {
  return recognizer_->parser().shiftable_terminals(position_.heads);
}

}  // namespace glrmask::glr
