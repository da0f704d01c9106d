// A small OFF reader that keeps the file's indexing and reports the line of any error. Replaces
// assimp for OFF: assimp 5.2 reads truncated OFF files into garbage faces (and its triangulation
// step then hits an ai_assert abort), and its messages carry no line numbers.
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/status.h"

#include <filesystem>

namespace vkc::io {

// ASCII OFF (also COFF/NOFF/CNOFF headers: extra per-vertex/per-face values are ignored), with
// '#' comments. Coordinates out of float range (1e39) become ±inf and "nan" NaN, for checkMesh
// to report. Polygons become fans; negative indices are errors, too-large ones are kept for
// checkMesh to report. The counts are checked against the bytes after them (6 a vertex, 2 a face
// at least) before anything is allocated. Errors: `mesh file "p": line N: ...` (ErrorCode::IoError).
Result<MeshData> readOff(const std::filesystem::path& path);

}  // namespace vkc::io
