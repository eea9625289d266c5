#include "wfa/mask_artifact.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/binary_io.h"
#include "lib/error.h"
#include "lib/lark_writer.h"

namespace glrmask::wfa {

namespace {

constexpr char kMagic[8] = {'G', 'L', 'R', 'M', 'A', 'S', 'K', 'A'};
constexpr std::uint32_t kByteOrderMark = 0x01020304;

std::uint64_t combine(std::uint64_t h, std::string_view bytes) {
  return checksum64(std::string(reinterpret_cast<const char*>(&h), sizeof h) + std::string(bytes));
}

}  // namespace

std::uint64_t grammar_fingerprint(const glr::CompiledGrammar& grammar) {
  const glr::ParseOptions& options = grammar.options();
  std::string key = to_lark_text(grammar.grammar());
  key += fmt::format("\n--start={}\n--policy={}\n", options.start,
                     options.policy == glr::ConflictPolicy::kLark ? "lark" : "glr");
  for (const std::string& terminal : options.skippable) key += "--skippable=" + terminal + "\n";
  return checksum64(key);
}

std::uint64_t vocabulary_fingerprint(const Vocabulary& vocabulary) {
  BinaryWriter out;
  out.put<std::uint64_t>(vocabulary.size());
  out.put<std::int64_t>(vocabulary.eos() ? static_cast<std::int64_t>(*vocabulary.eos()) : -1);
  for (TokenId id = 0; id < vocabulary.size(); ++id) {
    out.put<std::uint8_t>(vocabulary.is_special(id) ? 1 : 0);
    out.put_string(vocabulary.bytes(id));
  }
  return combine(0x766f636162ULL, out.bytes());
}

std::size_t write_mask_artifact(const CompiledMask& compiled, const Vocabulary& vocabulary,
                                const std::filesystem::path& path) {
  // Number the token sets the automata use, in first-use order; 0 stays the empty set.
  const TokenSetPool& pool = compiled.pool();
  std::unordered_map<std::uint32_t, std::uint32_t> stored{{0, 0}};
  std::vector<TokenSetId> sets{TokenSetPool::empty()};
  auto stored_id = [&](TokenSetId set) {
    const auto [it, inserted] =
        stored.try_emplace(set.value(), static_cast<std::uint32_t>(sets.size()));
    if (inserted) sets.push_back(set);
    return it->second;
  };
  BinaryWriter automata;
  compiled.terminal_dwa().write(automata, stored_id);
  compiled.parser_dwa().write(automata, stored_id);
  automata.put(compiled.stats());

  BinaryWriter out;
  out.put(kMagic);
  out.put(kMaskArtifactVersion);
  out.put(kByteOrderMark);
  out.put(grammar_fingerprint(compiled.grammar()));
  out.put(vocabulary_fingerprint(vocabulary));
  out.put_string(vocabulary.name());
  out.put<std::uint64_t>(pool.universe_size());
  out.put<std::uint64_t>(sets.size());
  std::string buffer;
  for (std::size_t i = 1; i < sets.size(); ++i) {
    RoaringBitmap set = pool.get(sets[i]);
    set.runOptimize();  // smaller on disk; the loaded pool keeps the compact form
    buffer.resize(set.getSizeInBytes(true));
    set.write(buffer.data(), true);
    out.put_string(buffer);
  }
  std::string bytes = out.take() + automata.bytes();
  const std::uint64_t sum = checksum64(bytes);
  bytes.append(reinterpret_cast<const char*>(&sum), sizeof sum);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw Error(fmt::format("{}: cannot open the artifact for writing", path.string()));
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file) throw Error(fmt::format("{}: cannot write the artifact", path.string()));
  return bytes.size();
}

class MaskArtifactReader {
 public:
  static std::shared_ptr<const CompiledMask> read(
      const std::filesystem::path& path, std::shared_ptr<const glr::CompiledGrammar> grammar,
      const Vocabulary& vocabulary);
};

