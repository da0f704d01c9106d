// Warnings a frame carries about its inputs, found when it is recorded and added to its results by
// every detector alike: today, meshes with degenerate triangles (zero area, or a vertex named
// twice). checkMesh counts them and `check-mesh` reports them; a detector draws or tests them as
// they are, while the exact oracle skips them, so its answer may differ there without a word.
#pragma once

#include "collision/frames/detector_frames.h"
#include "collision/scene/scene_impl.h"

#include <span>
#include <string>
#include <vector>

namespace vkc {

// Keeps, with `frame`'s slot, one warning per mesh of `pairs`' objects that has degenerate
// triangles: "<method>: mesh "name" has N degenerate triangles (first: triangle T) ...".
void noteFrameInputs(DetectorFrames& frames, uint64_t frame, const SceneImpl& scene,
                     std::span<const ObjectPair> pairs, const char* method);

// Appends `frame`'s kept warnings to `out`.
void appendFrameWarnings(const DetectorFrames& frames, uint64_t frame, std::vector<std::string>& out);

}  // namespace vkc
