// One pair: triangle pairs (exact), containment by one vertex when surfaces do not meet, volume.
#include "collision/reference/pair_query.h"

namespace vkc::reference {

Result<PlacedMesh> PlacedMesh::create(const MeshData& mesh, const glm::dmat4& transform) {
    Result<WorldMesh> world = toWorld(mesh, transform);
    if (!world) return world.status();
    PlacedMesh placed;
    placed.world = std::move(world).value();
    placed.bounds = boundsOf(placed.world);
    Result<PointClassifier> classifier = PointClassifier::create(placed.world);
    if (classifier)
        placed.classifier = std::make_shared<const PointClassifier>(std::move(classifier).value());
    else
        placed.closedStatus = classifier.status();
    return placed;
}

namespace {

// Side of A's first vertex (of its first triangle) relative to closed B: inside or on boundary.
Result<bool> firstVertexInside(const PlacedMesh& a, const PlacedMesh& b) {
    if (a.world.indices.empty() || !b.closed()) return false;
    Result<PointSide> side = b.classifier->classify(a.world.positions[a.world.indices[0]]);
    if (!side) return side.status();
    return *side != PointSide::Outside;
}

}  // namespace

Result<PairResult> exactPair(const PlacedMesh& a, const PlacedMesh& b, const PairSettings& settings) {
    PairResult result;
    const bool bothClosed = a.closed() && b.closed();
    if (!a.bounds.overlaps(b.bounds)) {
        if (bothClosed && settings.computeVolume) result.volume = 0.0;
        return result;
    }
    Result<TrianglePairsResult> pairs = intersectingTrianglePairs(a.world, b.world);
    if (!pairs) return pairs.status();
    result.trianglePairCount = pairs->pairs.size();
    result.degenerateA = pairs->degenerateA;
    result.degenerateB = pairs->degenerateB;
    if (settings.keepTrianglePairs) result.trianglePairs = std::move(pairs->pairs);

    if (result.trianglePairCount == 0) {
        Result<bool> aInB = firstVertexInside(a, b);
        if (!aInB) return aInB.status();
        Result<bool> bInA = firstVertexInside(b, a);
        if (!bInA) return bInA.status();
        result.aInsideB = *aInB;
        result.bInsideA = *bInA;
    }
    result.interfering = result.trianglePairCount > 0 || result.aInsideB || result.bInsideA;

    if (!bothClosed) {
        const PlacedMesh& open = a.closed() ? b : a;
        result.warning = "no volume, and nothing counts as inside '" + open.world.name + "': " + open.closedStatus.message;
    } else if (settings.computeVolume) {
        if (!result.interfering) {
            result.volume = 0.0;
        } else {
            Result<double> volume = intersectionVolume(a.world, b.world, settings.volume);
            if (volume)
                result.volume = *volume;
            else
                result.warning = volume.status().describe();
        }
    }
    return result;
}

Result<PairResult> exactPair(const MeshData& meshA, const glm::dmat4& transformA, const MeshData& meshB,
                             const glm::dmat4& transformB, const PairSettings& settings) {
    Result<PlacedMesh> a = PlacedMesh::create(meshA, transformA);
    if (!a) return a.status();
    Result<PlacedMesh> b = PlacedMesh::create(meshB, transformB);
    if (!b) return b.status();
    return exactPair(*a, *b, settings);
}

Result<bool> interferes(const MeshData& meshA, const glm::dmat4& transformA, const MeshData& meshB,
                        const glm::dmat4& transformB) {
    PairSettings settings;
    settings.computeVolume = false;
    settings.keepTrianglePairs = false;
    Result<PairResult> result = exactPair(meshA, transformA, meshB, transformB, settings);
    if (!result) return result.status();
    return result->interfering;
}

}  // namespace vkc::reference