std::shared_ptr<const CompiledMask> MaskArtifactReader::read(
    const std::filesystem::path& path, std::shared_ptr<const glr::CompiledGrammar> grammar,
    const Vocabulary& vocabulary) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error(fmt::format("{}: cannot open the artifact", path.string()));
  std::ostringstream content;
  content << file.rdbuf();
  const std::string bytes = content.str();
  const std::string name = path.string();
  if (bytes.size() < sizeof kMagic + sizeof(std::uint64_t) ||
      std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    throw Error(fmt::format("{}: not a glrmask artifact (no 'GLRMASKA' header)", name));
  }
  const std::string_view body(bytes.data(), bytes.size() - sizeof(std::uint64_t));
  std::uint64_t sum = 0;
  std::memcpy(&sum, bytes.data() + body.size(), sizeof sum);
  if (checksum64(body) != sum)
    throw Error(
        fmt::format("{}: checksum mismatch over {} bytes: the artifact is truncated or "
                    "corrupt; compile it again",
                    name, body.size()));
  BinaryReader in(body, name);
  in.get_bytes(sizeof kMagic, "magic");
  const auto version = in.get<std::uint32_t>("format version");
  if (version != kMaskArtifactVersion)
    in.fail(fmt::format("format version {}, this build reads version {}; compile it again", version,
                        kMaskArtifactVersion));
  if (in.get<std::uint32_t>("byte order") != kByteOrderMark)
    in.fail("written on a machine with another byte order");
  const auto grammar_id = in.get<std::uint64_t>("grammar fingerprint");
  if (grammar_id != grammar_fingerprint(*grammar))
    in.fail(
        "compiled from another grammar (or other --start/--policy/--skippable options) than "
        "the one given");
  const auto vocabulary_id = in.get<std::uint64_t>("vocabulary fingerprint");
  const std::string tokenizer = in.get_string("tokenizer name");
  if (vocabulary_id != vocabulary_fingerprint(vocabulary))
    in.fail(fmt::format("compiled for the tokenizer '{}', not for '{}' ({} ids)", tokenizer,
                        vocabulary.name(), vocabulary.size()));
  const auto universe = in.get<std::uint64_t>("vocabulary size");
  if (universe != vocabulary.size()) in.fail("vocabulary size differs");

  TokenSetPool pool(static_cast<std::uint32_t>(universe));
  const auto count = in.get<std::uint64_t>("token set count");
  std::vector<TokenSetId> ids{TokenSetPool::empty()};
  ids.reserve(std::min<std::uint64_t>(count, body.size()));
  for (std::uint64_t i = 1; i < count; ++i) {
    const std::size_t at = in.offset();
    const auto size = in.get<std::uint64_t>("token set size");
    const std::string_view serialized = in.get_bytes(size, "token set");
    RoaringBitmap set;
    try {
      set = RoaringBitmap::readSafe(serialized.data(), serialized.size());
    } catch (const std::exception&) {
      throw Error(fmt::format("{}: byte offset {}: token set {} cannot be decoded", name, at, i));
    }
    if (!set.isEmpty() && set.maximum() >= universe)
      throw Error(fmt::format("{}: byte offset {}: token set {} holds token id {} >= {}", name, at,
                              i, set.maximum(), universe));
    ids.push_back(pool.intern(std::move(set)));
  }
  auto pool_id = [&](std::uint32_t stored) {
    if (stored >= ids.size())
      in.fail(fmt::format("token set {} of {} does not exist", stored, ids.size()));
    return ids[stored];
  };
  lexer::TerminalDwa terminal_dwa = lexer::TerminalDwa::read(in, grammar->dfa(), pool_id);
  std::shared_ptr<CompiledMask> result(
      new CompiledMask(std::move(grammar), std::move(pool), std::move(terminal_dwa)));
  result->parser_dwa_ = ParserDwa::read(in, result->grammar_->table().num_states(),
                                        result->terminal_dwa_.num_forks(), pool_id);
  result->stats_ = in.get<CompileStats>("compile statistics");
  if (!in.at_end()) in.fail("unexpected bytes after the last section");
  return result;
}

std::shared_ptr<const CompiledMask> read_mask_artifact(
    const std::filesystem::path& path, std::shared_ptr<const glr::CompiledGrammar> grammar,
    const Vocabulary& vocabulary) {
  return MaskArtifactReader::read(path, std::move(grammar), vocabulary);
}

}  // namespace glrmask::wfa
