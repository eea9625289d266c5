// The bundled example the demo tokenizes: a short Go program and a JSON document written for this
// project, so the demo runs without the shared data folder.
#pragma once

#include <string_view>

namespace glrmask::app {

inline constexpr std::string_view kDemoExample = R"EXAMPLE(package main

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

{"name": "glrmask", "version": [0, 1, 0], "grammars": ["go", "java", "sql", "json"],
 "latency_us": {"p50": 1.5, "p99.9": 42.0}, "exact": true, "notes": null,
 "unicode": "café – naïve – 東京 – ✓"}
)EXAMPLE";

}  // namespace glrmask::app
