// Jump-forward: the bytes every completion of a text starts with, so a server can append them
// without sampling.
//
// The forced string of a viable text t is the longest common prefix of all its completions (the
// strings c with t·c a sentence). It is built one byte at a time: while t is not itself a
// sentence (else the empty completion makes the prefix empty) and exactly one byte b keeps t·b
// viable, b is forced and t becomes t·b. This is exact because viability is exact (the session's
// test, docs/glr.md): every completion of t begins with a viable byte, so if only b is viable,
// every completion begins with b; if two are, completions part there.
//
// Bytes of one lexer byte class (lexer/runtime/byte_classes.h) move every lexer state alike, so
// they are viable together: one representative per class is tried, and a viable class of two or
// more bytes ends the string. With a post-lexer (Python's indenter reads the widths of blanks,
// which a class may mix) every byte is tried.
#pragma once

#include <cstddef>
#include <string>

#include "api/src/constraint_impl.h"
#include "glr/session.h"

namespace glrmask {

// The forced string after `session`'s text, at most `max_bytes` long (it is finite: unproductive
// rules are removed, so some completion is finite, and the string is a prefix of it; the bound
// only caps the work).
std::string forced_continuation(const Constraint::Impl& constraint, const glr::Session& session,
                                std::size_t max_bytes);

}  // namespace glrmask
