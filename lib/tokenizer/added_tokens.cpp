#include "lib/tokenizer/added_tokens.h"

#include "lib/core/unicode_utf8.h"
#include "lib/tokenizer/unicode_classes.h"

namespace glrmask {
namespace {

// JavaScript's trimStart / trimEnd (the \s set), on valid UTF-8.
std::string_view trim_start(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t next = pos;
    if (!unicode::is_js_space(decode_utf8(text, next))) break;
    pos = next;
  }
  return text.substr(pos);
}

std::string_view trim_end(std::string_view text) {
  std::size_t end = text.size();
  while (end > 0) {
    std::size_t start = end - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    std::size_t next = start;
    if (!unicode::is_js_space(decode_utf8(text, next))) break;
    end = start;
  }
  return text.substr(0, end);
}

std::uint64_t edge_key(std::uint32_t node, unsigned char byte) {
  return std::uint64_t{node} << 8 | byte;
}

}  // namespace

AddedTokenSplitter::AddedTokenSplitter(const std::vector<AddedTokenSpec>& tokens) {
  // A later token with the same content replaces an earlier one, as in the reference's maps.
  for (const AddedTokenSpec& token : tokens) {
    by_content_[token.content] = {token.id, token.lstrip, token.rstrip};
    any_strip_ = any_strip_ || token.lstrip || token.rstrip;
  }
  token_at_node_.push_back(nullptr);
  for (const auto& entry : by_content_) {
    std::uint32_t node = 0;
    for (unsigned char byte : entry.first) {
      auto [edge, inserted] = edges_.try_emplace(edge_key(node, byte),
                                                 static_cast<std::uint32_t>(token_at_node_.size()));
      if (inserted) token_at_node_.push_back(nullptr);
      if (node == 0) root_edges_[byte] = edge->second;
      node = edge->second;
    }
    token_at_node_[node] = &entry;
  }
}

void AddedTokenSplitter::split(std::string_view text, std::vector<Section>& out) const {
  out.clear();
  std::size_t start = 0;  // start of the pending text section
  for (std::size_t pos = 0; pos < text.size();) {
    std::uint32_t node = root_edges_[static_cast<unsigned char>(text[pos])];
    if (node == 0) {
      ++pos;  // added tokens start with a lead byte, so they never match inside a character
      continue;
    }
    const std::pair<const std::string, TokenInfo>* match = token_at_node_[node];
    for (std::size_t i = pos + 1; i < text.size(); ++i) {
      auto edge = edges_.find(edge_key(node, static_cast<unsigned char>(text[i])));
      if (edge == edges_.end()) break;
      node = edge->second;
      if (token_at_node_[node]) match = token_at_node_[node];  // keep the longest
    }
    if (!match) {
      ++pos;
      continue;
    }
    if (start < pos) out.push_back({text.substr(start, pos - start)});
    out.push_back({text.substr(pos, match->first.size()), true, match->second.id});
    pos = start = pos + match->first.size();
  }
  if (start < text.size()) out.push_back({text.substr(start)});
  if (!any_strip_) return;

  // lstrip / rstrip trim the whitespace of the neighbouring section (even another added token).
  // The reference then looks the trimmed text up again, so it may stop being an added token.
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto found = by_content_.find(std::string(out[i].text));
    if (found == by_content_.end()) continue;
    const TokenInfo& info = found->second;
    if (info.lstrip && i > 0) out[i - 1].text = trim_end(out[i - 1].text);
    if (info.rstrip && i + 1 < out.size()) out[i + 1].text = trim_start(out[i + 1].text);
  }
  std::size_t kept = 0;
  for (Section section : out) {
    if (section.text.empty()) continue;
    auto found = by_content_.find(std::string(section.text));
    section.is_added = found != by_content_.end();
    section.token = section.is_added ? found->second.id : 0;
    out[kept++] = section;
  }
  out.resize(kept);
}

}  // namespace glrmask
