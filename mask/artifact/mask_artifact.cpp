#include "mask/artifact/mask_artifact.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <future>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "glr/compiled_grammar_image.h"
#include "lib/core/binary_io.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/mapped_file.h"
#include "lib/lark/lark_writer.h"
#include "lib/token_set/dense_sources.h"
#include "lib/token_set/frozen.h"

namespace glrmask::mask {

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

constexpr std::uint32_t kTokenSetSectionTag = 0x54455354;      // "TSET"
constexpr std::uint32_t kExportRecordSectionTag = 0x45585052;  // "EXPR"

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

}  // namespace

// The file's checksum (over every byte but the token set images), computed on a second thread
// while the load parses the file: on two cores the load then costs about the larger of the two
// instead of their sum (for a file of `second_thread_bytes` checked bytes or more; a smaller one
// is checked on the caller's thread). verify() waits for it and throws when it does not match;
// every result a load hands out, and every error it raises, goes through verify() first.
class ArtifactChecksum {
 public:
  ArtifactChecksum(const std::shared_ptr<const MappedFile>& file, std::string name,
                   const Trailer& trailer, std::size_t second_thread_bytes)
      : name_(std::move(name)) {
    const std::string_view bytes = file->bytes();
    const std::size_t body_size = bytes.size() - sizeof(Trailer);
    area_fits_ = trailer.area_begin <= trailer.area_end && trailer.area_end <= body_size;
    checked_bytes_ = body_size - (area_fits_ ? trailer.area_end - trailer.area_begin : 0);
    if (!area_fits_) return;
    // The task holds the mapping, so the bytes outlive an ArtifactFile dropped before the result.
    // A small file's checksum costs less than starting a thread: it runs on the first verify().
    const auto policy =
        checked_bytes_ < second_thread_bytes ? std::launch::deferred : std::launch::async;
    matches_ =
        std::async(policy, [file, trailer] {
          const std::string_view all = file->bytes();
          const std::string_view body = all.substr(0, all.size() - sizeof(Trailer));
          const std::string_view offsets(all.data() + body.size(), 2 * sizeof(std::uint64_t));
          return checksum_outside(body, trailer.area_begin, trailer.area_end, offsets) ==
                 trailer.checksum;
        }).share();
  }

  void verify() const {
    if (area_fits_ && matches_.get()) return;
    throw Error(fmt::format("{}: checksum mismatch over {} bytes (all but the token set images, "
                            "which are checked on first use): the artifact is truncated or "
                            "corrupt; compile it again",
                            name_, checked_bytes_),
                ErrorCode::kArtifact, ErrorLocation::in_file(name_));
  }

  // Asked of the task itself (a deferred one says so without running), so that the answer is
  // the policy it was started with.
  bool on_second_thread() const {
    return matches_.valid() &&
           matches_.wait_for(std::chrono::seconds(0)) != std::future_status::deferred;
  }

 private:
  std::string name_;
  bool area_fits_ = false;
  std::size_t checked_bytes_ = 0;
  std::shared_future<bool> matches_;
};

