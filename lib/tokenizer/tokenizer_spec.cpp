#include "lib/tokenizer/tokenizer_spec.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>

#include "lib/core/error.h"
#include "lib/tokenizer/bpe_string_table.h"

namespace glrmask {
namespace {

using simdjson::dom::element;

// Ids index dense arrays and leave the top of the 32-bit range free for markers, so they are
// kept well below it (the largest vocabulary in use has ~262k ids).
constexpr std::uint64_t kTokenIdLimit = std::uint64_t{1} << 26;

// The pre-tokenizer expressions as tokenizer.json writes them (after JSON unescaping).
struct KnownRegex {
  SplitRegex regex;
  std::string_view text;
};
constexpr std::array<KnownRegex, 4> kKnownRegexes = {{
    {SplitRegex::Gpt2,
     R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)"},
    {SplitRegex::Llama3,
     R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)"},
    {SplitRegex::Qwen2,
     R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)"},
    {SplitRegex::O200k,
     R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)"},
}};

// Overwrites with "0" (padded with spaces, so offsets stay) every integer literal outside strings
// that has 20 or more digits. simdjson 3.0 rejects integers beyond 64 bits, and tokenizer configs
// write `"model_max_length": 1000000000000000019884624838656`. Only for files none of whose numbers
// are read.
void blank_huge_integers(simdjson::padded_string& json) {
  char* text = json.data();
  const std::size_t size = json.size();
  bool in_string = false;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if ((c >= '0' && c <= '9') || c == '-') {
      const std::size_t digits_begin = i + (c == '-' ? 1 : 0);
      std::size_t end = digits_begin;
      while (end < size && text[end] >= '0' && text[end] <= '9') ++end;
      const bool more = end < size && (text[end] == '.' || text[end] == 'e' || text[end] == 'E');
      if (!more && end - digits_begin >= 20) {
        text[i] = '0';
        std::fill(text + i + 1, text + end, ' ');
      }
      i = end - 1;
    }
  }
}

// Reads one JSON file and turns shape problems into errors that name the file and the JSON path
// ("/model/merges/17") of the value at fault.
class JsonFile {
 public:
  enum class Numbers { Read, Unused };
  explicit JsonFile(std::filesystem::path path, Numbers numbers = Numbers::Read)
      : path_(std::move(path)) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path_, ec))
      throw Error(fmt::format("{}: no such file", path_.string()), ErrorCode::kIo,
                  ErrorLocation::in_file(path_.string()));
    auto loaded = simdjson::padded_string::load(path_.string());
    if (loaded.error())
      throw Error(fmt::format("{}: cannot read: {}", path_.string(),
                              simdjson::error_message(loaded.error())),
                  ErrorCode::kIo, ErrorLocation::in_file(path_.string()));
    text_ = std::move(loaded).value_unsafe();
    parse(numbers);
  }

 private:
  void parse(Numbers numbers) {
    auto parsed = parser_.parse(text_);
    if (parsed.error() == simdjson::NUMBER_ERROR && numbers == Numbers::Unused) {
      blank_huge_integers(text_);
      parsed = parser_.parse(text_);
    }
    if (parsed.error())
      throw Error(fmt::format("{}: invalid JSON ({} bytes read): {}", path_.string(), text_.size(),
                              simdjson::error_message(parsed.error())),
                  ErrorCode::kTokenizer, ErrorLocation::in_file(path_.string()));
    root_ = parsed.value_unsafe();
  }

 public:
  // The text of a tokenizer.json (or tokenizer_config.json) held in memory, named `name`.
  JsonFile(std::string_view text, std::string name, Numbers numbers = Numbers::Read)
      : path_(std::move(name)), text_(text) {
    parse(numbers);
  }

  element root() const { return root_; }

  [[noreturn]] void fail(std::string_view where, std::string_view problem) const {
    throw Error(fmt::format("{}: {}: {}", path_.string(), where.empty() ? "/" : where, problem),
                ErrorCode::kTokenizer,
                ErrorLocation::in_json(path_.string(), std::string(where.empty() ? "/" : where)));
  }

  // The member `key` of object `object` (at JSON path `where`), or nullopt when it is absent.
  std::optional<element> member(element object, std::string_view key) const {
    auto as_object = object.get_object();
    if (as_object.error()) return std::nullopt;
    auto found = as_object.value_unsafe()[key];
    if (found.error()) return std::nullopt;
    return found.value_unsafe();
  }

  simdjson::dom::object object_at(element value, std::string_view where) const {
    auto object = value.get_object();
    if (object.error()) fail(where, "expected a JSON object");
    return object.value_unsafe();
  }

  simdjson::dom::array array_at(element value, std::string_view where) const {
    auto array = value.get_array();
    if (array.error()) fail(where, "expected a JSON array");
    return array.value_unsafe();
  }

  std::string_view string_at(element value, std::string_view where) const {
    auto text = value.get_string();
    if (text.error()) fail(where, "expected a string");
    return text.value_unsafe();
  }

  bool bool_at(element value, std::string_view where) const {
    auto flag = value.get_bool();
    if (flag.error()) fail(where, "expected true or false");
    return flag.value_unsafe();
  }

  // An optional boolean member: absent or null gives `fallback`.
  bool flag(element object, std::string_view key, std::string_view where, bool fallback) const {
    auto value = member(object, key);
    if (!value || value->is_null()) return fallback;
    return bool_at(*value, fmt::format("{}/{}", where, key));
  }

  // An optional string member: absent or null gives nullopt.
  std::optional<std::string> text(element object, std::string_view key,
                                  std::string_view where) const {
    auto value = member(object, key);
    if (!value || value->is_null()) return std::nullopt;
    return std::string(string_at(*value, fmt::format("{}/{}", where, key)));
  }

  std::string required_text(element object, std::string_view key, std::string_view where) const {
    auto value = text(object, key, where);
    if (!value) fail(where, fmt::format("missing string member \"{}\"", key));
    return *value;
  }

  TokenId token_id_at(element value, std::string_view where) const {
    auto number = value.get_uint64();
    if (number.error() || number.value_unsafe() >= kTokenIdLimit)
      fail(where, fmt::format("expected a token id (an integer from 0 to {})", kTokenIdLimit - 1));
    return static_cast<TokenId>(number.value_unsafe());
  }

 private:
  std::filesystem::path path_;
  simdjson::padded_string text_;
  simdjson::dom::parser parser_;
  element root_;
};

