// The compiled artifact: a CompiledMask (token sets, Terminal DWA, Parser DWA) written to one
// file that loads in milliseconds. `glrmask compile -o FILE` writes it; `glrmask mask --artifact
// FILE` and the library read it. Layout and load figures: docs/wfa.md, "Artifacts".
//
// The file names what it was built from by fingerprints, not by paths: the grammar (its Lark
// rendering, whatever front-end produced it: Lark, JSON Schema, regex) with its parse options, and
// the vocabulary's token bytes. Loading checks both against the grammar and vocabulary the caller
// has, plus the format version, the byte order and a checksum over the whole file, so an artifact
// of another grammar or tokenizer, of another build of the construction, or a truncated or corrupt
// file is refused with an error that says which.
//
// Why loading is fast: the file is mapped, and the token sets — nearly all of its bytes — are
// CRoaring frozen images that the loaded pool reads in place (lib/token_set/frozen.h), numbered
// as the pool numbers them, so nothing is decoded, hashed or renumbered. What a load does per
// byte is the checksum and the well-formedness check of each set (a damaged set behind a valid
// checksum is refused, not read). Only the token sets the automata use are stored (the compile
// pool holds many intermediates); the loaded pool is the whole pool of the loaded CompiledMask.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "glr/compiled_grammar.h"
#include "lib/tokenizer/vocabulary.h"
#include "wfa/compiled_mask.h"

namespace glrmask::wfa {

// Bump when the construction or the layout changes: older artifacts are then refused.
inline constexpr std::uint32_t kMaskArtifactVersion = 6;

std::uint64_t grammar_fingerprint(const glr::CompiledGrammar& grammar);
std::uint64_t vocabulary_fingerprint(const Vocabulary& vocabulary);

// Writes the artifact and returns its size in bytes. The file is written under a temporary name
// beside `path` and renamed over it, so artifacts loaded from `path` stay intact. Throws
// glrmask::Error naming the path when it cannot be written.
std::size_t write_mask_artifact(const CompiledMask& compiled, const Vocabulary& vocabulary,
                                const std::filesystem::path& path);

// Reads an artifact for `grammar` and `vocabulary`, which must outlive the result's use. The
// result keeps the file mapped (read-only) for its lifetime: replace an artifact by writing a new
// file and renaming it (as write_mask_artifact does), never by rewriting it in place. Throws
// glrmask::Error naming the path, and the byte offset where it applies, for a missing,
// truncated, corrupt, mismatched or outdated artifact or a malformed token set.
std::shared_ptr<const CompiledMask> read_mask_artifact(
    const std::filesystem::path& path, std::shared_ptr<const glr::CompiledGrammar> grammar,
    const Vocabulary& vocabulary);

}  // namespace glrmask::wfa
