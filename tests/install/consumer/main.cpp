// A host program built against the installed vkcollide, embedding it as an engine does: its own
// volk instance and device under the validation layer (the embedding example's HostDevice, which
// uses vkcollide's public headers only) adopted by vkcollide, its own interleaved vertex buffer
// read in place, and one frame of the broadphase and the ldi detector recorded into its own command
// buffer and submitted with its own vkQueueSubmit2. Exits non-zero on a wrong answer or a
// validation message.
// vkcollide's headers come before volk.h here and after it in host_device.h: any order works.
#include <vkcollide/broadphase.h>
#include <vkcollide/context.h>
#include <vkcollide/ldi.h>
#include <vkcollide/scene.h>

#include <volk.h>

#include "tools/examples/host_buffer.h"
#include "tools/examples/host_device.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using vkc::example::HostBuffer;
using vkc::example::HostDevice;

constexpr uint64_t kWaitNs = 30'000'000'000;  // a frame here takes milliseconds: fail, do not hang

// The unit cube [0, 1]^3 and the same cube moved by kOffset along each axis overlap in
// [kOffset, 1]^3. Their faces are axis-aligned, so ldi's rays cross them exactly and its volume is
// the analytic one up to float depths.
constexpr float kOffset = 0.5f;
constexpr double kExactVolume = (1.0 - kOffset) * (1.0 - kOffset) * (1.0 - kOffset);
constexpr double kTolerance = 1e-5;

// How a renderer keeps a vertex: the position, then the normal; vkcollide reads the position only.
struct Vertex {
    glm::vec3 position;
    glm::vec3 normal;
};
static_assert(sizeof(Vertex) == 24);

vkc::MeshData unitCube() {
    vkc::MeshData mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    mesh.indices = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                    2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    return mesh;
}

bool ok(const vkc::Status& status, const char* what) {
    if (!status) std::printf("consumer: %s: %s\n", what, status.describe().c_str());
    return status.ok();
}