void read_model(const JsonFile& file, element model, TokenizerSpec& spec) {
  const std::string where = "/model";
  file.object_at(model, where);
  const auto type = file.text(model, "type", where);
  // Old files may omit the type; then a vocabulary with merges is BPE, as the reference infers.
  if (type ? *type != "BPE" : !file.member(model, "merges"))
    file.fail(where + "/type", fmt::format("unsupported model type \"{}\" (only BPE is supported)",
                                           type.value_or("(none)")));

  for (std::string_view key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    const auto affix = file.text(model, key, where);
    if (affix && !affix->empty())
      file.fail(fmt::format("{}/{}", where, key),
                fmt::format("unsupported BPE option (value \"{}\")", *affix));
  }
  spec.unk_token = file.text(model, "unk_token", where);
  spec.byte_fallback = file.flag(model, "byte_fallback", where, false);
  spec.ignore_merges = file.flag(model, "ignore_merges", where, false);
  spec.fuse_unk = file.flag(model, "fuse_unk", where, false);

  // The two big members. Their JSON paths are only formatted when something is wrong.
  const auto vocab = file.member(model, "vocab");
  if (!vocab) file.fail(where, "missing member \"vocab\"");
  const auto vocab_object = file.object_at(*vocab, where + "/vocab");
  spec.vocab.reserve(vocab_object.size());
  for (auto [key, value] : vocab_object) {
    auto id = value.get_uint64();
    if (id.error() || id.value_unsafe() >= kTokenIdLimit)
      file.token_id_at(value, fmt::format("{}/vocab/{:?}", where, key));  // throws
    spec.vocab.emplace_back(key, static_cast<TokenId>(id.value_unsafe()));
  }

  const auto merges = file.member(model, "merges");
  if (!merges) file.fail(where, "missing member \"merges\"");
  const auto merge_array = file.array_at(*merges, where + "/merges");
  spec.merges.reserve(merge_array.size());
  std::size_t index = 0;
  const auto merge_where = [&] { return fmt::format("{}/merges/{}", where, index); };
  for (element merge : merge_array) {
    if (auto line = merge.get_string(); !line.error()) {
      // Older files write "left right". The reference splits at spaces and keeps the first two
      // fields (JavaScript's split(" ", 2)).
      const std::string_view text = line.value_unsafe();
      const auto space = text.find(' ');
      if (space == std::string_view::npos)
        file.fail(merge_where(), "expected \"left right\" (two tokens separated by a space)");
      const std::string_view rest = text.substr(space + 1);
      spec.merges.emplace_back(text.substr(0, space), rest.substr(0, rest.find(' ')));
    } else {
      auto pair = merge.get_array();
      if (pair.error() || pair.value_unsafe().size() != 2)
        file.fail(merge_where(), "expected \"left right\" or a pair [left, right]");
      auto left = pair.value_unsafe().at(0).get_string();
      auto right = pair.value_unsafe().at(1).get_string();
      if (left.error() || right.error()) file.fail(merge_where(), "expected a pair of strings");
      spec.merges.emplace_back(left.value_unsafe(), right.value_unsafe());
    }
    ++index;
  }
}

