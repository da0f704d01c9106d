// Warnings a frame carries about its inputs, found when it is recorded and added to its results by
// every detector alike: today, meshes with degenerate triangles (zero area, or a vertex named
// twice). checkMesh counts them and `check-mesh` reports them; a detector draws or tests them as
// they are, while the exact oracle skips them, so its answer may differ there without a word.
// Which meshes a frame tested is known only with its results when the GPU chose the pairs, so the
// warnings are kept per mesh at record time and picked for the tested pairs at results time.
#pragma once

#include "collision/frames/detector_frames.h"
#include "collision/scene/scene_impl.h"
#include "vkcollide/results.h"

#include <span>
#include <string>
#include <vector>

namespace vkc {

// Keeps, with `frame`'s slot, which mesh each object uses and one warning per mesh with degenerate
// triangles ("<method>: mesh "name" has N degenerate triangles (first: triangle T) ...").
void noteFrameInputs(DetectorFrames& frames, uint64_t frame, const SceneImpl& scene, const char* method);

// Appends `frame`'s kept warnings of the meshes of the tested `pairs`' objects, each once.
void appendFrameWarnings(const DetectorFrames& frames, uint64_t frame, std::span<const ObjectPair> pairs,
                         std::vector<std::string>& out);

// "(a, b)", as warnings name a pair.
std::string pairName(uint32_t a, uint32_t b);

// What a GPU-driven frame's pair setup counted but could not test (a host's candidates are refused
// by record() instead).
struct UntestedPairs {
    uint32_t listed = 0, listCapacity = 0;              // the broadphase list's exact count, what it holds
    uint32_t open = 0, firstOpenA = 0, firstOpenB = 0;  // candidates with an open mesh, the smallest
    uint32_t eligible = 0, tested = 0;                  // pairs the method would test; those it did
};
// A warning for each, and `truncated`: "<method>: the broadphase found N candidate pairs, more than
// its list holds (C): ...", "<method>: N candidate pairs (one is (a, b)) have an object that is not
// a closed, oriented solid: not tested", "<method>: N <eligibleWhat>, more than <settings>::maxPairs
// (M): K not tested". Returns whether the last one was given.
bool reportUntestedPairs(const std::string& method, const char* eligibleWhat, const char* settings, uint32_t maxPairs,
                         const UntestedPairs& pairs, FrameResults& out);

}  // namespace vkc