namespace {

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
      in.fail(
          fmt::format("compiled without the post-lexer the grammar is loaded with "
                      "(GrammarOptions::postlex {}); "
                      "compile it with that post-lexer",
                      name(static_cast<std::uint32_t>(wanted))));
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

// One export record of a weight (lib/token_set/dense_sources.h) as the artifact stores it: where
// the container's data lies, as an offset from the start of its set's frozen image, so that a
// load rebases the records instead of reading every set's layout to make them.
struct StoredSegment {
  std::uint64_t offset;
  std::uint32_t set;  // the stored id
  std::uint32_t key;
  std::int32_t count;
  std::uint32_t kind;  // DenseSegment::Kind
};
static_assert(sizeof(StoredSegment) == 24);  // no implicit padding reaches the file

// The bytes a segment's data takes in its image.
std::uint64_t segment_bytes(DenseSegment::Kind kind, std::int32_t count) {
  switch (kind) {
    case DenseSegment::Kind::kBitset:
      return 1024 * sizeof(std::uint64_t);
    case DenseSegment::Kind::kArray:
      return std::uint64_t(count) * sizeof(std::uint16_t);
    case DenseSegment::Kind::kRun:
      return std::uint64_t(count) * 2 * sizeof(std::uint16_t);
  }
  return 0;
}

struct TokenSetSection {
  std::uint64_t area_begin = 0, area_end = 0;  // where the images lie in the file
  std::vector<StoredSegment> weight_segments;  // of the stored sets is_weight() names
};

// The token sets section: sets 2.. of the artifact's numbering (0 and 1 are the empty and the
// full set, which every pool has), each as a CRoaring frozen image, 32-byte aligned. Returns
// where the images lie in `out`, and the export records of the sets `is_weight` names, made from
// the images as a load will view them.
template <typename IsWeight>
TokenSetSection write_token_sets(BinaryWriter& out, const TokenSetPool& pool,
                                 std::span<const TokenSetId> sets, IsWeight is_weight) {
  out.put(kTokenSetSectionTag);
  // The table precedes the images and holds their checksums, so each image is made twice (once
  // for its checksum) rather than all of them held at once. Each is made 32-byte aligned inside
  // `buffer`, as FrozenBitmap::view_layout wants it.
  std::vector<FrozenImageRef> images;
  images.reserve(sets.size());
  std::string buffer;
  auto make_image = [&](TokenSetId id) {
    const RoaringBitmap& set = pool.get(id);
    const std::size_t size = frozen_size(set);
    buffer.assign(size + kFrozenImageAlignment, '\0');
    const std::size_t pad =
        (kFrozenImageAlignment -
         reinterpret_cast<std::uintptr_t>(buffer.data()) % kFrozenImageAlignment) %
        kFrozenImageAlignment;
    write_frozen(set, buffer.data() + pad);
    return std::string_view(buffer.data() + pad, size);
  };
  std::uint64_t area = 0;
  for (std::size_t i = 2; i < sets.size(); ++i) {
    area = (area + kFrozenImageAlignment - 1) / kFrozenImageAlignment * kFrozenImageAlignment;
    const std::string_view image = make_image(sets[i]);
    images.push_back({area, image.size(), checksum64(image)});
    area += image.size();
  }
  out.put_array<FrozenImageRef>(images);
  out.put<std::uint64_t>(area);
  out.align(kFrozenImageAlignment);
  TokenSetSection section;
  section.area_begin = out.size();
  std::vector<DenseSegment> segments;
  for (std::size_t i = 2; i < sets.size(); ++i) {
    out.align(kFrozenImageAlignment);
    const std::string_view image = make_image(sets[i]);
    out.put_bytes(image);
    if (!is_weight(sets[i])) continue;
    const FrozenBitmap view = FrozenBitmap::view_layout(image);
    segments.clear();
    append_dense_segments(view.bitmap(), segments);
    for (const DenseSegment& segment : segments)
      section.weight_segments.push_back(
          {static_cast<std::uint64_t>(static_cast<const char*>(segment.data) - image.data()),
           static_cast<std::uint32_t>(i), segment.key, segment.count,
           static_cast<std::uint32_t>(segment.kind)});
  }
  section.area_end = out.size();
  return section;
}

Error token_set_error(const std::string& name, std::size_t at, const std::string& message) {
  ErrorLocation where = ErrorLocation::in_file(name);
  where.byte_offset = static_cast<std::int64_t>(at);
  return Error(fmt::format("{}: byte offset {}: {}", name, at, message), ErrorCode::kArtifact,
               std::move(where));
}

bool same_segment(const DenseSegment& a, const DenseSegment& b) {
  return a.data == b.data && a.key == b.key && a.count == b.count && a.kind == b.kind;
}

// A loaded artifact's token sets, read in place (TokenSetPool::FrozenSetSource). A load reads
// only the table of images; a set's layout (CRoaring's container table at the end of its image)
// is made on its first use, and its contents checked then: the checksum of its image, its
// well-formedness for the vocabulary (FrozenBitmap::defect) and, for a weight, that the export
// records the artifact stores for it are exactly those its layout gives.
class ArtifactTokenSets final : public TokenSetPool::FrozenSetSource {
 public:
  ArtifactTokenSets(std::string name, std::shared_ptr<const MappedFile> file,
                    std::size_t area_offset, std::string_view area,
                    std::vector<FrozenImageRef> images, std::uint32_t universe)
      : name_(std::move(name)),
        file_(std::move(file)),
        area_offset_(area_offset),
        area_(area),
        images_(std::move(images)),
        universe_(universe) {}

