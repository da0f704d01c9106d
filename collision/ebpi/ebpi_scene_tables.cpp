// The scene-wide tables of an ebpi frame; see ebpi_scene_tables.h.
#include "collision/ebpi/ebpi_scene_tables.h"

#include "collision/ebpi/ebpi_mesh_edges.h"
#include "collision/frames/object_gpu.h"
#include "passes/ebpi/ebpi_image_passes.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>

namespace vkc {

namespace {

void refreshTopology(EbpiSceneCache& cache, const SceneImpl& scene) {
    if (cache.key == scene.topologyKey()) return;
    if (cache.key.sceneId != scene.id) {
        cache.meshes.clear();
        cache.edges.clear();
    }
    // Meshes are only ever appended: the new ones are added.
    for (size_t m = cache.meshes.size(); m < scene.meshes.size(); ++m) {
        const SceneMesh& mesh = scene.meshes[m];
        EbpiSceneCache::Mesh entry;
        entry.closed = requireVolumeMethods(mesh.report, mesh.data.name).ok();
        if (entry.closed) {
            const auto edges = ebpiMeshEdgesGpu(ebpiMeshEdges(mesh.data.indices), mesh.data.indices);
            entry.firstEdge = uint32_t(cache.edges.size());
            entry.edgeCount = uint32_t(edges.size());
            cache.edges.insert(cache.edges.end(), edges.begin(), edges.end());
        }
        cache.meshes.push_back(entry);
    }
    cache.key = scene.topologyKey();
}

void refreshBox(EbpiSceneCache::Mesh& entry, const SceneMesh& mesh) {
    if (entry.boxGeneration == mesh.deformedGeneration) return;
    entry.lo = glm::dvec3(INFINITY);
    entry.hi = glm::dvec3(-INFINITY);
    for (const glm::vec3& p : mesh.data.positions) {
        entry.lo = glm::min(entry.lo, glm::dvec3(p));
        entry.hi = glm::max(entry.hi, glm::dvec3(p));
    }
    entry.boxGeneration = mesh.deformedGeneration;
}

}  // namespace

Result<EbpiSceneTables> ebpiSceneTables(EbpiSceneCache& cache, const SceneImpl& scene, const SceneIndexCache& indices,
                                        VertexBufferSlots& vertexSlots) {
    refreshTopology(cache, scene);
    EbpiSceneTables out;
    out.objects.reserve(scene.objects.size());
    for (uint32_t i = 0; i < scene.objects.size(); ++i) {
        const SceneObject& object = scene.objects[i];
        const SceneMesh& mesh = scene.meshes[object.mesh];
        EbpiSceneCache::Mesh& entry = cache.meshes[object.mesh];
        auto vertexSlot = vertexSlots.slot(mesh.vertexBuffer, vertexExtentBytes(mesh), [&] { return objectLabel(scene, i); });
        if (!vertexSlot) return vertexSlot.status();
        gpu::EbpiSceneObjectGpu g{};
        const glm::dmat4& m = object.objectToWorld;
        g.row0 = glm::dvec4(m[0][0], m[1][0], m[2][0], m[3][0]);
        g.row1 = glm::dvec4(m[0][1], m[1][1], m[2][1], m[3][1]);
        g.row2 = glm::dvec4(m[0][2], m[1][2], m[2][2], m[3][2]);
        // Only where the CPU positions are what the GPU reads (not a rest pose the host deformed).
        if (mesh.ownsPositions() && !mesh.data.positions.empty()) {
            refreshBox(entry, mesh);
            g.hasLocalBox = 1;
            for (int k = 0; k < 3; ++k) {
                g.localLo[k] = entry.lo[k];
                g.localHi[k] = entry.hi[k];
            }
        }
        g.vertices = vertexSource(mesh, vertexSlot.value());
        g.closed = entry.closed ? 1u : 0u;
        g.firstIndex = indices.firstIndex[object.mesh];
        g.triangleCount = uint32_t(mesh.data.indices.size() / 3);
        g.firstEdge = entry.firstEdge;
        g.edgeCount = entry.edgeCount;
        out.objects.push_back(g);
        if (entry.closed) {
            out.mostTriangles = std::max(out.mostTriangles, g.triangleCount);
            out.mostEdges = std::max(out.mostEdges, g.edgeCount);
        }
    }
    return out;
}

}  // namespace vkc
