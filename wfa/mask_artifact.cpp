#include "wfa/mask_artifact.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/core/binary_io.h"
#include "lib/core/error.h"
#include "lib/core/mapped_file.h"
#include "lib/grammar/lark_writer.h"
#include "lib/token_set/frozen.h"

namespace glrmask::wfa {

namespace {

constexpr char kMagic[8] = {'G', 'L', 'R', 'M', 'A', 'S', 'K', 'A'};
constexpr std::uint32_t kByteOrderMark = 0x01020304;

}  // namespace

std::uint64_t grammar_fingerprint(const glr::CompiledGrammar& grammar) {
  const glr::ParseOptions& options = grammar.options();
  std::string key = to_lark_text(grammar.grammar());
  key += fmt::format("\n--start={}\n--policy={}\n", options.start,
                     options.policy == glr::ConflictPolicy::kLark ? "lark" : "glr");
  for (const std::string& terminal : options.skippable) key += "--skippable=" + terminal + "\n";
  if (options.postlex != glr::PostLexer::kNone)
    key += fmt::format("--postlex={}\n", glr::post_lexer_name(options.postlex));
  return checksum64(key);
}

std::uint64_t vocabulary_fingerprint(const Vocabulary& vocabulary) {
  return vocabulary.fingerprint();  // computed once per vocabulary, not per load
}

namespace {

constexpr std::uint32_t kTokenSetSectionTag = 0x54455354;  // "TSET"

// The file ends in a trailer: where the token set images lie (byte offsets [begin, end); both 0
// when there are none) and the checksum of every other byte — the header, the image table with
// each image's own checksum, the automata and the trailer's two offsets. The images are checked
// one by one on first use instead (read_token_sets), so a load reads the table, not 100 MiB.
struct Trailer {
  std::uint64_t area_begin;
  std::uint64_t area_end;
  std::uint64_t checksum;
};
static_assert(sizeof(Trailer) == 3 * sizeof(std::uint64_t));

std::uint64_t checksum_outside(std::string_view body, std::uint64_t area_begin,
                               std::uint64_t area_end, std::string_view trailer_offsets) {
  constexpr std::uint64_t kMix = 0x9e3779b97f4a7c15ULL;
  const std::uint64_t before = checksum64(body.substr(0, area_begin));
  const std::uint64_t after = checksum64(body.substr(area_end));
  return (before * kMix + after) * kMix + checksum64(trailer_offsets);
}

// The post-lexer the artifact was compiled with, and its settings (glr/indenter.h): the kind,
// tab length, the newline, _INDENT and _DEDENT terminals, the opening and closing brackets.
void write_post_lexer(BinaryWriter& out, const glr::CompiledGrammar& grammar) {
  const glr::IndenterSpec* spec = grammar.indenter();
  out.put<std::uint32_t>(static_cast<std::uint32_t>(grammar.options().postlex));
  out.put<std::uint32_t>(spec != nullptr ? spec->tab_len : 0);
  out.put<std::uint32_t>(spec != nullptr ? spec->newline : 0);
  out.put<std::uint32_t>(spec != nullptr ? spec->indent : 0);
  out.put<std::uint32_t>(spec != nullptr ? spec->dedent : 0);
  out.put_array<glr::SymbolId>(spec != nullptr ? spec->open_brackets
                                               : std::vector<glr::SymbolId>{});
  out.put_array<glr::SymbolId>(spec != nullptr ? spec->close_brackets
                                               : std::vector<glr::SymbolId>{});
}

PostLexerRecord read_post_lexer(BinaryReader& in) {
  PostLexerRecord record;
  record.kind = in.get<std::uint32_t>("post-lexer");
  record.tab_len = in.get<std::uint32_t>("post-lexer tab length");
  record.newline = in.get<std::uint32_t>("post-lexer newline terminal");
  record.indent = in.get<std::uint32_t>("post-lexer _INDENT terminal");
  record.dedent = in.get<std::uint32_t>("post-lexer _DEDENT terminal");
  record.open_brackets = in.get_array<glr::SymbolId>("post-lexer opening brackets");
  record.close_brackets = in.get_array<glr::SymbolId>("post-lexer closing brackets");
  return record;
}

// Checked before the grammar fingerprint (which covers --postlex too) so that an artifact
// compiled without the grammar's post-lexer is refused with that reason.
void check_post_lexer(BinaryReader& in, const PostLexerRecord& record,
                      const glr::CompiledGrammar& grammar) {
  const glr::PostLexer wanted = grammar.options().postlex;
  const auto name = [](std::uint32_t k) {
    return k <= static_cast<std::uint32_t>(glr::PostLexer::kPythonIndenter)
               ? std::string(glr::post_lexer_name(static_cast<glr::PostLexer>(k)))
               : fmt::format("unknown ({})", k);
  };
  if (record.kind != static_cast<std::uint32_t>(wanted)) {
    if (record.kind == static_cast<std::uint32_t>(glr::PostLexer::kNone))
      in.fail(fmt::format(
          "compiled without the post-lexer the grammar is loaded with (--postlex {}); compile it "
          "with --postlex {}",
          name(static_cast<std::uint32_t>(wanted)), name(static_cast<std::uint32_t>(wanted))));
    in.fail(fmt::format("compiled with the post-lexer '{}', the grammar is loaded with '{}'",
                        name(record.kind), name(static_cast<std::uint32_t>(wanted))));
  }
  const glr::IndenterSpec* spec = grammar.indenter();
  if (spec == nullptr) return;
  if (record.tab_len != spec->tab_len || record.newline != spec->newline ||
      record.indent != spec->indent || record.dedent != spec->dedent ||
      record.open_brackets != spec->open_brackets || record.close_brackets != spec->close_brackets)
    in.fail(fmt::format(
        "compiled with other indenter settings (tab length {}, newline terminal {}) than the "
        "grammar's (tab length {}, newline terminal {})",
        record.tab_len, record.newline, spec->tab_len, spec->newline));
}

// Where one frozen token set lies in the image area (offset relative to the area's start), and
// the checksum of its bytes.
struct FrozenImageRef {
  std::uint64_t offset;
  std::uint64_t size;
  std::uint64_t checksum;
};

// The token sets section: sets 2.. of the artifact's numbering (0 and 1 are the empty and the
// full set, which every pool has), each as a CRoaring frozen image, 32-byte aligned. Returns
// where the images lie in `out`: [begin, end).
std::pair<std::uint64_t, std::uint64_t> write_token_sets(BinaryWriter& out,
                                                         const TokenSetPool& pool,
                                                         std::span<const TokenSetId> sets) {
  out.put(kTokenSetSectionTag);
  // The table precedes the images and holds their checksums, so each image is made twice (once
  // for its checksum) rather than all of them held at once.
  std::vector<FrozenImageRef> images;
  images.reserve(sets.size());
  std::string image;
  auto make_image = [&](TokenSetId id) {
    const RoaringBitmap& set = pool.get(id);
    image.assign(frozen_size(set), '\0');
    write_frozen(set, image.data());
  };
  std::uint64_t area = 0;
  for (std::size_t i = 2; i < sets.size(); ++i) {
    area = (area + kFrozenImageAlignment - 1) / kFrozenImageAlignment * kFrozenImageAlignment;
    make_image(sets[i]);
    images.push_back({area, image.size(), checksum64(image)});
    area += image.size();
  }
  out.put_array<FrozenImageRef>(images);
  out.put<std::uint64_t>(area);
  out.align(kFrozenImageAlignment);
  const std::uint64_t begin = out.size();
  for (std::size_t i = 2; i < sets.size(); ++i) {
    out.align(kFrozenImageAlignment);
    make_image(sets[i]);
    out.put_bytes(image);
  }
  return {begin, out.size()};
}

Error token_set_error(const std::string& name, std::size_t at, const std::string& message) {
  ErrorLocation where = ErrorLocation::in_file(name);
  where.byte_offset = static_cast<std::int64_t>(at);
  return Error(fmt::format("{}: byte offset {}: {}", name, at, message), ErrorCode::kArtifact,
               std::move(where));
}

// What the first use of a loaded token set checks (TokenSetPool::from_frozen): the checksum of
// its image, then that the set is well formed for the vocabulary (FrozenBitmap::defect).
struct TokenSetCheck {
  std::string name;         // the artifact, for errors
  std::size_t area_offset;  // where the images begin in the file
  std::string_view area;    // into the mapping, which the pool keeps alive
  std::vector<FrozenImageRef> images;
  std::uint32_t universe;

