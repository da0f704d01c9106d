// CPU-side helpers of AabbTreeDetector: the object-space root box a pair's box-test slack is
// derived from when a mesh has deformed since its tree was built.
// Invariant: the slack box always bounds the positions the GPU refit will see (or, for meshes
// deformed in the host's buffers, a documented allowance around the rest box).
#pragma once

#include "collision/aabb_tree/aabb_tree.h"
#include "collision/scene/scene_impl.h"


namespace vkc {

// Object-space box of the mesh's CPU positions (min/max; empty mesh: zero box).
gpu::AabbNodeGpu positionsBox(const MeshData& mesh);

// The box the box-test slack of `mesh` is computed from: the tree's root while the mesh has not
// deformed; the CPU positions' box for meshes deformed through Scene::updateVertices (the CPU
// copy is current); for meshes deformed in the host's buffers (markDeformed) the CPU cannot see
// the positions, so the rest root box grown by its own extent on every side (deformations up to
// one mesh size keep their magnitudes within it; the slack is 1e-5 relative, so this costs nothing).
gpu::AabbNodeGpu slackBox(const SceneMesh& mesh, const AabbTree& tree, uint64_t builtGeneration);

}  // namespace vkc
