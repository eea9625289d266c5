// Token terminals: grammar terminals matched by one token id, never by text (GBNF's `<[id]>` and
// `<think>`, the same spellings in Lark rules; docs/grammar.md, "Special tokens").
//
// The engines work on bytes, so a constraint with token terminals gives each token they name a
// spelling of its own that no text has: the byte 0xFF followed by the id in four big-endian bytes.
// No UTF-8 text contains 0xFF and every grammar's language is UTF-8, so only that token spells
// those bytes once the vocabulary's other tokens holding 0xFF are kept out of masks
// (Vocabulary::with_token_terminals). llama.cpp's grammar tests encode a token the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace glrmask {

inline constexpr unsigned char kTokenTerminalLead = 0xFF;
inline constexpr std::size_t kTokenTerminalSize = 5;  // the lead byte and the id

// The bytes that stand for token `id` in a constraint with token terminals.
std::string token_terminal_bytes(std::uint32_t id);

// The id a spelling `<[151657]>` names; nullopt for a name such as `<think>` (resolved against a
// vocabulary) or a malformed id.
std::optional<std::uint32_t> token_spelling_id(std::string_view spelling);

// `<[id]>`.
std::string token_id_spelling(std::uint32_t id);

}  // namespace glrmask