void read_added_tokens(const JsonFile& file, element added, TokenizerSpec& spec) {
  std::size_t index = 0;
  for (element token : file.array_at(added, "/added_tokens")) {
    const std::string where = fmt::format("/added_tokens/{}", index++);
    file.object_at(token, where);
    AddedTokenSpec spec_token;
    const auto id = file.member(token, "id");
    if (!id) file.fail(where, "missing member \"id\"");
    spec_token.id = file.token_id_at(*id, where + "/id");
    spec_token.content = file.required_text(token, "content", where);
    if (spec_token.content.empty()) file.fail(where + "/content", "empty added token");
    spec_token.special = file.flag(token, "special", where, false);
    spec_token.lstrip = file.flag(token, "lstrip", where, false);
    spec_token.rstrip = file.flag(token, "rstrip", where, false);
    spec.added_tokens.push_back(std::move(spec_token));
  }
}

// What HF's tokenizers refuses when it builds a BPE model, and what would otherwise load
// silently here (the vocabulary alone never resolves the merges): a merge whose left part, right
// part or merged token is not in the vocabulary. And an id given two different contents by the
// added tokens, or by an added token and the model's vocab: which one the id spells would depend
// on the order of the file.
// Ids unused below the largest one that are always accepted (on top of one unused per used id).
constexpr std::size_t kSparseIdSlack = 65536;