  std::size_t size() const override { return images_.size(); }

  FrozenBitmap layout(std::size_t index) const override {
    const std::string_view image = bytes(index);
    try {
      return FrozenBitmap::view_layout(image);
    } catch (const Error& e) {
      throw token_set_error(name_, area_offset_ + images_[index].offset,
                            fmt::format("token set {} is malformed: {}", index + 2, e.what()));
    }
  }

  void check(std::size_t index, const FrozenBitmap& view) const override {
    const FrozenImageRef& ref = images_[index];
    const std::size_t at = area_offset_ + ref.offset;
    if (checksum64(bytes(index)) != ref.checksum)
      throw token_set_error(name_, at,
                            fmt::format("token set {} ({} bytes) is corrupt: its checksum does not "
                                        "match; compile the artifact again",
                                        index + 2, ref.size));
    if (const std::string defect = view.defect(universe_); !defect.empty())
      throw token_set_error(name_, at,
                            fmt::format("token set {} is malformed: {}", index + 2, defect));
    const TokenSetId set{static_cast<std::uint32_t>(index + 2)};
    if (sources_ == nullptr || !sources_->contains(set)) return;
    std::vector<DenseSegment> expected;
    append_dense_segments(view.bitmap(), expected);
    const std::span<const DenseSegment> stored = sources_->segments(set);
    if (!std::equal(expected.begin(), expected.end(), stored.begin(), stored.end(), same_segment))
      throw token_set_error(name_, at,
                            fmt::format("the export records stored for token set {} do not "
                                        "describe its image; compile the artifact again",
                                        index + 2));
  }

  // Image i's bytes; throws glrmask::Error when the table places it outside the area.
  std::string_view bytes(std::size_t index) const {
    const FrozenImageRef& ref = images_[index];
    if (ref.offset > area_.size() || ref.size > area_.size() - ref.offset)
      throw token_set_error(name_, area_offset_ + ref.offset,
                            fmt::format("token set {} ({} bytes) lies outside the {} bytes of "
                                        "token sets",
                                        index + 2, ref.size, area_.size()));
    return area_.substr(ref.offset, ref.size);
  }

  // The stored export records check() compares with, once they are read; they live as long as
  // the pool that holds this source (both are members of one CompiledMask).
  void expect_sources(const DenseSources* sources) { sources_ = sources; }