  void operator()(std::size_t index, const FrozenBitmap& view) const {
    const FrozenImageRef& ref = images[index];
    const std::size_t at = area_offset + ref.offset;
    if (checksum64(area.substr(ref.offset, ref.size)) != ref.checksum)
      throw token_set_error(name, at,
                            fmt::format("token set {} ({} bytes) is corrupt: its checksum does not "
                                        "match; compile the artifact again",
                                        index + 2, ref.size));
    if (const std::string defect = view.defect(universe); !defect.empty())
      throw token_set_error(name, at,
                            fmt::format("token set {} is malformed: {}", index + 2, defect));
  }
};

// Views the token sets section in place; `file` keeps the images alive for the pool. Only the
// layout of each set is read here (CRoaring's header at the end of its image); its checksum and
// well-formedness are checked on its first use. The images must lie at [area_begin, area_end)
// of the file, as its trailer says.
TokenSetPool read_token_sets(BinaryReader& in, std::uint32_t universe,
                             std::shared_ptr<const MappedFile> file, std::uint64_t area_begin,
                             std::uint64_t area_end) {
  if (in.get<std::uint32_t>("token set section tag") != kTokenSetSectionTag)
    in.fail("expected the token set section");
  std::vector<FrozenImageRef> images = in.get_array<FrozenImageRef>("token set table");
  const auto area_size = in.get<std::uint64_t>("token set area size");
  in.align(kFrozenImageAlignment, "token set alignment");
  const std::size_t area_offset = in.offset();
  if (area_offset != area_begin || area_size != area_end - area_begin)
    in.fail(fmt::format("the token sets lie at [{}, {}), the trailer says [{}, {})", area_offset,
                        area_offset + area_size, area_begin, area_end));
  const std::string_view area = in.get_bytes(area_size, "token sets");
  std::vector<FrozenBitmap> views;
  views.reserve(images.size());
  for (std::size_t i = 0; i < images.size(); ++i) {
    const FrozenImageRef& ref = images[i];
    const std::size_t at = area_offset + ref.offset;
    if (ref.offset > area.size() || ref.size > area.size() - ref.offset)
      throw token_set_error(in.what(), at,
                            fmt::format("token set {} ({} bytes) lies outside the {} bytes of "
                                        "token sets",
                                        i + 2, ref.size, area.size()));
    try {
      views.push_back(FrozenBitmap::view_layout(area.substr(ref.offset, ref.size)));
    } catch (const Error& e) {
      throw token_set_error(in.what(), at,
                            fmt::format("token set {} is malformed: {}", i + 2, e.what()));
    }
  }
  TokenSetCheck check{in.what(), area_offset, area, std::move(images), universe};
  return TokenSetPool::from_frozen(universe, std::move(views), std::move(file), std::move(check));
}

}  // namespace

std::size_t write_artifact(const glr::CompiledGrammar& grammar, const CompiledMask* compiled,
                           const Vocabulary& vocabulary, std::string_view source,
                           const std::filesystem::path& path) {
  BinaryWriter out;
  out.put(kMagic);
  out.put(kMaskArtifactVersion);
  out.put(kByteOrderMark);
  write_post_lexer(out, grammar);
  out.put(grammar_fingerprint(grammar));
  out.put(vocabulary_fingerprint(vocabulary));
  out.put_string(vocabulary.name());
  out.put<std::uint64_t>(vocabulary.size());
  out.put_string(source);
  out.put<std::uint32_t>(compiled != nullptr ? 1 : 0);
  std::pair<std::uint64_t, std::uint64_t> area{0, 0};
  if (compiled != nullptr) {
    // Number the token sets the automata use, in first-use order after the empty and the full
    // set (which keep their ids 0 and 1, as in every pool), so the loaded pool's ids are the
    // stored ones.
    const TokenSetPool& pool = compiled->pool();
    std::unordered_map<std::uint32_t, std::uint32_t> stored{{0, 0}, {1, 1}};
    std::vector<TokenSetId> sets{TokenSetPool::empty(), TokenSetPool::full()};
    auto stored_id = [&](TokenSetId set) {
      const auto [it, inserted] =
          stored.try_emplace(set.value(), static_cast<std::uint32_t>(sets.size()));
      if (inserted) sets.push_back(set);
      return it->second;
    };
    BinaryWriter automata;
    compiled->terminal_dwa().write(automata, stored_id);
    compiled->parser_dwa().write(automata, stored_id);
    compiled->weight_classes().write(automata, stored_id);
    // No implicit padding: its bytes would reach the file uninitialized.
    static_assert(sizeof(CompileStats) ==
                  3 * sizeof(double) + 2 * sizeof(std::uint32_t) + 2 * sizeof(std::size_t));
    automata.put(compiled->stats());
    area = write_token_sets(out, pool, sets);
    out.put_bytes(automata.bytes());
  }
  std::string bytes = out.take();
  Trailer trailer{area.first, area.second, 0};
  const std::string_view offsets(reinterpret_cast<const char*>(&trailer),
                                 2 * sizeof(std::uint64_t));
  trailer.checksum = checksum_outside(bytes, trailer.area_begin, trailer.area_end, offsets);
  bytes.append(reinterpret_cast<const char*>(&trailer), sizeof trailer);
  // A new file renamed over the old one: a process that has the old artifact loaded keeps
  // reading its (mapped) bytes instead of seeing them change or shrink underneath.
  // Errors name the path the caller gave, with the system's reason, not the temporary file.
  auto cannot_write = [&](std::string_view reason) {
    return Error(fmt::format("{}: cannot write the artifact: {}", path.string(), reason),
                 ErrorCode::kIo, ErrorLocation::in_file(path.string()));
  };
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw cannot_write("it is a directory");
  std::filesystem::path temporary = path;
  temporary += fmt::format(".{}.partial", ::getpid());
  {
    errno = 0;
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) throw cannot_write(errno != 0 ? std::strerror(errno) : "cannot create it");
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    file.close();
    if (!file) {
      const std::string reason = errno != 0 ? std::strerror(errno) : "write failed";
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw cannot_write(reason);
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) {
    const std::string reason = error.message();
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw cannot_write(reason);
  }
  return bytes.size();
}

std::size_t write_mask_artifact(const CompiledMask& compiled, const Vocabulary& vocabulary,
                                const std::filesystem::path& path) {
  return write_artifact(compiled.grammar(), &compiled, vocabulary, "", path);
}

ArtifactFile ArtifactFile::open(const std::filesystem::path& path) {
  ArtifactFile artifact;
  artifact.name_ = path.string();
  const std::string& name = artifact.name_;
  try {
    artifact.file_ = MappedFile::open(path);
  } catch (const Error& e) {
    throw Error(fmt::format("{} (the artifact)", e.what()), ErrorCode::kArtifact,
                ErrorLocation::in_file(name));
  }
  const std::string_view bytes = artifact.file_->bytes();
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    throw Error(fmt::format("{}: not a glrmask artifact (no 'GLRMASKA' header)", name),
                ErrorCode::kArtifact, ErrorLocation::in_file(name));
  }
  if (bytes.size() < sizeof kMagic + 2 * sizeof(std::uint32_t) + sizeof(Trailer))
    BinaryReader(bytes, name)
        .fail(fmt::format("truncated: {} bytes is shorter than any artifact", bytes.size()));
  const std::string_view body(bytes.data(), bytes.size() - sizeof(Trailer));
  BinaryReader in(body, name);
  in.get_bytes(sizeof kMagic, "magic");
  // The version first: an artifact of another format version has another checksum too, and
  // "compile it again" is the useful message.
  const auto version = in.get<std::uint32_t>("format version");
  if (version != kMaskArtifactVersion)
    in.fail(fmt::format("format version {}, this build reads version {}; compile it again", version,
                        kMaskArtifactVersion));
  if (in.get<std::uint32_t>("byte order") != kByteOrderMark)
    in.fail("written on a machine with another byte order");
  Trailer trailer{};
  std::memcpy(&trailer, bytes.data() + body.size(), sizeof trailer);
  const std::string_view offsets(bytes.data() + body.size(), 2 * sizeof(std::uint64_t));
  const bool area_fits = trailer.area_begin <= trailer.area_end && trailer.area_end <= body.size();
  if (!area_fits ||
      checksum_outside(body, trailer.area_begin, trailer.area_end, offsets) != trailer.checksum)
    throw Error(
        fmt::format("{}: checksum mismatch over {} bytes (all but the token set images, "
                    "which are checked on first use): the artifact is truncated or "
                    "corrupt; compile it again",
                    name, body.size() - (area_fits ? trailer.area_end - trailer.area_begin : 0)),
        ErrorCode::kArtifact, ErrorLocation::in_file(name));
  artifact.area_begin_ = trailer.area_begin;
  artifact.area_end_ = trailer.area_end;
  artifact.post_lexer_ = read_post_lexer(in);
  artifact.grammar_fingerprint_ = in.get<std::uint64_t>("grammar fingerprint");
  artifact.vocabulary_fingerprint_ = in.get<std::uint64_t>("vocabulary fingerprint");
  artifact.tokenizer_ = in.get_string("tokenizer name");
  artifact.vocabulary_size_ = in.get<std::uint64_t>("vocabulary size");
  const auto source_size = in.get<std::uint64_t>("source size");
  artifact.source_ = in.get_bytes(source_size, "source");
  const auto has_mask = in.get<std::uint32_t>("compiled mask flag");
  if (has_mask > 1) in.fail("the compiled mask flag is neither 0 nor 1");
  // The images lie after the header (and are absent without automata): the bytes read so far
  // were all under the checksum.
  if (has_mask != 0 ? artifact.area_begin_ < in.offset()
                    : (artifact.area_begin_ | artifact.area_end_) != 0)
    in.fail(fmt::format("the trailer places the token set images at [{}, {})", artifact.area_begin_,
                        artifact.area_end_));
  artifact.mask_offset_ = has_mask != 0 ? in.offset() : 0;
  if (has_mask == 0 && !in.at_end()) in.fail("unexpected bytes after the source section");
  return artifact;
}