void check_consistency(const JsonFile& file, const TokenizerSpec& spec) {
  // The flat table the BPE model uses: three lookups per merge in a node-based map were a fifth
  // of loading Llama-3's tokenizer.
  TokenStringTable ids;
  std::size_t vocab_bytes = 0;
  for (const auto& [piece, id] : spec.vocab) vocab_bytes += piece.size();
  ids.reserve(spec.vocab.size(), vocab_bytes);
  for (const auto& [piece, id] : spec.vocab) ids.insert_or_assign(piece, id);
  const auto known = [&](std::string_view piece) {
    return ids.find(piece) != TokenStringTable::kAbsent;
  };
  // Hundreds of thousands of merges, three lookups each: on all cores; the first bad rank wins.
  std::atomic<std::size_t> first_bad{spec.merges.size()};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, spec.merges.size(), 8192),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      std::string joined;
                      for (std::size_t rank = range.begin(); rank != range.end(); ++rank) {
                        const auto& [left, right] = spec.merges[rank];
                        joined.assign(left).append(right);
                        if (known(left) && known(right) && known(joined)) continue;
                        std::size_t seen = first_bad.load();
                        while (rank < seen && !first_bad.compare_exchange_weak(seen, rank)) {
                        }
                        return;
                      }
                    });
  if (const std::size_t rank = first_bad.load(); rank < spec.merges.size()) {
    const auto& [left, right] = spec.merges[rank];
    const std::string joined = std::string(left).append(right);
    const char* missing = !known(left)    ? "the left part"
                          : !known(right) ? "the right part"
                                          : "the merged token";
    file.fail(fmt::format("/model/merges/{}", rank),
              fmt::format("{:?} + {:?}: {} is not in the vocabulary", left, right, missing));
  }
  // Masks, token tables and the library's bitmasks are as wide as the largest id. An id far
  // beyond the others (one added token at 67,108,863) would make every one of them cost the whole
  // range: refused, naming the token, unless most ids below it are used.
  std::size_t used_ids = spec.vocab.size() + spec.added_tokens.size();
  TokenId max_id = 0;
  std::string max_where = "/model/vocab";
  for (const auto& [piece, id] : spec.vocab) max_id = std::max(max_id, id);
  for (std::size_t i = 0; i < spec.added_tokens.size(); ++i)
    if (spec.added_tokens[i].id > max_id) {
      max_id = spec.added_tokens[i].id;
      max_where = fmt::format("/added_tokens/{}/id", i);
    }
  if (std::size_t{max_id} + 1 > 2 * used_ids + kSparseIdSlack)
    file.fail(
        max_where,
        fmt::format("token id {} leaves {} of the {} ids up to it unused; glrmask sizes "
                    "every mask by the largest id, so ids this sparse are refused (renumber "
                    "the tokens densely)",
                    max_id, std::size_t{max_id} + 1 - std::min(used_ids, std::size_t{max_id} + 1),
                    std::size_t{max_id} + 1));
  std::unordered_map<TokenId, std::string_view> by_id;
  by_id.reserve(spec.vocab.size());
  for (const auto& [piece, id] : spec.vocab) by_id.emplace(id, piece);
  std::unordered_map<TokenId, std::size_t> added_at;
  for (std::size_t i = 0; i < spec.added_tokens.size(); ++i) {
    const AddedTokenSpec& added = spec.added_tokens[i];
    if (const auto earlier = added_at.find(added.id);
        earlier != added_at.end() && spec.added_tokens[earlier->second].content != added.content)
      file.fail(
          fmt::format("/added_tokens/{}/id", i),
          fmt::format("token id {} is given to both {:?} (/added_tokens/{}) and {:?}", added.id,
                      spec.added_tokens[earlier->second].content, earlier->second, added.content));
    added_at.emplace(added.id, i);
    if (const auto in_vocab = by_id.find(added.id);
        in_vocab != by_id.end() && in_vocab->second != added.content)
      file.fail(fmt::format("/added_tokens/{}/id", i),
                fmt::format("token id {} is {:?} in /model/vocab but {:?} here", added.id,
                            in_vocab->second, added.content));
  }
}

// Reads the `pattern` member of a Split or Replace: {"String": ...} or {"Regex": ...}.
struct Pattern {
  bool is_regex = false;
  std::string text;
};
Pattern read_pattern(const JsonFile& file, element step, const std::string& where) {
  const auto pattern = file.member(step, "pattern");
  if (!pattern) file.fail(where, "missing member \"pattern\"");
  file.object_at(*pattern, where + "/pattern");
  if (auto literal = file.text(*pattern, "String", where + "/pattern")) return {false, *literal};
  if (auto regex = file.text(*pattern, "Regex", where + "/pattern")) return {true, *regex};
  file.fail(where + "/pattern", "expected {\"String\": ...} or {\"Regex\": ...}");
}

void read_normalizer(const JsonFile& file, element step, const std::string& where,
                     std::vector<NormalizerStep>& steps) {
  if (step.is_null()) return;
  file.object_at(step, where);
  const std::string type = file.required_text(step, "type", where);
  NormalizerStep out;
  if (type == "Sequence") {
    const auto list = file.member(step, "normalizers");
    if (!list) file.fail(where, "missing member \"normalizers\"");
    std::size_t index = 0;
    for (element inner : file.array_at(*list, where + "/normalizers"))
      read_normalizer(file, inner, fmt::format("{}/normalizers/{}", where, index++), steps);
    return;
  } else if (type == "NFC") {
    out.kind = NormalizerStep::Kind::Nfc;
  } else if (type == "NFD") {
    out.kind = NormalizerStep::Kind::Nfd;
  } else if (type == "NFKC") {
    out.kind = NormalizerStep::Kind::Nfkc;
  } else if (type == "NFKD") {
    out.kind = NormalizerStep::Kind::Nfkd;
  } else if (type == "Prepend") {
    out.kind = NormalizerStep::Kind::Prepend;
    out.text = file.required_text(step, "prepend", where);
  } else if (type == "Replace") {
    out.kind = NormalizerStep::Kind::Replace;
    const Pattern pattern = read_pattern(file, step, where);
    if (pattern.is_regex) file.fail(where + "/pattern", "unsupported Replace with a Regex pattern");
    if (pattern.text.empty()) file.fail(where + "/pattern", "empty Replace pattern");
    out.text = pattern.text;
    out.replacement = file.required_text(step, "content", where);
    // The reference passes the content to JavaScript's replaceAll, where '$' is special.
    if (out.replacement.find('$') != std::string::npos)
      file.fail(where + "/content", "unsupported '$' in Replace content");
  } else {
    file.fail(where + "/type", fmt::format("unsupported normalizer \"{}\"", type));
  }
  steps.push_back(std::move(out));
}