 private:
  std::string name_;                        // the artifact, for errors
  std::shared_ptr<const MappedFile> file_;  // keeps the images mapped
  std::size_t area_offset_;                 // where the images begin in the file
  std::string_view area_;                   // into the mapping
  std::vector<FrozenImageRef> images_;
  std::uint32_t universe_;
  const DenseSources* sources_ = nullptr;
};

// Reads the token sets section's table; the images are not touched (ArtifactTokenSets). They
// must lie at [area_begin, area_end) of the file, as its trailer says.
std::shared_ptr<ArtifactTokenSets> read_token_sets(BinaryReader& in, std::uint32_t universe,
                                                   std::shared_ptr<const MappedFile> file,
                                                   std::uint64_t area_begin,
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
  return std::make_shared<ArtifactTokenSets>(in.what(), std::move(file), area_offset, area,
                                             std::move(images), universe);
}

// The weights' export records (write_token_sets), rebased onto the mapped images. The full set
// (id 1) lives in the pool, not in an image: its records are made here when it is a weight.
// Each record must lie inside its set's image; that they describe the image is checked on the
// set's first use (ArtifactTokenSets::check), before its data is read.
DenseSources read_weight_segments(BinaryReader& in, const ArtifactTokenSets& sets,
                                  const TokenSetPool& pool, bool full_is_weight) {
  if (in.get<std::uint32_t>("export record section tag") != kExportRecordSectionTag)
    in.fail("expected the weights' export records");
  const std::size_t records_at = in.offset();
  const std::vector<StoredSegment> stored = in.get_array<StoredSegment>("export records");
  const std::size_t num_sets = pool.distinct_sets();
  std::vector<DenseSegment> segments;
  if (full_is_weight) append_dense_segments(pool.layout(TokenSetPool::full()), segments);
  std::vector<std::uint32_t> begin(num_sets + 1, 0);
  std::fill(begin.begin() + 2, begin.end(), static_cast<std::uint32_t>(segments.size()));
  segments.reserve(segments.size() + stored.size());
  std::uint32_t previous = 2;
  std::string_view image;
  for (std::size_t r = 0; r < stored.size(); ++r) {
    const StoredSegment& record = stored[r];
    auto bad = [&](std::string_view what) {
      throw token_set_error(
          in.what(), records_at + 8 + r * sizeof(StoredSegment),
          fmt::format("export record {} (token set {}): {}", r, record.set, what));
    };
    if (record.set < previous || record.set >= num_sets) bad("not a stored set in ascending order");
    if (record.kind > static_cast<std::uint32_t>(DenseSegment::Kind::kRun)) bad("unknown kind");
    const auto kind = static_cast<DenseSegment::Kind>(record.kind);
    if (kind != DenseSegment::Kind::kBitset && record.count <= 0) bad("no values");
    if (r == 0 || record.set != previous) image = sets.bytes(record.set - 2);
    if (record.offset > image.size() ||
        segment_bytes(kind, record.count) > image.size() - record.offset)
      bad("its data lies outside the set's image");
    for (std::uint32_t id = previous + 1; id <= record.set; ++id)
      begin[id] = static_cast<std::uint32_t>(segments.size());
    previous = record.set;
    segments.push_back({image.data() + record.offset, record.key, record.count, kind});
  }
  for (std::size_t id = std::size_t{previous} + 1; id <= num_sets; ++id)
    begin[id] = static_cast<std::uint32_t>(segments.size());
  return DenseSources(std::move(begin), std::move(segments));
}

}  // namespace

std::string artifact_bytes(const glr::CompiledGrammar& grammar, const CompiledMask* compiled,
                           const Vocabulary& vocabulary, std::string_view source) {
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
  {
    BinaryWriter image;
    glr::write_compiled_grammar(grammar, image);
    out.put_string(image.bytes());
  }
  out.put<std::uint32_t>(compiled != nullptr ? 1 : 0);
  TokenSetSection section;
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
    section = write_token_sets(
        out, pool, sets, [&](TokenSetId set) { return compiled->weight_sources().contains(set); });
    // The automata start 8-byte aligned in the file, so that what their writer aligned to 8
    // (the Parser DWA's large arrays, viewed in place) is aligned in the mapping too.
    out.align(8);
    out.put_bytes(automata.bytes());
    out.put(kExportRecordSectionTag);
    out.put_array<StoredSegment>(section.weight_segments);
  }
  std::string bytes = out.take();
  Trailer trailer{section.area_begin, section.area_end, 0};
  const std::string_view offsets(reinterpret_cast<const char*>(&trailer),
                                 2 * sizeof(std::uint64_t));
  trailer.checksum = checksum_outside(bytes, trailer.area_begin, trailer.area_end, offsets);
  bytes.append(reinterpret_cast<const char*>(&trailer), sizeof trailer);
  return bytes;
}

