// Structural tags: free text with tagged segments, the shape of tool calls (docs/grammar.md,
// "Structural tags"). The front end of the source registry's format "structural_tag".
//
// The text is free text until a trigger (a string, or a token such as Qwen3's <tool_call>) ends
// in it; then the text goes on with the rest of the begin of a tag that starts with that
// trigger, the tag's content (a JSON Schema, a regex, a GBNF grammar or a fixed string), and the
// tag's end; then free text again. Free text is any UTF-8 text in which no string trigger occurs
// (a trigger's text is where a tag must begin), and no token. `at_least_one` asks for a tag
// before the text ends; `stop_after_first` ends the text with the first tag's end.
//
// The whole is one grammar read byte by byte (lexer/regex/byte_level_grammar.h), so that free
// text, begins, contents and ends never compete for a lexeme: the free text is the left-linear
// grammar of an automaton that follows every trigger (Aho-Corasick over bytes) and UTF-8, and
// each content the byte-level form of its own front end's grammar.
#pragma once

#include "api/src/constraint_source.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask {

// The grammar of a structural tag given as JSON in `source.text`, in XGrammar's shape:
//   {"type": "structural_tag", "format": {"type": "triggered_tags", "triggers": [...],
//    "tags": [{"begin": ..., "content": {...}, "end": ...}], "at_least_one": false,
//    "stop_after_first": false}}
// or the older {"type": "structural_tag", "structures": [{"begin", "schema", "end"}],
// "triggers": [...]}. Begins, ends and triggers are strings, {"token": "<tool_call>"} or
// {"token": 151657}, or (begins and ends) arrays of those. Throws glrmask::Error (kSchema) naming
// the JSON pointer of what it refuses.
GrammarModel build_structural_tag(const ConstraintSource& source);

}  // namespace glrmask
