// The compiled artifact: a CompiledMask (token sets, Terminal DWA, Parser DWA) written to one
// file that loads in milliseconds. `glrmask compile -o FILE` writes it; `glrmask mask --artifact
// FILE` and the library read it. Layout and load figures: docs/wfa.md, "Artifacts".
//
// The file names what it was built from by fingerprints, not by paths: the grammar (its Lark
// rendering, whatever front-end produced it: Lark, JSON Schema, regex) with its parse options, and
// the vocabulary's token bytes. Loading checks both against the grammar and vocabulary the caller
// has, plus the format version, the byte order and a checksum over every byte but the token set
// images, so an artifact of another grammar or tokenizer, of another build of the construction,
// or a truncated or corrupt file is refused with an error that says which.
//
// Why loading is fast: the file is mapped (pages come in as they are read), the compiled grammar
// is read from its image (glr/compiled_grammar_image.h) rather than built, and the token sets —
// nearly all of the file's bytes — are CRoaring frozen images that the loaded pool reads in place
// (lib/token_set/frozen.h), numbered as the pool numbers them, so nothing is decoded, hashed or
// renumbered. A load reads no image at all: the weights' export records (dense_sources.h) are
// stored and rebased, and each set's layout (CRoaring's container table at the end of its image)
// is made on its first use, when the set is also checked — its checksum from the image table, its
// well-formedness for the vocabulary, and for a weight that its stored export records are the
// ones its layout gives (TokenSetPool::from_frozen), once, thread-safely. A set found damaged then
// raises glrmask::Error (kArtifact) naming the file, the byte offset of its image and the set, on
// that use and every later one: the mask call that met it throws (a Matcher's next_token_mask,
// fill_next_token_bitmask), nothing damaged is ever read, and masks that need only sound sets
// still work. Only the token sets the automata use are stored (the compile pool holds many
// intermediates); the loaded pool is the whole pool of the loaded CompiledMask.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "glr/compiled_grammar.h"
#include "lib/core/mapped_file.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/compiled/compiled_mask.h"

namespace glrmask::mask {

// Bump when the construction or the layout changes: older artifacts are then refused.
inline constexpr std::uint32_t kMaskArtifactVersion = 12;

std::uint64_t grammar_fingerprint(const glr::CompiledGrammar& grammar);
std::uint64_t vocabulary_fingerprint(const Vocabulary& vocabulary);

// Writes an artifact and returns its size in bytes: the fingerprints of `grammar` and
// `vocabulary`, `source` (bytes this layer does not read: the library stores the constraint's
// source and options there, so that an artifact loads without the grammar file), and the automata
// of `compiled` when it is given (a grammar-only artifact otherwise, for engines that precompute
// nothing). The file is written under a temporary name beside `path` and renamed over it, so
// artifacts loaded from `path` stay intact. Throws glrmask::Error naming the path when it cannot
// be written.
std::size_t write_artifact(const glr::CompiledGrammar& grammar, const CompiledMask* compiled,
                           const Vocabulary& vocabulary, std::string_view source,
                           const std::filesystem::path& path);
// Writes artifact bytes to `path` as write_artifact does (a temporary file renamed over it).
void write_artifact_file(std::string_view bytes, const std::filesystem::path& path);
// The bytes write_artifact writes.
std::string artifact_bytes(const glr::CompiledGrammar& grammar, const CompiledMask* compiled,
                           const Vocabulary& vocabulary, std::string_view source);
// write_artifact with no source.
std::size_t write_mask_artifact(const CompiledMask& compiled, const Vocabulary& vocabulary,
                                const std::filesystem::path& path);

// The post-lexer an artifact was compiled with and its settings (glr/indenter.h): the kind
// (glr::PostLexer), tab length, the newline, _INDENT and _DEDENT terminals, the brackets.
struct PostLexerRecord {
  std::uint32_t kind = 0;
  std::uint32_t tab_len = 0;
  std::uint32_t newline = 0;
  std::uint32_t indent = 0;
  std::uint32_t dedent = 0;
  std::vector<glr::SymbolId> open_brackets;
  std::vector<glr::SymbolId> close_brackets;
};

class ArtifactChecksum;

// From this many checked bytes on (all but the token set images), open() computes the file's
// checksum on a second thread, beside the rest of the load; a smaller file's checksum costs less
// than starting a thread (at 10 GB/s, BM_Checksum, a MiB is about 0.1 ms; a thread's start some
// tens of microseconds), so it is computed on the caller's thread when the load first needs it.
inline constexpr std::size_t kChecksumSecondThreadBytes = std::size_t{1} << 20;

// An artifact file, mapped read-only and checked (header, format version, byte order, checksum
// of all but the token set images) once. The automata are read from it, in place, by
// compiled_mask(). The mapping lives as long as the ArtifactFile and every CompiledMask read from
// it: replace an artifact by writing a new file and renaming it (as write_artifact does), never by
// rewriting it in place.
class ArtifactFile {
 public:
  // Throws glrmask::Error (kArtifact) naming the path, and the byte offset where it applies, for
  // a missing, truncated, corrupt or outdated file. `second_thread_bytes`: from how many checked
  // bytes on the checksum runs on a second thread (kChecksumSecondThreadBytes). The tests give 0
  // and SIZE_MAX, so that each way of checking is tried on a small damaged file: the real
  // artifacts that reach a MiB are too costly to compile in a test.
  static ArtifactFile open(const std::filesystem::path& path,
                           std::size_t second_thread_bytes = kChecksumSecondThreadBytes);
  // The same for an artifact held in memory (artifact_bytes), copied; `name` names it in errors.
  static ArtifactFile from_bytes(std::string_view bytes, std::string name);