void read_pre_tokenizer(const JsonFile& file, element step, const std::string& where,
                        std::vector<PreTokenizerStep>& steps) {
  if (step.is_null()) return;
  file.object_at(step, where);
  const std::string type = file.required_text(step, "type", where);
  if (!steps.empty() && steps.back().kind == PreTokenizerStep::Kind::ByteLevel)
    file.fail(where, "unsupported pre-tokenizer after ByteLevel (ByteLevel must come last)");
  PreTokenizerStep out;
  if (type == "Sequence") {
    const auto list = file.member(step, "pretokenizers");
    if (!list) file.fail(where, "missing member \"pretokenizers\"");
    std::size_t index = 0;
    for (element inner : file.array_at(*list, where + "/pretokenizers"))
      read_pre_tokenizer(file, inner, fmt::format("{}/pretokenizers/{}", where, index++), steps);
    return;
  } else if (type == "ByteLevel") {
    out.kind = PreTokenizerStep::Kind::ByteLevel;
    out.add_prefix_space = file.flag(step, "add_prefix_space", where, false);
    out.use_regex = file.flag(step, "use_regex", where, true);
  } else if (type == "Split") {
    const auto behavior = file.text(step, "behavior", where);
    // The reference implements "Removed" with String.split, whose treatment of capture groups
    // differs from the Rust library; every other behavior keeps matches and gaps alike.
    if (behavior && (*behavior == "Removed" || *behavior == "removed"))
      file.fail(where + "/behavior", "unsupported Split behavior \"Removed\"");
    out.invert = file.flag(step, "invert", where, false);
    const Pattern pattern = read_pattern(file, step, where);
    if (pattern.is_regex) {
      out.kind = PreTokenizerStep::Kind::SplitRegex;
      bool known = false;
      for (const auto& candidate : kKnownRegexes) {
        if (candidate.text != pattern.text) continue;
        out.regex = candidate.regex;
        known = true;
      }
      if (!known)
        file.fail(where + "/pattern",
                  fmt::format("unsupported Split regex {:?} (supported: the GPT-2, Llama-3, "
                              "Qwen-2 and o200k patterns)",
                              pattern.text));
    } else {
      if (pattern.text.empty()) file.fail(where + "/pattern", "empty Split pattern");
      out.kind = PreTokenizerStep::Kind::SplitLiteral;
      out.literal = pattern.text;
    }
  } else {
    file.fail(where + "/type", fmt::format("unsupported pre-tokenizer \"{}\"", type));
  }
  steps.push_back(std::move(out));
}

// True when the decoder (or a step of a decoder Sequence) is ByteLevel.
bool has_byte_level_decoder(const JsonFile& file, element decoder) {
  const auto type = file.member(decoder, "type");
  if (!type || !type->is_string()) return false;
  if (type->get_string().value_unsafe() == "ByteLevel") return true;
  if (const auto steps = file.member(decoder, "decoders"); steps && steps->is_array()) {
    const simdjson::dom::array list = file.array_at(*steps, "/decoder/decoders");
    for (element step : list)
      if (has_byte_level_decoder(file, step)) return true;
  }
  return false;
}

