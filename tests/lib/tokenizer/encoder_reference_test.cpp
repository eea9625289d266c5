// The encoder against the reference implementation, text by text and id by id.
//
// Texts: every regular file under data_dir()/programs/ (all subfolders, nocomments/ included)
// except the SOURCE.md and parses*.txt files that describe the corpus, and every valid instance of
// data_dir()/jsonschema/maskbench-dev/*.json as json.dumps(data, ensure_ascii=False) (written by
// tests/reference/dump_instances.py). Without the data folder, the texts of
// tests/fixtures/tokenizers/texts/ stand in.
//
// For each tokenizer one node process (tests/reference/encode.js) encodes the whole list with the
// transformers.js port shipped in the tokenizer's package; every id sequence must be identical.
// Decoding the ids through Vocabulary::bytes must give back the text, normalized as the tokenizer
// normalizes it ('▁' read as a space for SentencePiece vocabularies).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "lib/core/settings.h"
#include "lib/tokenizer/added_tokens.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/normalizer.h"
#include "lib/tokenizer/tokenizer_spec.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

namespace fs = std::filesystem;
using Ids = std::vector<TokenId>;

bool have_node() {
  const auto result = testing::run_command("node --version");
  if (result.exit_code == 0) return true;
  std::cerr << "\n*** WARNING: node is not available; the encoder is not compared with the "
               "reference implementation. ***\n\n";
  return false;
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(data_dir() / "programs")) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    if (name == "SOURCE.md" || name.rfind("parses", 0) == 0) continue;  // about the corpus
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> instance_files(const fs::path& folder) {
  const auto script = testing::source_dir() / "tests" / "reference" / "dump_instances.py";
  const auto result = testing::run_command(
      fmt::format("python3 {} {} {}", testing::shell_quoted(script),
                  testing::shell_quoted(data_dir() / "jsonschema" / "maskbench-dev"),
                  testing::shell_quoted(folder)));
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  std::vector<fs::path> files;
  std::istringstream lines(result.output);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) files.emplace_back(line);
  return files;
}

std::vector<fs::path> fixture_texts() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(testing::fixtures_dir() / "tokenizers" / "texts"))
    files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// "[1,2,3]" -> {1, 2, 3}
Ids parse_ids(const std::string& line) {
  Ids ids;
  TokenId value = 0;
  bool in_number = false;
  for (char c : line) {
    if (c >= '0' && c <= '9') {
      value = value * 10 + static_cast<TokenId>(c - '0');
      in_number = true;
    } else if (in_number) {
      ids.push_back(value);
      value = 0;
      in_number = false;
    }
  }
  return ids;
}

// Runs the reference over `files`; one id sequence per file.
std::vector<Ids> reference_ids(const std::string& tokenizer, const std::vector<fs::path>& files,
                               const fs::path& work) {
  const fs::path list = work / "list.txt", out = work / "reference.txt", err = work / "node.txt";
  {
    std::ofstream stream(list);
    for (const auto& file : files) stream << file.string() << "\n";
  }
  const auto script = testing::source_dir() / "tests" / "reference" / "encode.js";
  const auto result = testing::run_command(fmt::format(
      "(NODE_PATH={} node {} {} {} > {} 2> {})",
      testing::shell_quoted(cache_dir() / "node" / "node_modules"), testing::shell_quoted(script),
      testing::shell_quoted(tokenizer), testing::shell_quoted(list), testing::shell_quoted(out),
      testing::shell_quoted(err)));
  INFO("node: " << testing::read_file(err) << result.output);
  REQUIRE(result.exit_code == 0);
  std::vector<Ids> ids;
  std::ifstream stream(out);
  for (std::string line; std::getline(stream, line);) ids.push_back(parse_ids(line));
  REQUIRE(ids.size() == files.size());
  return ids;
}

std::string printable(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c == 0x7F)
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
  }
  return out;
}

std::string window(const Vocabulary& vocab, const Ids& ids, std::size_t at) {
  const std::size_t begin = at > 6 ? at - 6 : 0, end = std::min(ids.size(), at + 6);
  std::string numbers, text;
  for (std::size_t i = begin; i < end; ++i) {
    numbers += fmt::format("{}{}{}", i == at ? "*" : "", ids[i], i + 1 < end ? " " : "");
    if (ids[i] < vocab.size()) text += vocab.bytes(ids[i]);
  }
  return fmt::format("[{}] \"{}\"", numbers, printable(text));
}

// What decoding the ids should give: each section between added tokens as the normalizer leaves
// it, with '▁' read as a space for SentencePiece vocabularies; added tokens as their text.
std::string expected_decoding(const TokenizerSpec& spec, std::string_view text) {
  const AddedTokenSplitter splitter(spec.added_tokens);
  const Normalizer normalizer(spec.normalizers);
  std::vector<AddedTokenSplitter::Section> sections;
  splitter.split(text, sections);
  std::string expected, normalized;
  for (const auto& section : sections) {
    if (section.is_added) {
      expected += section.text;
      continue;
    }
    normalizer.apply(section.text, normalized);
    if (spec.kind == VocabularyKind::SentencePiece) {
      std::string spaced;
      std::size_t start = 0;
      for (std::size_t at; (at = normalized.find("\xE2\x96\x81", start)) != std::string::npos;
           start = at + 3)
        spaced.append(normalized, start, at - start).push_back(' ');
      normalized = spaced + normalized.substr(start);
    }
    expected += normalized;
  }
  return expected;
}

