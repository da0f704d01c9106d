// The state behind vkc::Scene that detectors record from: mesh positions on the GPU (the host's
// buffers, or ours packed into a few vertex pages) and per-object transforms.
#pragma once

#include "vk/buffer.h"
#include "vk/context.h"
#include "vkcollide/scene.h"

#include <memory>
#include <string>
#include <vector>

namespace vkc {

struct SceneMesh {
    MeshData data;                  // CPU copy: topology for every method, positions for the oracle
    MeshCheckReport report;
    int32_t vertexPage = -1;        // SceneImpl::vertexPages index of our copy; -1: read from the host
    VkBuffer vertexBuffer = VK_NULL_HANDLE;  // what shaders read: our vertex page or the host's buffer
    uint32_t vertexOffsetFloats = 0;
    uint32_t vertexStrideFloats = 3;
    uint64_t deformedGeneration = 0;  // bumped by markDeformed / updateVertices
    bool deformedEveryFrame = false;  // MeshDesc::deformedEveryFrame: as if marked deformed every frame

    // Whether the CPU positions are what the GPU reads (our copy), not a rest pose the host may
    // have deformed since.
    bool ownsPositions() const { return vertexPage >= 0; }
    // Whether the CPU positions are what the GPU draws this frame: our copy, or the host's buffer as
    // it was given (never marked deformed, not rewritten every frame).
    bool cpuPositionsCurrent() const { return ownsPositions() || (deformedGeneration == 0 && !deformedEveryFrame); }
};

struct SceneObject {
    MeshId mesh = 0;
    glm::dmat4 objectToWorld{1.0};  // checked by checkObjectTransform
    std::string name;
};

// Which topology a detector's cache was built from. Meshes are only ever appended and their
// indices never change, so a scene and its mesh count identify every index exactly; the scene is
// named by a process-unique id, not its address, which a later scene may reuse.
struct SceneTopologyKey {
    uint64_t sceneId = 0;  // 0: nothing cached
    size_t meshCount = 0;
    friend bool operator==(const SceneTopologyKey&, const SceneTopologyKey&) = default;
};

// Our copies of CPU meshes' positions, packed: many meshes share one buffer, so a scene of
// thousands of meshes binds a few buffers (the detectors' descriptor arrays hold 64), not one per
// mesh. A page is bound whole, so it never exceeds the device's maxStorageBufferRange.
struct VertexPage {
    Buffer buffer;
    VkDeviceSize used = 0;  // bytes, from the start; meshes are appended
};

class SceneSelfIntersections;

struct SceneImpl {
    VulkanContext* ctx = nullptr;
    uint64_t id = 0;  // unique per Scene::create in this process, from 1
    MeshRequirements requirements;
    std::vector<VertexPage> vertexPages;
    std::vector<SceneMesh> meshes;
    std::vector<SceneObject> objects;
    // Per-mesh verdicts over `meshes` (mesh_self_intersections.h); frames keep it weakly.
    std::shared_ptr<SceneSelfIntersections> selfIntersections;

    SceneTopologyKey topologyKey() const { return {id, meshes.size()}; }
    ~SceneImpl();
};

// How messages name a scene object: `object 3 "name" (mesh "x")`.
std::string objectLabel(const SceneImpl& scene, uint32_t object);

// InvalidMesh naming `method`, the object, its mesh and what the checks found, unless the object's
// mesh is a closed, manifold, outward-oriented solid (what the volume methods need).
Status requireClosedSolid(const SceneImpl& scene, uint32_t object, const char* method);

// The library's way into a Scene (its public header holds the contract only).
struct SceneAccess {
    static SceneImpl& impl(const Scene& scene) { return *scene.impl_; }
};
inline SceneImpl& sceneImplOf(const Scene& scene) { return SceneAccess::impl(scene); }

}  // namespace vkc