void ArtifactFile::check_fingerprints(const glr::CompiledGrammar& grammar,
                                      const Vocabulary& vocabulary) const {
  BinaryReader in(file_->bytes(), name_);
  check_post_lexer(in, post_lexer_, grammar);
  if (grammar_fingerprint_ != grammar_fingerprint(grammar))
    in.fail(
        "compiled from another grammar (or other --start/--policy/--skippable/--postlex options) "
        "than the one given");
  if (vocabulary_fingerprint_ != vocabulary_fingerprint(vocabulary))
    in.fail(fmt::format("compiled for the tokenizer '{}', not for '{}' ({} ids)", tokenizer_,
                        vocabulary.name(), vocabulary.size()));
  if (vocabulary_size_ != vocabulary.size()) in.fail("vocabulary size differs");
}

class MaskArtifactReader {
 public:
  static std::shared_ptr<const CompiledMask> read(
      const ArtifactFile& artifact, std::shared_ptr<const glr::CompiledGrammar> grammar,
      const Vocabulary& vocabulary);
};

std::shared_ptr<const CompiledMask> MaskArtifactReader::read(
    const ArtifactFile& artifact, std::shared_ptr<const glr::CompiledGrammar> grammar,
    const Vocabulary& vocabulary) {
  artifact.check_fingerprints(*grammar, vocabulary);
  const std::string_view bytes = artifact.file_->bytes();
  const std::string_view body(bytes.data(), bytes.size() - sizeof(Trailer));
  BinaryReader in(body, artifact.name_);
  if (artifact.mask_offset_ == 0)
    in.fail(
        "the artifact holds no compiled automata (it was saved for the spanner or oracle "
        "engine)");
  in.get_bytes(artifact.mask_offset_, "header");
  const auto universe = static_cast<std::uint32_t>(artifact.vocabulary_size_);
  TokenSetPool pool =
      read_token_sets(in, universe, artifact.file_, artifact.area_begin_, artifact.area_end_);
  const std::size_t token_sets = pool.distinct_sets();
  auto pool_id = [&](std::uint32_t stored) {
    if (stored >= token_sets)
      in.fail(fmt::format("token set {} of {} does not exist", stored, token_sets));
    return TokenSetId{stored};
  };
  lexer::TerminalDwa terminal_dwa = lexer::TerminalDwa::read(in, grammar->dfa(), pool_id);
  std::shared_ptr<CompiledMask> result(
      new CompiledMask(std::move(grammar), std::move(pool), std::move(terminal_dwa)));
  result->parser_dwa_ = ParserDwa::read(in, result->grammar_->table().num_states(),
                                        result->terminal_dwa_.num_forks(), token_sets);
  result->weight_classes_ = WeightClassRows::read(in, token_sets);
  // The classes partition the vocabulary's tokens; the engines size per-class arrays by them.
  if (result->weight_classes_.num_classes() == 0 ||
      result->weight_classes_.num_classes() > universe)
    in.fail(fmt::format("{} mask classes for {} tokens", result->weight_classes_.num_classes(),
                        universe));
  // Transition by transition (mask_weights() would sort a million of them on every load).
  for (const ParserDwaTransition& t : result->parser_dwa_.all_transitions())
    if (!t.weight.is_empty() && result->weight_classes_.row(t.weight) == nullptr)
      in.fail(fmt::format("token set {} weighs a Parser DWA transition but has no class row",
                          t.weight.value()));
  for (const TokenSetId weight : branch_mask_weights(result->parser_dwa_))
    if (result->weight_classes_.row(weight) == nullptr)
      in.fail(fmt::format("token set {} weighs a Parser DWA branch but has no class row",
                          weight.value()));
  result->stats_ = in.get<CompileStats>("compile statistics");
  if (!in.at_end()) in.fail("unexpected bytes after the last section");
  result->index_weights();
  return result;
}

std::shared_ptr<const CompiledMask> ArtifactFile::compiled_mask(
    std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary) const {
  return MaskArtifactReader::read(*this, std::move(grammar), vocabulary);
}

std::shared_ptr<const CompiledMask> read_mask_artifact(
    const std::filesystem::path& path, std::shared_ptr<const glr::CompiledGrammar> grammar,
    const Vocabulary& vocabulary) {
  return ArtifactFile::open(path).compiled_mask(std::move(grammar), vocabulary);
}

}  // namespace glrmask::wfa