std::size_t write_artifact(const glr::CompiledGrammar& grammar, const CompiledMask* compiled,
                           const Vocabulary& vocabulary, std::string_view source,
                           const std::filesystem::path& path) {
  const std::string bytes = artifact_bytes(grammar, compiled, vocabulary, source);
  write_artifact_file(bytes, path);
  return bytes.size();
}

void write_artifact_file(std::string_view bytes, const std::filesystem::path& path) {
  write_file_replacing(bytes, path, "artifact");
}

std::size_t write_mask_artifact(const CompiledMask& compiled, const Vocabulary& vocabulary,
                                const std::filesystem::path& path) {
  return write_artifact(compiled.grammar(), &compiled, vocabulary, "", path);
}

class MaskArtifactReader {
 public:
  static void read_header(ArtifactFile& artifact, BinaryReader& in, const Trailer& trailer);
  static std::shared_ptr<const CompiledMask> read(
      const ArtifactFile& artifact, std::shared_ptr<const glr::CompiledGrammar> grammar,
      const Vocabulary& vocabulary);
};

ArtifactFile ArtifactFile::open(const std::filesystem::path& path,
                                std::size_t second_thread_bytes) {
  std::shared_ptr<const MappedFile> file;
  try {
    file = MappedFile::open(path);
  } catch (const Error& e) {
    throw Error(fmt::format("{} (the artifact)", e.what()), ErrorCode::kArtifact,
                ErrorLocation::in_file(path.string()));
  }
  return from_file(std::move(file), path.string(), second_thread_bytes);
}

ArtifactFile ArtifactFile::from_bytes(std::string_view bytes, std::string name) {
  return from_file(MappedFile::copy_of(bytes), std::move(name), kChecksumSecondThreadBytes);
}

ArtifactFile ArtifactFile::from_file(std::shared_ptr<const MappedFile> file, std::string name_in,
                                     std::size_t second_thread_bytes) {
  ArtifactFile artifact;
  artifact.name_ = std::move(name_in);
  const std::string& name = artifact.name_;
  artifact.file_ = std::move(file);
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
  artifact.checksum_ =
      std::make_shared<const ArtifactChecksum>(artifact.file_, name, trailer, second_thread_bytes);
  // From here on every error waits for the checksum first: a corrupt file is reported as corrupt,
  // not by whichever structure the damage reached first.
  try {
    MaskArtifactReader::read_header(artifact, in, trailer);
  } catch (const Error&) {
    artifact.checksum_->verify();
    throw;
  }
  return artifact;
}

void MaskArtifactReader::read_header(ArtifactFile& artifact, BinaryReader& in,
                                     const Trailer& trailer) {
  artifact.area_begin_ = trailer.area_begin;
  artifact.area_end_ = trailer.area_end;
  artifact.post_lexer_ = read_post_lexer(in);
  artifact.grammar_fingerprint_ = in.get<std::uint64_t>("grammar fingerprint");
  artifact.vocabulary_fingerprint_ = in.get<std::uint64_t>("vocabulary fingerprint");
  artifact.tokenizer_ = in.get_string("tokenizer name");
  artifact.vocabulary_size_ = in.get<std::uint64_t>("vocabulary size");
  const auto source_size = in.get<std::uint64_t>("source size");
  artifact.source_ = in.get_bytes(source_size, "source");
  const auto grammar_image_size = in.get<std::uint64_t>("grammar image size");
  artifact.grammar_image_offset_ = in.offset();
  artifact.grammar_image_size_ = in.get_bytes(grammar_image_size, "grammar image").size();
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
}

void ArtifactFile::verify_checksum() const {
  checksum_->verify();
}

bool ArtifactFile::checksum_on_second_thread() const {
  return checksum_->on_second_thread();
}

