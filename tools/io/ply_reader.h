// A strict PLY reader for untrusted files (replaces assimp's, which segfaults on a damaged binary
// header and loops forever on a file without end_header). Keeps the file's indexing, so soups,
// duplicates and unreferenced vertices stay visible to checkMesh.
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/status.h"

#include <cstddef>
#include <filesystem>

namespace vkc::io {

// The header (with its end_header line) must fit in this many bytes; real headers take < 1 KiB.
constexpr size_t kMaxPlyHeaderBytes = 64 * 1024;

// PLY 1.0: ascii, binary_little_endian, binary_big_endian. Element "vertex" needs scalar x, y, z
// of any numeric type (converted to float; out-of-range values become ±inf for checkMesh to
// report). Element "face" gives polygons through an integer list named vertex_indices or
// vertex_index: fans of 3 or more corners, shorter lists skipped; negative indices become an
// index out of range (checkMesh reports it). Every other element and property is skipped by its
// declared type. ASCII files hold one element item per line, with exactly its values. Every
// count is checked against the bytes left before anything is allocated.
// Errors (ErrorCode::IoError): `mesh file "p": line N: ...` for the header and ASCII data,
// `mesh file "p": byte N: ...` for binary data, one short line each.
Result<MeshData> readPly(const std::filesystem::path& path);

}  // namespace vkc::io
