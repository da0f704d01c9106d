#include "tools/difftest/truth.h"

#include "collision/reference/intersection_volume.h"
#include "collision/reference/triangle_pairs.h"

#include <fcl/narrowphase/distance.h>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>

namespace vkc::difftest {

glm::dvec3 placePoint(const io::ObjectPose& pose, const glm::vec3& v) {
    // The same map as ObjectPose::matrix() (q * v equals mat3_cast(q) * v for any q), in double.
    const glm::dquat q(double(pose.rotation.w), double(pose.rotation.x), double(pose.rotation.y), double(pose.rotation.z));
    return glm::dvec3(pose.position) + q * (double(pose.scale) * glm::dvec3(v));
}

Result<TruthObject> placeObject(const MeshData& mesh, const io::ObjectPose& pose, bool wantClassifier) {
    if (mesh.indices.empty()) return makeError(ErrorCode::InvalidMesh, "mesh \"" + mesh.name + "\": no triangles");
    TruthObject object;
    object.world.name = mesh.name;
    object.world.indices = mesh.indices;
    object.world.positions.reserve(mesh.positions.size());
    for (const glm::vec3& v : mesh.positions) object.world.positions.push_back(placePoint(pose, v));
    object.bounds = reference::boundsOf(object.world);
    if (wantClassifier) {
        // An open mesh or soup gets none: it cannot contain anything.
        auto classifier = reference::PointClassifier::create(object.world);
        if (classifier) object.classifier = std::make_shared<const reference::PointClassifier>(std::move(classifier).value());
    }
    return object;
}

namespace {

// Steps of the march in overlapDepth: features thinner than 1/64 of the pair's reach may be skipped.
constexpr double kDepthMarchSteps = 64.0;

reference::WorldMesh translated(const reference::WorldMesh& mesh, const glm::dvec3& offset) {
    reference::WorldMesh moved = mesh;
    for (glm::dvec3& p : moved.positions) p += offset;
    return moved;
}

// Containment as the oracle's exactPair decides it: a first vertex on or inside the other solid.
Result<bool> contains(const TruthObject& outer, const glm::dvec3& point) {
    if (!outer.classifier) return false;
    auto side = outer.classifier->classify(point);
    if (!side) return side.status();
    return side.value() != reference::PointSide::Outside;
}

Result<bool> containedEither(const TruthObject& a, const TruthObject& b, const glm::dvec3& offset) {
    auto bInA = contains(a, b.world.positions[b.world.indices[0]] + offset);
    if (!bInA) return bInA;
    if (bInA.value()) return true;
    // b's classifier is built at its untranslated place: move a's vertex the other way instead.
    return contains(b, a.world.positions[a.world.indices[0]] - offset);
}

double sizeOf(const reference::WorldBounds& bounds) {
    const glm::dvec3 e = bounds.max - bounds.min;
    return std::max({e.x, e.y, e.z});
}

}  // namespace

Result<bool> interferesTranslated(const TruthObject& a, const TruthObject& b, const glm::dvec3& offset) {
    reference::WorldBounds moved = b.bounds;
    moved.min += offset;
    moved.max += offset;
    if (!a.bounds.overlaps(moved)) return false;
    auto pairs = reference::intersectingTrianglePairs(a.world, translated(b.world, offset));
    if (!pairs) return pairs.status();
    if (!pairs->pairs.empty()) return true;
    return containedEither(a, b, offset);
}

Result<std::vector<TruthPair>> truthPairs(const std::vector<TruthObject>& objects, bool volumes) {
    std::vector<TruthPair> out;
    for (uint32_t i = 0; i < objects.size(); ++i)
        for (uint32_t j = i + 1; j < objects.size(); ++j) {
            if (!objects[i].bounds.overlaps(objects[j].bounds)) continue;
            TruthPair pair;
            pair.a = i;
            pair.b = j;
            auto tris = reference::intersectingTrianglePairs(objects[i].world, objects[j].world);
            if (!tris) return tris.status();
            pair.trianglePairs = tris->pairs.size();
            pair.interfering = pair.trianglePairs > 0;
            if (!pair.interfering) {
                auto inside = containedEither(objects[i], objects[j], glm::dvec3(0.0));
                if (!inside) return inside.status();
                pair.interfering = inside.value();
            }
            if (volumes && pair.interfering && objects[i].classifier && objects[j].classifier) {
                auto volume = reference::intersectionVolume(objects[i].world, objects[j].world);
                if (volume) pair.volume = volume.value();
            } else if (volumes && objects[i].classifier && objects[j].classifier) {
                pair.volume = 0.0;
            }
            out.push_back(pair);
        }
    return out;
}

Result<double> overlapDepth(const TruthObject& a, const TruthObject& b, const glm::dvec3& direction) {
    auto now = interferesTranslated(a, b, glm::dvec3(0.0));
    if (!now) return now.status();
    if (!now.value()) return 0.0;
    // Beyond the sum of the box diagonals the boxes are disjoint along any direction. March back
    // from there to the first interfering step, so that a non-convex pair gets (up to features
    // finer than a step) its last touching position, then bisect that step.
    const double reach = glm::length(a.bounds.max - a.bounds.min) + glm::length(b.bounds.max - b.bounds.min);
    const double step = reach / kDepthMarchSteps;
    double hi = reach, lo = 0.0;
    for (double t = reach - step; t > 0.0; t -= step) {
        auto hit = interferesTranslated(a, b, t * direction);
        if (!hit) return hit.status();
        if (hit.value()) {
            lo = t;
            break;
        }
        hi = t;
    }
    const double tolerance = 1e-9 * std::max(sizeOf(a.bounds), sizeOf(b.bounds));
    while (hi - lo > tolerance) {
        const double mid = 0.5 * (lo + hi);
        auto hit = interferesTranslated(a, b, mid * direction);
        if (!hit) return hit.status();
        (hit.value() ? lo : hi) = mid;
    }
    return lo;
}

namespace {

std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> fclModel(const reference::WorldMesh& mesh) {
    std::vector<fcl::Vector3d> points;
    points.reserve(mesh.positions.size());
    for (const glm::dvec3& p : mesh.positions) points.emplace_back(p.x, p.y, p.z);
    std::vector<fcl::Triangle> triangles;
    for (size_t t = 0; t < mesh.triangleCount(); ++t)
        triangles.emplace_back(mesh.indices[3 * t], mesh.indices[3 * t + 1], mesh.indices[3 * t + 2]);
    auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
    model->beginModel();
    model->addSubModel(points, triangles);
    model->endModel();
    return model;
}

}  // namespace

double separationDistance(const TruthObject& a, const TruthObject& b) {
    fcl::CollisionObjectd objectA(fclModel(a.world));
    fcl::CollisionObjectd objectB(fclModel(b.world));
    fcl::DistanceRequestd request;
    request.enable_nearest_points = false;
    fcl::DistanceResultd result;
    fcl::distance(&objectA, &objectB, request, result);
    return std::max(0.0, result.min_distance);
}

}  // namespace vkc::difftest
