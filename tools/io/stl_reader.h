// A strict STL reader (ascii and binary) for untrusted files. STL stores each facet's three
// corners and nothing else, so the result is a soup: loadMesh welds it (weldExactDuplicates).
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/status.h"

#include <filesystem>

namespace vkc::io {

// Binary when the size is 84 + 50 n for the n at byte 80 (binary files may start with "solid"
// too), ASCII when the file starts with "solid" and holds no NUL byte, else binary, whose size
// must then match.
// ASCII: solid / facet normal / outer loop / exactly 3 vertex lines / endloop / endfacet /
// endsolid, several solids allowed; numbers parsed strictly, out-of-range ones (1e39) become
// ±inf and "nan" NaN, for checkMesh to report. Triangle i has vertices 3i, 3i+1, 3i+2.
// Errors (ErrorCode::IoError): `mesh file "p": line N: ...` or `mesh file "p": binary STL: ...`.
Result<MeshData> readStl(const std::filesystem::path& path);

}  // namespace vkc::io