std::shared_ptr<const glr::CompiledGrammar> ArtifactFile::compiled_grammar(
    GrammarModel model, const glr::ParseOptions& options) const {
  const std::string_view bytes = file_->bytes();
  // The reader spans the whole file, so that its errors name file offsets.
  BinaryReader in(bytes.substr(0, grammar_image_offset_ + grammar_image_size_), name_);
  in.get_bytes(grammar_image_offset_, "header");
  std::shared_ptr<const glr::CompiledGrammar> grammar;
  try {
    grammar = glr::read_compiled_grammar(in, std::move(model), options);
    if (!in.at_end()) in.fail("unexpected bytes after the grammar image");
  } catch (const Error&) {
    verify_checksum();
    throw;
  }
  verify_checksum();
  return grammar;
}

void ArtifactFile::check_fingerprints(const glr::CompiledGrammar& grammar,
                                      const Vocabulary& vocabulary) const {
  verify_checksum();
  BinaryReader in(file_->bytes(), name_);
  check_post_lexer(in, post_lexer_, grammar);
  if (grammar_fingerprint_ != grammar_fingerprint(grammar))
    in.fail(
        "compiled from another grammar (or other grammar options: start, policy, skippable, "
        "postlex) than the one given");
  if (vocabulary_fingerprint_ != vocabulary_fingerprint(vocabulary))
    in.fail(fmt::format("compiled for the tokenizer '{}', not for '{}' ({} ids)", tokenizer_,
                        vocabulary.name(), vocabulary.size()));
  if (vocabulary_size_ != vocabulary.size()) in.fail("vocabulary size differs");
}

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
  const std::shared_ptr<ArtifactTokenSets> stored_sets =
      read_token_sets(in, universe, artifact.file_, artifact.area_begin_, artifact.area_end_);
  TokenSetPool pool = TokenSetPool::from_frozen(universe, stored_sets);
  const std::size_t token_sets = pool.distinct_sets();
  in.align(8, "automata alignment");
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
  // The distinct weights, marked transition by transition (mask_weights() would sort a million
  // of them on every load); each must have its class row and its export records (a weight
  // without them would export as empty). Whether the records describe the set is checked on its
  // first use.
  std::vector<char> is_weight(token_sets, 0);
  for (const ParserDwaTransition& t : result->parser_dwa_.all_transitions())
    is_weight[t.weight.value()] = 1;
  for (const TokenSetId weight : branch_mask_weights(result->parser_dwa_))
    is_weight[weight.value()] = 1;
  is_weight[TokenSetPool::empty().value()] = 0;
  for (std::uint32_t set = 0; set < token_sets; ++set)
    if (is_weight[set] != 0 && result->weight_classes_.row(TokenSetId{set}) == nullptr)
      in.fail(fmt::format("token set {} weighs the Parser DWA but has no class row", set));
  result->stats_ = in.get<CompileStats>("compile statistics");
  result->weight_sources_ = read_weight_segments(in, *stored_sets, result->pool_,
                                                 is_weight[TokenSetPool::full().value()] != 0);
  if (!in.at_end()) in.fail("unexpected bytes after the last section");
  for (std::uint32_t set = 0; set < token_sets; ++set)
    if (is_weight[set] != 0 && !result->weight_sources_.contains(TokenSetId{set}))
      in.fail(fmt::format("token set {} weighs the Parser DWA but has no export records", set));
  stored_sets->expect_sources(&result->weight_sources_);
  return result;
}

std::shared_ptr<const CompiledMask> ArtifactFile::compiled_mask(
    std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary) const {
  try {
    return MaskArtifactReader::read(*this, std::move(grammar), vocabulary);
  } catch (const Error&) {
    verify_checksum();
    throw;
  }
}

std::shared_ptr<const CompiledMask> read_mask_artifact(
    const std::filesystem::path& path, std::shared_ptr<const glr::CompiledGrammar> grammar,
    const Vocabulary& vocabulary) {
  return ArtifactFile::open(path).compiled_mask(std::move(grammar), vocabulary);
}

}  // namespace glrmask::mask
