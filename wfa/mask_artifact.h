// The compiled artifact: a CompiledMask (token sets, Terminal DWA, Parser DWA) written to one
// file that loads in milliseconds. `glrmask compile -o FILE` writes it; `glrmask mask --artifact
// FILE` and the library read it.
//
// The file names what it was built from by fingerprints, not by paths: the grammar (its Lark
// rendering, whatever front-end produced it: Lark, JSON Schema, regex) with its parse options, and
// the vocabulary's token bytes. Loading checks both against the
// grammar and vocabulary the caller has, plus the format version, the byte order and a checksum
// over the whole file, so an artifact of another grammar or tokenizer, of another build of the
// construction, or a truncated or corrupt file is refused with an error that says which.
// Only the token sets the automata use are stored (the compile pool holds many intermediates).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "glr/compiled_grammar.h"
#include "lib/vocabulary.h"
#include "wfa/compiled_mask.h"

namespace glrmask::wfa {

// Bump when the construction or the layout changes: older artifacts are then refused.
inline constexpr std::uint32_t kMaskArtifactVersion = 2;

std::uint64_t grammar_fingerprint(const glr::CompiledGrammar& grammar);
std::uint64_t vocabulary_fingerprint(const Vocabulary& vocabulary);

// Writes the artifact and returns its size in bytes. Throws glrmask::Error naming the path when
// it cannot be written.
std::size_t write_mask_artifact(const CompiledMask& compiled, const Vocabulary& vocabulary,
                                const std::filesystem::path& path);

// Reads an artifact for `grammar` and `vocabulary`, which must outlive the result's use. Throws
// glrmask::Error naming the path, and the byte offset where it applies, for a missing,
// truncated, corrupt, mismatched or outdated artifact.
std::shared_ptr<const CompiledMask> read_mask_artifact(
    const std::filesystem::path& path, std::shared_ptr<const glr::CompiledGrammar> grammar,
    const Vocabulary& vocabulary);

}  // namespace glrmask::wfa
