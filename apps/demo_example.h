// What the demo runs on without any outside file: a JSON grammar in Lark syntax and a JSON
// document, both written for this project, plus a short Go program for the encoder figures.
#pragma once

#include <string_view>

namespace glrmask::app {

inline constexpr std::string_view kDemoGrammarName = "bundled-json.lark";

// JSON (RFC 8259) with Lark's common terminals; whitespace between tokens is ignored.
inline constexpr std::string_view kDemoGrammar = R"GRAMMAR(
?start: value

?value: object
      | array
      | STRING
      | SIGNED_NUMBER
      | "true" | "false" | "null"

object: "{" [member ("," member)*] "}"
member: STRING ":" value
array: "[" [value ("," value)*] "]"

STRING: ESCAPED_STRING
%import common.ESCAPED_STRING
%import common.SIGNED_NUMBER
%import common.WS
%ignore WS
)GRAMMAR";

inline constexpr std::string_view kDemoJsonName = "bundled-document.json";
inline constexpr std::string_view kDemoJson =
    R"JSON({"name": "glrmask", "version": [0, 1, 0], "grammars": ["go", "java", "sql", "json"],
 "latency_us": {"p50": 1.5, "p99.9": 42.0}, "exact": true, "notes": null,
 "unicode": "café – naïve – 東京 – ✓", "escapes": "tab\tquote\" \u00e9"})JSON";

inline constexpr std::string_view kDemoGo = R"EXAMPLE(package main

import (
	"fmt"
	"strings"
)

// wordFrequencies counts how often each lower-cased word occurs in text.
func wordFrequencies(text string) map[string]int {
	counts := make(map[string]int)
	for _, word := range strings.Fields(text) {
		counts[strings.ToLower(word)]++
	}
	return counts
}

func main() {
	freq := wordFrequencies("the quick brown fox jumps over the lazy dog; The END")
	for _, w := range []string{"the", "fox", "end"} {
		fmt.Printf("%-5s %d\n", w, freq[w])
	}
	if len(freq) >= 10 && freq["the"] != 0 {
		fmt.Println("...done")
	}
}
)EXAMPLE";

}  // namespace glrmask::app
