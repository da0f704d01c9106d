// The campaign's independent truth: world meshes placed in double precision from the scene
// file's pose values (not through Scene or ObjectPose::matrix(), whose float products are what
// the campaign checks), then the exact oracle of collision/reference on them (triangle pairs,
// containment, intersection volume), FCL for separation distances, and directional overlap depth.
#pragma once

#include "collision/reference/point_classifier.h"
#include "collision/reference/world_mesh.h"
#include "tools/io/scene_file.h"

#include <glm/vec3.hpp>

#include <memory>
#include <optional>
#include <vector>

namespace vkc::difftest {

// One object of one frame in world space.
struct TruthObject {
    reference::WorldMesh world;
    reference::WorldBounds bounds;
    std::shared_ptr<const reference::PointClassifier> classifier;  // closed meshes only
};

struct TruthPair {
    uint32_t a = 0, b = 0;
    bool interfering = false;      // surfaces share a point, or one solid contains the other
    uint64_t trianglePairs = 0;    // exact count
    std::optional<double> volume;  // both closed and CGAL succeeded
};

// world = position + rotation * (scale * v), all in double from the pose's float values.
glm::dvec3 placePoint(const io::ObjectPose& pose, const glm::vec3& v);
// `wantClassifier`: build the point classifier when the mesh is a closed solid.
Result<TruthObject> placeObject(const MeshData& mesh, const io::ObjectPose& pose, bool wantClassifier);

// Every pair whose closed world boxes overlap, with the exact answer; volumes when `volumes`.
Result<std::vector<TruthPair>> truthPairs(const std::vector<TruthObject>& objects, bool volumes);

// Whether `a` and `b` translated by `offset` interfere (touching counts), exactly.
Result<bool> interferesTranslated(const TruthObject& a, const TruthObject& b, const glm::dvec3& offset);

// Overlap depth along unit `direction`: the distance b must move along it until it no longer
// interferes with a: a march back from where the boxes are apart to the first interfering step
// (1/64 of the pair's size), then bisection to 1e-9 of the objects' size. A non-convex pair with a
// feature thinner than a step may get an earlier touching position, which makes the depth
// smaller and the found clause more lenient. 0 when they do not interfere. The depth along one
// direction is at least the penetration depth (the minimum over directions).
Result<double> overlapDepth(const TruthObject& a, const TruthObject& b, const glm::dvec3& direction);

// Euclidean distance between the two surfaces (FCL, double); 0 when they touch.
double separationDistance(const TruthObject& a, const TruthObject& b);

}  // namespace vkc::difftest