// A token named in tokenizer_config.json: a string, or an AddedToken object with "content".
std::optional<std::string> config_token(const JsonFile& file, element value,
                                        const std::string& where) {
  if (value.is_null()) return std::nullopt;
  if (value.is_string()) return std::string(file.string_at(value, where));
  file.object_at(value, where);
  return file.required_text(value, "content", where);
}

void read_config(const JsonFile& file, TokenizerSpec& spec) {
  const element root = file.root();
  file.object_at(root, "");
  spec.has_config = true;
  if (auto eos = file.member(root, "eos_token"))
    spec.eos_token = config_token(file, *eos, "/eos_token");
  if (auto extra = file.member(root, "additional_special_tokens"); extra && !extra->is_null()) {
    std::size_t index = 0;
    for (element token : file.array_at(*extra, "/additional_special_tokens")) {
      const std::string where = fmt::format("/additional_special_tokens/{}", index++);
      if (auto content = config_token(file, token, where))
        spec.additional_special_tokens.push_back(*content);
    }
  }
  // Options of the reference's tokenizer classes that change encoding and are not implemented.
  const auto tokenizer_class = file.text(root, "tokenizer_class", "");
  if (tokenizer_class &&
      (*tokenizer_class == "LlamaTokenizer" || *tokenizer_class == "LlamaTokenizerFast") &&
      !file.flag(root, "legacy", "", true))
    file.fail("/legacy", "unsupported non-legacy Llama tokenization (\"legacy\": false)");
  for (std::string_view key : {"remove_space", "do_lowercase_and_remove_accent"})
    if (file.flag(root, key, "", false))
      file.fail(fmt::format("/{}", key), "unsupported option (true)");
}

}  // namespace

namespace {

// What load() and parse() share: the spec of a parsed tokenizer.json named `path`.
TokenizerSpec spec_of(const std::shared_ptr<const JsonFile>& file,
                      const std::filesystem::path& path) {
  TokenizerSpec spec;
  spec.path = path;
  spec.storage = file;
  const element root = file->root();
  file->object_at(root, "");
  const auto model = file->member(root, "model");
  if (!model) file->fail("", "missing member \"model\"");
  read_model(*file, *model, spec);
  if (auto added = file->member(root, "added_tokens"); added && !added->is_null())
    read_added_tokens(*file, *added, spec);
  check_consistency(*file, spec);
  if (auto normalizer = file->member(root, "normalizer"))
    read_normalizer(*file, *normalizer, "/normalizer", spec.normalizers);
  if (auto pre_tokenizer = file->member(root, "pre_tokenizer"))
    read_pre_tokenizer(*file, *pre_tokenizer, "/pre_tokenizer", spec.pre_tokenizers);
  spec.kind = !spec.pre_tokenizers.empty() &&
                      spec.pre_tokenizers.back().kind == PreTokenizerStep::Kind::ByteLevel
                  ? VocabularyKind::ByteLevel
                  : VocabularyKind::SentencePiece;
  // Token strings are in the byte alphabet exactly when the pre-tokenizer maps text into it.
  const auto decoder = file->member(root, "decoder");
  if (decoder && spec.kind != VocabularyKind::ByteLevel && has_byte_level_decoder(*file, *decoder))
    file->fail("/decoder", "unsupported ByteLevel decoder without a ByteLevel pre-tokenizer");
  return spec;
}

}  // namespace

TokenizerSpec TokenizerSpec::load(const std::filesystem::path& tokenizer_json) {
  TokenizerSpec spec = spec_of(std::make_shared<const JsonFile>(tokenizer_json), tokenizer_json);
  const std::filesystem::path config = tokenizer_json.parent_path() / "tokenizer_config.json";
  std::error_code ec;
  if (std::filesystem::exists(config, ec))
    read_config(JsonFile(config, JsonFile::Numbers::Unused), spec);
  return spec;
}

TokenizerSpec TokenizerSpec::parse(std::string_view tokenizer_json, const std::string& name,
                                   const std::optional<std::string>& config_json) {
  TokenizerSpec spec = spec_of(std::make_shared<const JsonFile>(tokenizer_json, name), name);
  if (config_json)
    read_config(
        JsonFile(*config_json, name + " (tokenizer_config.json)", JsonFile::Numbers::Unused), spec);
  return spec;
}

}  // namespace glrmask
