// glrmask: exact grammar-constrained decoding for LLMs. The whole C++ API:
//
//   auto tokenizer = glrmask::Tokenizer::load("path/to/tokenizer.json");
//   auto constraint = glrmask::Constraint::from_json_schema(schema_text, tokenizer);
//   glrmask::Matcher matcher(constraint);
//   std::vector<std::int32_t> row(tokenizer.bitmask_words());
//   while (!matcher.is_terminated()) {
//     matcher.fill_next_token_bitmask(row);
//     ... mask the logits with row, sample `token` ...
//     matcher.accept_token(token);
//   }
//
// docs/api.md has a complete example, the C ABI (glrmask/glrmask.h) and the Python module.
#pragma once

#include "glrmask/compiler.hpp"
#include "glrmask/constraint.hpp"
#include "glrmask/error.hpp"
#include "glrmask/grammar.hpp"
#include "glrmask/matcher.hpp"
#include "glrmask/tokenizer.hpp"
#include "glrmask/version.hpp"
