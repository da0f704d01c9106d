// Mesh files → MeshData for the CLI, benchmarks and tests. OBJ (tinyobjloader), OFF, PLY and
// glTF (our own bounded readers) keep the file's own indexing, so soups, duplicates and
// unreferenced vertices stay visible to checkMesh; STL (own reader) is welded exactly, since it
// has no indexing. The readers take untrusted files: every count is checked against the file's
// size before allocating, nothing recurses without a depth limit, errors are one short line.
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/status.h"

#include <glm/vec3.hpp>

#include <cstddef>
#include <filesystem>
#include <vector>

namespace vkc::io {

// Loads every triangle of every mesh/object in the file into one MeshData (name = the path as
// given). Polygons become fans; points and lines are ignored; glTF node transforms are applied.
// Errors (ErrorCode::NotFound, IoError, Unsupported, InvalidMesh) name the file, and the line
// where the parser says it. Does not run checkMesh(): bad topology is the caller's to judge.
// Extensions: .obj, .off, .stl, .ply, .gltf, .glb (case-insensitive); see each reader's header
// (off_reader.h, ply_reader.h, stl_reader.h, gltf_reader.h) for what it accepts.
Result<MeshData> loadMesh(const std::filesystem::path& path);

// Loads the vertex positions of one deforming frame: a mesh file of the same topology whose
// positions replace the base mesh's, in the same order. Fails unless exactly `expectedCount`
// vertices are found (the message gives both counts).
Result<std::vector<glm::vec3>> loadVertexFile(const std::filesystem::path& path, size_t expectedCount);

}  // namespace vkc::io
