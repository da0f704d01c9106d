// A scene: meshes (from CPU arrays, uploaded once, or read in place from the host's vertex
// buffers) and objects (a mesh under a rigid transform with optional uniform scale). Detectors
// read it when they record; changing transforms between frames costs nothing on the GPU.
// Transforms are kept in double precision: every GPU method works in coordinates relative to the
// pair or region it looks at, so a small object far from the world origin keeps its shape.
// Lifetime: a Scene must not outlive its Context, and must outlive every frame recorded from it.
#pragma once

#include "vkcollide/context.h"
#include "vkcollide/mesh.h"
#include "vkcollide/mesh_checks.h"
#include "vkcollide/status.h"
#include "vkcollide/vulkan_types.h"

#include <glm/mat4x4.hpp>
#include <glm/ext/matrix_double4x4.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace vkc {

using MeshId = uint32_t;
using ObjectId = uint32_t;  // = the object's index, in the order objects were added

// The transforms a scene accepts: rotation times a uniform scale in [kMinObjectScale,
// kMaxObjectScale], plus a translation of at most kMaxObjectTranslation per axis. Mirrors, shears
// and non-uniform scales are refused (image-space methods need outward-facing triangles, and
// normals that transform by the matrix's rotation).
inline constexpr double kMinObjectScale = 1e-6;
inline constexpr double kMaxObjectScale = 1e6;
inline constexpr double kMaxObjectTranslation = 1e8;
// And an object's size (scale times its mesh's largest bounding-box side) is at least this
// fraction of its distance from the origin (largest |translation| component plus its mesh's reach):
// world boxes are float, whose steps there are up to 1.2e-7 of it. Measured on two overlapping
// 1 mm spheres: every method right at 1e4 and 3e4 from the origin, ldi's bound 2.4 times the
// volume at 1e5, stencil undecided at 1e6; at 3e12 times their size three methods answered
// "no pair" without a word (issue 15).
inline constexpr double kMinObjectSizeToDistance = 5e-8;

// Where a mesh's vertices come from. `data` is required either way: its indices (and rest
// positions) are the topology every method and the mesh checks use.
struct MeshDesc {
    const char* name = nullptr;        // for messages and debug names; required
    const MeshData* data = nullptr;    // positions + indices; copied, need not outlive the call
    // Optional: read positions in place from the host's buffer instead of uploading data->positions.
    // The buffer needs VK_BUFFER_USAGE_STORAGE_BUFFER_BIT; positions are three floats at the start
    // of each vertex; the host keeps it alive and writes it before the frames that read it. It may
    // be of any size (an engine's shared buffer): it is bound from its start as far as its meshes
    // reach, and each mesh's last vertex must lie within one storage-buffer binding's reach of the
    // start (maxStorageBufferRange), else addMesh says Unsupported with the bytes.
    VkBuffer hostVertexBuffer = {};
    VkDeviceSize hostVertexOffset = 0; // bytes, multiple of 4
    uint32_t hostVertexStride = 0;     // bytes, multiple of 4 and >= 12; 0: tightly packed
    // The host rewrites the buffer every frame (a skinning or cloth pass): every detector treats
    // the mesh as deformed in every frame, so no markDeformed call can be forgotten. Needs
    // hostVertexBuffer.
    bool deformedEveryFrame = false;
};

struct SceneImpl;  // collision/scene/scene_impl.h

class Scene {
public:
    // Meshes are checked against `requirements` when added (see mesh_checks.h): image-space and
    // volume methods need kVolumeMethodRequirements, the AABB tree and the oracle accept open meshes.
    static Result<Scene> create(Context& context,
                                const MeshRequirements& requirements = kObjectSpaceMethodRequirements);

    Scene(Scene&&) noexcept;
    Scene& operator=(Scene&&) noexcept;
    ~Scene();

    // Runs the mesh checks; InvalidMesh names the mesh and every problem. Uploads CPU positions
    // (blocking, once) unless the host's buffer is given, packed with the scene's other meshes
    // into vertex pages (1 MiB, doubling up to 64 MiB): any number of uploaded meshes binds a few
    // buffers, while each distinct host buffer is one element of a frame's vertex-buffer array
    // (bounded only by the device's storage-buffer limits).
    Result<MeshId> addMesh(const MeshDesc& desc);
    // InvalidArgument for an unknown mesh, or a transform that is not finite or outside the
    // accepted transforms above (the message names the object and the problem). A float matrix
    // converts implicitly; pass double for objects far from the origin.
    Result<ObjectId> addObject(MeshId mesh, const glm::dmat4& objectToWorld, std::string name = {});
    Status setTransform(ObjectId object, const glm::dmat4& objectToWorld);
    // Replaces a CPU mesh's positions (same count; blocking upload, for tools and tests). Meshes read
    // from the host's buffers deform by the host writing them: call markDeformed instead.
    Status updateVertices(MeshId mesh, std::span<const glm::vec3> positions);
    // Tells detectors that cache per-mesh data (e.g. trees) that the vertices changed this frame;
    // needed for a host buffer the host wrote, unless its mesh was added deformedEveryFrame.
    void markDeformed(MeshId mesh);

    uint32_t meshCount() const;
    uint32_t objectCount() const;
    const MeshData& mesh(MeshId mesh) const;
    const MeshCheckReport& meshReport(MeshId mesh) const;
    MeshId objectMesh(ObjectId object) const;
    const glm::dmat4& transform(ObjectId object) const;
    const std::string& objectName(ObjectId object) const;

private:
    friend struct SceneAccess;  // the library's internals (collision/scene/scene_impl.h)
    explicit Scene(std::unique_ptr<SceneImpl> impl);
    std::unique_ptr<SceneImpl> impl_;
};

}  // namespace vkc
