// vkc::Scene: mesh registration (checks, upload or adoption of the host's buffer) and objects.
#include "collision/scene/scene_impl.h"

#include "collision/frames/format_number.h"
#include "collision/scene/mesh_self_intersections.h"
#include "collision/scene/object_transform.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

namespace vkc {

SceneImpl::~SceneImpl() {
    for (VertexPage& page : vertexPages) destroyBuffer(*ctx, page.buffer);
}

Scene::Scene(std::unique_ptr<SceneImpl> impl) : impl_(std::move(impl)) {}
Scene::Scene(Scene&&) noexcept = default;
Scene& Scene::operator=(Scene&&) noexcept = default;
Scene::~Scene() = default;

Result<Scene> Scene::create(Context& context, const MeshRequirements& requirements) {
    if (!context.valid()) return makeError(ErrorCode::InvalidArgument, "Scene::create: context is not valid");
    static std::atomic<uint64_t> nextId{1};
    auto impl = std::make_unique<SceneImpl>();
    impl->ctx = &vulkanOf(context);
    impl->id = nextId++;
    impl->requirements = requirements;
    impl->selfIntersections = std::make_shared<SceneSelfIntersections>(impl->meshes);
    return Scene(std::move(impl));
}

namespace {

// The first vertex page holds 1 MiB, each next one twice the last, up to 64 MiB (and to what one
// binding reaches): small scenes stay small, large ones bind a few pages. A mesh larger than a
// page gets a page of its own size.
constexpr VkDeviceSize kFirstVertexPageBytes = VkDeviceSize(1) << 20;
constexpr VkDeviceSize kMaxVertexPageBytes = VkDeviceSize(64) << 20;

Status uploadPositions(SceneImpl& scene, const SceneMesh& mesh, std::span<const glm::vec3> positions) {
    return uploadBuffer(*scene.ctx, scene.vertexPages[mesh.vertexPage].buffer, positions.data(), positions.size_bytes(),
                        VkDeviceSize(mesh.vertexOffsetFloats) * sizeof(float));
}

// Places `bytes` of positions at the end of the last vertex page, or of a new one when they do not
// fit; sets the mesh's page, buffer and offset.
Status placePositions(SceneImpl& scene, SceneMesh& mesh, VkDeviceSize bytes) {
    if (scene.vertexPages.empty() || scene.vertexPages.back().used + bytes > scene.vertexPages.back().buffer.size) {
        const VkDeviceSize reach = scene.ctx->properties.limits.maxStorageBufferRange;
        const VkDeviceSize grown = scene.vertexPages.empty() ? kFirstVertexPageBytes
                                                            : 2 * scene.vertexPages.back().buffer.size;
        const VkDeviceSize capacity = std::max(bytes, std::min({grown, kMaxVertexPageBytes, reach}));
        const std::string name = "scene vertex page " + std::to_string(scene.vertexPages.size());
        auto buffer = createBuffer(*scene.ctx, {capacity, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                                MemoryUsage::DeviceLocal, name.c_str()});
        if (!buffer) return buffer.status();
        scene.vertexPages.push_back({buffer.value(), 0});
    }
    VertexPage& page = scene.vertexPages.back();
    mesh.vertexPage = int32_t(scene.vertexPages.size() - 1);
    mesh.vertexBuffer = page.buffer.buffer;
    mesh.vertexOffsetFloats = uint32_t(page.used / sizeof(float));
    page.used += bytes;
    return Status::success();
}

// Every method binds a mesh's positions and indices as storage buffers: each must fit one binding.
Status checkBindingReach(const VulkanContext& ctx, const MeshData& mesh, const std::string& name) {
    const VkDeviceSize reach = storageBindingLimit(ctx);
    const VkDeviceSize positionBytes = mesh.positions.size() * sizeof(glm::vec3);
    const VkDeviceSize indexBytes = mesh.indices.size() * sizeof(uint32_t);
    if (positionBytes <= reach && indexBytes <= reach) return Status::success();
    const bool positions = positionBytes > reach;
    return makeError(ErrorCode::Unsupported,
                     "mesh \"" + name + "\": its " +
                         (positions ? std::to_string(mesh.positions.size()) + " vertices need " +
                                          std::to_string(positionBytes)
                                    : std::to_string(mesh.indices.size() / 3) + " triangles need " +
                                          std::to_string(indexBytes)) +
                         " bytes, more than one storage buffer binding reaches on this device (maxStorageBufferRange " +
                         std::to_string(reach) + ")");
}

}  // namespace

Result<MeshId> Scene::addMesh(const MeshDesc& desc) {
    if (!desc.name || !*desc.name) return makeError(ErrorCode::InvalidArgument, "Scene::addMesh: a mesh needs a name");
    std::string name = desc.name;
    if (!desc.data) return makeError(ErrorCode::InvalidArgument, "mesh \"" + name + "\": no MeshData given");
    SceneMesh mesh;
    mesh.data = *desc.data;
    mesh.data.name = name;
    mesh.report = checkMesh(mesh.data);
    VKC_TRY(requireMesh(mesh.report, impl_->requirements, name));
    VKC_TRY(checkBindingReach(*impl_->ctx, mesh.data, name));

    if (desc.deformedEveryFrame && desc.hostVertexBuffer == VK_NULL_HANDLE)
        return makeError(ErrorCode::InvalidArgument, "mesh \"" + name +
                                                         "\": deformedEveryFrame needs the host's vertex buffer "
                                                         "(uploaded meshes change only through updateVertices)");
    mesh.deformedEveryFrame = desc.deformedEveryFrame;
    if (desc.hostVertexBuffer != VK_NULL_HANDLE) {
        uint32_t stride = desc.hostVertexStride ? desc.hostVertexStride : 12;
        if (desc.hostVertexOffset % 4 != 0 || stride % 4 != 0 || stride < 12)
            return makeError(ErrorCode::InvalidArgument,
                             "mesh \"" + name + "\": host vertex offset and stride must be multiples of 4 bytes, "
                             "stride at least 12 (got offset " + std::to_string(desc.hostVertexOffset) +
                             ", stride " + std::to_string(stride) + ")");
        // Bound from the buffer's start as far as the mesh reaches (the buffer may be larger).
        const VkDeviceSize count = mesh.data.positions.size();
        const VkDeviceSize reach = desc.hostVertexOffset + (count == 0 ? 4 : (count - 1) * stride + 12);
        const VkDeviceSize bindingLimit = storageBindingLimit(*impl_->ctx);
        if (reach > bindingLimit)
            return makeError(ErrorCode::Unsupported,
                             "mesh \"" + name + "\": its vertices reach " + std::to_string(reach) +
                                 " bytes into the host's buffer (offset " + std::to_string(desc.hostVertexOffset) +
                                 ", stride " + std::to_string(stride) + "), beyond the " + std::to_string(bindingLimit) +
                                 " bytes one storage-buffer binding reaches from its start on this device "
                                 "(maxStorageBufferRange): place them nearer its start or in a buffer of their own");
        mesh.vertexBuffer = desc.hostVertexBuffer;
        mesh.vertexOffsetFloats = uint32_t(desc.hostVertexOffset / 4);
        mesh.vertexStrideFloats = stride / 4;
    } else {
        const VkDeviceSize bytes = mesh.data.positions.size() * sizeof(glm::vec3);
        VKC_TRY(placePositions(*impl_, mesh, bytes));
        // A failed upload leaves its bytes unused in the page; the mesh is not added.
        VKC_TRY(uploadPositions(*impl_, mesh, mesh.data.positions));
    }
    impl_->meshes.push_back(std::move(mesh));
    return MeshId(impl_->meshes.size() - 1);
}

Result<ObjectId> Scene::addObject(MeshId mesh, const glm::dmat4& objectToWorld, std::string name) {
    if (mesh >= impl_->meshes.size())
        return makeError(ErrorCode::InvalidArgument, "Scene::addObject: no mesh with id " + std::to_string(mesh));
    ObjectId id = ObjectId(impl_->objects.size());
    if (name.empty()) name = "object " + std::to_string(id);
    VKC_TRY(checkObjectTransform(objectToWorld, name, impl_->meshes[mesh].report));
    impl_->objects.push_back({mesh, objectToWorld, std::move(name)});
    return id;
}

Status Scene::setTransform(ObjectId object, const glm::dmat4& objectToWorld) {
    if (object >= impl_->objects.size())
        return makeError(ErrorCode::InvalidArgument, "Scene::setTransform: no object with id " + std::to_string(object));
    const SceneObject& o = impl_->objects[object];
    VKC_TRY(checkObjectTransform(objectToWorld, o.name, impl_->meshes[o.mesh].report));
    impl_->objects[object].objectToWorld = objectToWorld;
    return Status::success();
}

Status Scene::updateVertices(MeshId meshId, std::span<const glm::vec3> positions) {
    if (meshId >= impl_->meshes.size())
        return makeError(ErrorCode::InvalidArgument, "Scene::updateVertices: no mesh with id " + std::to_string(meshId));
    SceneMesh& mesh = impl_->meshes[meshId];
    if (!mesh.ownsPositions())
        return makeError(ErrorCode::InvalidArgument, "mesh \"" + mesh.data.name +
                                                         "\": its vertices live in the host's buffer; write them "
                                                         "there and call markDeformed");
    if (positions.size() != mesh.data.positions.size())
        return makeError(ErrorCode::InvalidArgument,
                         "mesh \"" + mesh.data.name + "\": " + std::to_string(positions.size()) +
                             " positions given, the mesh has " + std::to_string(mesh.data.positions.size()));
    for (const glm::vec3& p : positions)
        if (!(std::abs(p.x) <= kMaxMeshCoordinate && std::abs(p.y) <= kMaxMeshCoordinate &&
              std::abs(p.z) <= kMaxMeshCoordinate))
            return makeError(ErrorCode::InvalidMesh, "mesh \"" + mesh.data.name +
                                                         "\": new positions contain NaN, Inf or a coordinate beyond " +
                                                         formatNumber(kMaxMeshCoordinate));
    VKC_TRY(uploadPositions(*impl_, mesh, positions));
    mesh.data.positions.assign(positions.begin(), positions.end());
    ++mesh.deformedGeneration;
    return Status::success();
}

std::string objectLabel(const SceneImpl& scene, uint32_t object) {
    const SceneObject& o = scene.objects[object];
    std::string label = "object " + std::to_string(object);
    if (!o.name.empty()) label += " \"" + o.name + "\"";
    return label + " (mesh \"" + scene.meshes[o.mesh].data.name + "\")";
}

Status requireClosedSolid(const SceneImpl& scene, uint32_t object, const char* method) {
    const SceneMesh& mesh = scene.meshes[scene.objects[object].mesh];
    const Status solid = requireVolumeMethods(mesh.report, mesh.data.name);
    if (solid.ok()) return solid;
    return makeError(ErrorCode::InvalidMesh, std::string(method) + ": " + objectLabel(scene, object) +
                                                 " is not a closed, manifold, outward-oriented solid (" +
                                                 solid.message + ")");
}

void Scene::markDeformed(MeshId mesh) {
    if (mesh < impl_->meshes.size()) ++impl_->meshes[mesh].deformedGeneration;
}

uint32_t Scene::meshCount() const { return uint32_t(impl_->meshes.size()); }
uint32_t Scene::objectCount() const { return uint32_t(impl_->objects.size()); }
const MeshData& Scene::mesh(MeshId mesh) const { return impl_->meshes[mesh].data; }
const MeshCheckReport& Scene::meshReport(MeshId mesh) const { return impl_->meshes[mesh].report; }
MeshId Scene::objectMesh(ObjectId object) const { return impl_->objects[object].mesh; }
const glm::dmat4& Scene::transform(ObjectId object) const { return impl_->objects[object].objectToWorld; }
const std::string& Scene::objectName(ObjectId object) const { return impl_->objects[object].name; }

}  // namespace vkc
