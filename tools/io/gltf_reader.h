// A bounded glTF 2.0 reader (.gltf and .glb) for untrusted files, replacing assimp's, whose node
// recursion overflows the stack on a deep hierarchy and whose sparse accessors overread the heap.
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/status.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace vkc::io {

// Node hierarchies deeper than this are refused (real scenes, skeletons included, stay < 100).
constexpr size_t kMaxGltfNodeDepth = 256;
// Instancing multiplies a small file's geometry (nodes x mesh size): more triangles or vertices
// than these after instancing are refused (24x the largest shared test mesh; ~1.6 GB at most).
constexpr uint64_t kMaxGltfTriangles = uint64_t(1) << 25;
constexpr uint64_t kMaxGltfVertices = 3 * kMaxGltfTriangles;

// Every triangle primitive (modes 4, 5, 6; points and lines skipped) of every mesh the default
// scene's nodes place, with node transforms applied (a mirroring transform keeps triangles
// facing outward); meshes no node places are taken untransformed. POSITION must be VEC3 float;
// indices unsigned byte/short/int, out-of-range ones kept out of range for checkMesh. Buffers:
// GLB's BIN chunk, base64 data URIs, or regular files beside the .gltf. The JSON is checked for
// nesting before parsing; the node hierarchy is walked without recursion, each node at most once
// (a cycle or a second parent is an error); every accessor and bufferView range is checked
// against its buffer; sparse accessors, accessors without a bufferView and files that require an
// extension (Draco, meshopt, quantization) are refused.
// Errors (ErrorCode::IoError): `mesh file "p": accessors[3]: ...`, one short line.
Result<MeshData> readGltf(const std::filesystem::path& path);

}  // namespace vkc::io