  // The path or name it was opened from.
  const std::string& name() const { return name_; }
  // What write_artifact() was given as `source`.
  std::string_view source() const { return source_; }
  bool has_compiled_mask() const { return mask_offset_ != 0; }
  const std::string& tokenizer_name() const { return tokenizer_; }

  // The compiled grammar the artifact stores (glr/compiled_grammar_image.h), for `model` and
  // `options`, which must be what it was compiled from (the source() of the library's artifacts
  // rebuilds them): no lexer DFA, LR table or fork analysis is built again. Throws glrmask::Error
  // (kArtifact) naming the byte offset for a damaged image or one of another grammar. Check the
  // fingerprints against the result (compiled_mask() does) before trusting it.
  std::shared_ptr<const glr::CompiledGrammar> compiled_grammar(
      GrammarModel model, const glr::ParseOptions& options) const;

  // The file's checksum is computed on a second thread from open() on, or for a smaller file
  // (see open()) on the caller's thread by the first call of this; what open() read (source(),
  // tokenizer_name()) is unverified until this returns. It waits for the checksum and throws
  // glrmask::Error (kArtifact) when it does not match. compiled_grammar(), compiled_mask() and
  // check_fingerprints() call it, and call it before they throw anything else, so that a corrupt
  // file is reported as corrupt; a caller that parses source() first does the same.
  void verify_checksum() const;
  // Whether open() started the checksum on a second thread.
  bool checksum_on_second_thread() const;

  // Throws glrmask::Error (kArtifact) unless the artifact was written for `grammar` (the same
  // grammar model and parse options) and `vocabulary` (the same token bytes, special tokens, EOS).
  void check_fingerprints(const glr::CompiledGrammar& grammar, const Vocabulary& vocabulary) const;
  // The compiled automata, for `grammar` and `vocabulary` (checked as above; `vocabulary` must
  // outlive the result). Throws glrmask::Error (kArtifact) for a grammar-only artifact, a
  // mismatch or a malformed section.
  std::shared_ptr<const CompiledMask> compiled_mask(
      std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary) const;

 private:
  friend class MaskArtifactReader;
  ArtifactFile() = default;
  static ArtifactFile from_file(std::shared_ptr<const MappedFile> file, std::string name,
                                std::size_t second_thread_bytes);

  std::string name_;
  std::shared_ptr<const MappedFile> file_;
  std::shared_ptr<const ArtifactChecksum> checksum_;
  PostLexerRecord post_lexer_;
  std::uint64_t grammar_fingerprint_ = 0;
  std::uint64_t vocabulary_fingerprint_ = 0;
  std::string tokenizer_;
  std::uint64_t vocabulary_size_ = 0;
  std::string_view source_;               // into the mapping
  std::size_t grammar_image_offset_ = 0;  // the compiled grammar's image: file offset, size
  std::size_t grammar_image_size_ = 0;
  std::size_t mask_offset_ = 0;   // where the automata begin; 0: none
  std::uint64_t area_begin_ = 0;  // where the token set images lie: [begin, end)
  std::uint64_t area_end_ = 0;
};

// ArtifactFile::open(path).compiled_mask(grammar, vocabulary).
std::shared_ptr<const CompiledMask> read_mask_artifact(
    const std::filesystem::path& path, std::shared_ptr<const glr::CompiledGrammar> grammar,
    const Vocabulary& vocabulary);

}  // namespace glrmask::mask