struct Comparison {
  std::size_t files = 0, tokens = 0, mismatches = 0, bad_decodings = 0;
};

// Encodes every file with `tokenizer_json` and compares with the reference run on `tokenizer`
// (a package folder or a tokenizer.json path). `check_decoding` is false for a tokenizer whose
// <unk> tokens cannot decode back to their text.
Comparison compare(const fs::path& tokenizer_json, const std::string& tokenizer,
                   const std::vector<fs::path>& files, const fs::path& work,
                   bool check_decoding = true) {
  const TokenizerSpec spec = TokenizerSpec::load(tokenizer_json);
  const Vocabulary vocab(spec);
  const Encoder encoder(spec);
  const std::vector<Ids> expected = reference_ids(tokenizer, files, work);
  Comparison result;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const std::string text = testing::read_file(files[f]);
    const Ids ids = encoder.encode(text);
    ++result.files;
    result.tokens += expected[f].size();
    if (ids != expected[f]) {
      std::size_t at = 0;
      while (at < ids.size() && at < expected[f].size() && ids[at] == expected[f][at]) ++at;
      if (++result.mismatches <= 5)
        std::cerr << fmt::format(
            "{}: {}: first difference at token {} (ours {} ids, reference {})\n  ours:      {}\n"
            "  reference: {}\n",
            vocab.name(), files[f].string(), at, ids.size(), expected[f].size(),
            window(vocab, ids, at), window(vocab, expected[f], at));
    }
    const std::string decoded = vocab.decode(ids);
    const std::string wanted = expected_decoding(spec, text);
    if (check_decoding && decoded != wanted) {
      std::size_t at = 0;
      while (at < decoded.size() && at < wanted.size() && decoded[at] == wanted[at]) ++at;
      if (++result.bad_decodings <= 5)
        std::cerr << fmt::format("{}: {}: decoding differs at byte {}: \"{}\" vs \"{}\"\n",
                                 vocab.name(), files[f].string(), at,
                                 printable(decoded.substr(at, 40)),
                                 printable(wanted.substr(at, 40)));
    }
    // Byte-level tokenizers without a normalizer give back the very text.
    if (spec.normalizers.empty() && spec.kind == VocabularyKind::ByteLevel) {
      INFO(files[f].string());
      CHECK((decoded == text));
    }
  }
  std::cout << fmt::format(
      "{}: {} texts, {} tokens compared with the reference; {} differ, {} "
      "decode differently\n",
      vocab.name(), result.files, result.tokens, result.mismatches, result.bad_decodings);
  return result;
}

}  // namespace

TEST_CASE("the fixture tokenizers agree with the reference") {
  if (!have_node()) return glrmask::testing::skip_test_case();
  const testing::ScratchDir work;
  for (const char* name : {"tiny_byte_level", "tiny_byte_level_ignore_merges", "tiny_sentencepiece",
                           "tiny_sentencepiece_unk"}) {
    INFO(name);
    const fs::path json = testing::fixtures_dir() / "tokenizers" / name / "tokenizer.json";
    // The <unk> of the fixture without byte fallback cannot decode back to its characters.
    const bool has_unk = std::string_view(name) == "tiny_sentencepiece_unk";
    const Comparison result = compare(json, json.string(), fixture_texts(), work.path, !has_unk);
    CHECK(result.files > 0);
    CHECK(result.mismatches == 0);
    CHECK(result.bad_decodings == 0);
  }
}

TEST_CASE("real tokenizers agree with the reference on every corpus text") {
  if (!have_node()) return glrmask::testing::skip_test_case();
  const testing::ScratchDir work;
  std::vector<fs::path> files;
  if (testing::require_data_dir("encoder_reference_test (programs and JSON instances)")) {
    files = corpus_files();
    const auto instances = instance_files(work.path / "instances");
    CHECK(files.size() >= 200);
    CHECK(instances.size() >= 400);
    files.insert(files.end(), instances.begin(), instances.end());
  } else {
    files = fixture_texts();
  }
  Comparison total;
  for (const char* name : {"llama2", "llama3", "qwen3", "gemma3", "gptoss"}) {
    if (!testing::require_tokenizer(name)) continue;
    INFO(name);
    const Comparison result =
        compare(resolve_tokenizer(name), (cache_dir() / "tokenizers" / name / "package").string(),
                files, work.path);
    CHECK(result.mismatches == 0);
    CHECK(result.bad_decodings == 0);
    total.files += result.files;
    total.tokens += result.tokens;
  }
  std::cout << fmt::format("in all: {} texts x tokenizers, {} tokens\n", total.files, total.tokens);
}

}  // namespace glrmask