// One frame of a vkcollide object, run by the host: record into the host's command buffer, submit
// it with vkQueueSubmit2 carrying vkcollide's completion signal, and wait on that signal.
template <class Method, class... Inputs>
vkc::Status runFrame(const HostDevice& host, VkCommandBuffer cmd, Method& method, uint64_t frame,
                     const Inputs&... inputs) {
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKC_TRY(vkc::checkVk(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer"));
    const vkc::Status recorded = method.record(cmd, inputs..., frame);
    VKC_TRY(vkc::checkVk(vkEndCommandBuffer(cmd), "vkEndCommandBuffer"));
    VKC_TRY(recorded);
    const VkSemaphoreSubmitInfo signal = method.completionSignal(frame);
    VkCommandBufferSubmitInfo commands = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    commands.commandBuffer = cmd;
    VkSubmitInfo2 submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &commands;
    submit.signalSemaphoreInfoCount = 1;
    submit.pSignalSemaphoreInfos = &signal;
    const auto submit2 = vkQueueSubmit2 ? vkQueueSubmit2 : vkQueueSubmit2KHR;  // a 1.2 device has the extension
    VKC_TRY(vkc::checkVk(submit2(host.queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit2"));
    VkSemaphoreWaitInfo wait = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &signal.semaphore;
    wait.pValues = &signal.value;
    return vkc::checkVk(vkWaitSemaphores(host.device, &wait, kWaitNs), "vkWaitSemaphores");
}

// True when the broadphase finds the one pair and ldi its analytic intersection volume. Both
// meshes' CPU positions are `cube`; only `vertices` moves the second by kOffset, so the exact volume
// comes out only if vkcollide read the host's buffer in place (from `cube` the two would coincide).
bool detect(HostDevice& host, VkCommandBuffer cmd, const vkc::MeshData& cube, VkBuffer vertices) {
    auto context = vkc::adoptContext(host.contextDesc());
    if (!ok(context.status(), "adoptContext")) return false;
    auto scene = vkc::Scene::create(context.value(), vkc::kVolumeMethodRequirements);
    if (!ok(scene.status(), "Scene::create")) return false;
    const vkc::MeshDesc meshes[] = {{"a", &cube, vertices, 1 * sizeof(Vertex), sizeof(Vertex)},
                                    {"b", &cube, vertices, 9 * sizeof(Vertex), sizeof(Vertex)}};
    for (const vkc::MeshDesc& mesh : meshes) {
        auto id = scene->addMesh(mesh);
        if (!ok(id.status(), "addMesh") || !ok(scene->addObject(id.value(), glm::dmat4(1.0)).status(), "addObject"))
            return false;
    }
    auto broadphase = vkc::Broadphase::create(context.value());
    auto detector = vkc::LdiDetector::create(context.value());
    if (!ok(broadphase.status(), "Broadphase::create") || !ok(detector.status(), "LdiDetector::create"))
        return false;

    const uint64_t frame = 0;
    vkc::BroadphaseResults pcs;
    vkc::FrameResults found;
    if (!ok(runFrame(host, cmd, broadphase.value(), frame, scene.value()), "broadphase frame") ||
        !ok(broadphase->results(frame, pcs), "broadphase results") ||
        !ok(runFrame(host, cmd, detector.value(), frame, scene.value(), vkc::CandidateSet(pcs)), "ldi frame") ||
        !ok(detector->results(frame, found), "ldi results"))
        return false;
    const double volume = found.pairs.size() == 1 ? found.pairs[0].volume.value_or(-1.0) : -1.0;
    std::printf("consumer: %zu broadphase pair(s), %zu colliding, volume %.9g (exact %.9g)\n", pcs.pairs.size(),
                found.pairs.size(), volume, kExactVolume);
    return pcs.pairs.size() == 1 && pcs.pairs[0] == vkc::ObjectPair{0, 1} && std::abs(volume - kExactVolume) <= kTolerance;
}

}  // namespace

int main() {
    std::string error;
    const std::unique_ptr<HostDevice> host = HostDevice::create(vkc::kFeatureSetLdi, /*validation=*/true, error);
    if (!host) {
        std::printf("consumer: %s\n", error.c_str());
        return 1;
    }
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(host->physicalDevice, &properties);
    std::printf("consumer: device %s\n", properties.deviceName);

    // The host's buffer: one vertex of padding, then each cube's eight vertices.
    const vkc::MeshData cube = unitCube();
    std::vector<Vertex> vertices(1, Vertex{glm::vec3(0.0f), glm::vec3(0.0f)});
    for (float offset : {0.0f, kOffset})
        for (const glm::vec3& p : cube.positions) vertices.push_back({p + offset, glm::vec3(0.0f)});
    HostBuffer buffer = vkc::example::createHostBuffer(
        *host, vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, error);
    if (buffer.mapped) std::memcpy(buffer.mapped, vertices.data(), buffer.size);

    VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;  // one buffer, begun once a frame
    poolInfo.queueFamilyIndex = host->queueFamily;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (error.empty() && vkCreateCommandPool(host->device, &poolInfo, nullptr, &pool) != VK_SUCCESS)
        error = "vkCreateCommandPool failed";
    VkCommandBufferAllocateInfo allocate = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    if (error.empty() && vkAllocateCommandBuffers(host->device, &allocate, &cmd) != VK_SUCCESS)
        error = "vkAllocateCommandBuffers failed";
    if (!error.empty()) std::printf("consumer: %s\n", error.c_str());
    const bool right = cmd && detect(*host, cmd, cube, buffer.buffer);  // vkcollide is gone after it

    vkDeviceWaitIdle(host->device);
    if (pool) vkDestroyCommandPool(host->device, pool, nullptr);
    vkc::example::destroyHostBuffer(*host, buffer);
    // HostDevice prints each message as "validation: ..."; those of its own teardown, after this
    // count, fail the install test's script.
    return right && host->validationMessages() == 0 ? 0 : 1;
}
