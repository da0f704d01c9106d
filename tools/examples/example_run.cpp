// The example's frame loop; see example_run.h.
#include "tools/examples/example_run.h"

#include "tools/examples/example_view.h"
#include "tools/examples/frame_renderer.h"
#include "tools/examples/host_device.h"
#include "tools/examples/host_meshes.h"
#include "tools/examples/mesh_deformer.h"
#include "tools/cli/renderdoc_capture.h"
#include "tools/examples/png_image.h"
#include "tools/examples/result_markers.h"
#include "tools/examples/window_presenter.h"
#include "tools/io/scene_file.h"
#include "vkcollide/collision_frame.h"
#include "vkcollide/scene.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <vector>

namespace vkc::example {
namespace {

constexpr uint32_t kFramesInFlight = 2;

int fail(const std::string& message) {
    std::fprintf(stderr, "vkcollide-example: %s\n", message.c_str());
    return 2;
}

// Per frame slot: its command buffer, the fence the host waits on before reusing the slot, and
// the frame's collision signal (a timeline value of vkcollide's semaphore).
struct FrameSlot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkSemaphoreSubmitInfo signal{};
};

// Waits for the frame's collision signal too: results() reads its timeline value, and under
// RenderDoc 1.24 that lags the submit's fence (results() then says NotReady after the fence).
void waitForSignal(VkDevice device, const FrameSlot& slot) {
    VkSemaphoreWaitInfo wait = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &slot.signal.semaphore;
    wait.pValues = &slot.signal.value;
    vkWaitSemaphores(device, &wait, UINT64_MAX);
}

// The GPU-driven methods (the ones a frame can record from the broadphase's pairs on the GPU):
// the collision frame's settings and the device features they need; false for any other method.
bool gpuDrivenMethod(const ExampleOptions& options, CollisionFrameSettings& settings, FeatureSets& features) {
    settings.framesInFlight = kFramesInFlight;
    if (options.method == "aabb-tree") {
        settings.aabbTree = AabbTreeSettings{};
        features = kFeatureSetAabbTree;
    } else if (options.method == "ebpi") {
        settings.ebpi = EbpiSettings{};
        settings.ebpi->tolerance = options.tolerance;
        features = kFeatureSetEbpi;  // its compute backend: any Vulkan 1.2 device
    } else if (options.method == "stencil") {
        settings.stencil = StencilSettings{};
        features = kFeatureSetStencil;
    } else if (options.method == "consistent-pairs") {
        settings.consistentPairs = ConsistentPairsSettings{};
        features = kFeatureSetConsistentPairs;
    } else if (options.method == "ldi") {
        settings.ldi = LdiSettings{};
        features = kFeatureSetLdi;
    } else {
        return false;
    }
    return true;
}

std::string pairText(const std::set<ObjectPair>& pairs, const Scene& scene) {
    std::string text;
    for (const ObjectPair& p : pairs) text += " " + scene.objectName(p.a) + "-" + scene.objectName(p.b);
    return pairs.empty() ? " none" : text;
}

// The pairs' intersection volumes where the method measures them (ebpi, ldi): " (volumes 0.012 +- 0.001, ...)".
std::string volumeText(const FrameResults& results) {
    std::string text;
    for (const PairResult& pair : results.pairs) {
        if (!pair.volume || !pair.volumeErrorBound) continue;
        char volume[64];
        std::snprintf(volume, sizeof(volume), "%s%.4g +- %.2g", text.empty() ? "" : ", ", *pair.volume,
                      *pair.volumeErrorBound);
        text += volume;
    }
    return text.empty() ? "" : " (volumes " + text + ")";
}

}  // namespace

int runExample(const ExampleOptions& options) {
    CollisionFrameSettings collisionSettings;
    FeatureSets features = 0;
    if (!gpuDrivenMethod(options, collisionSettings, features))
        return fail("--method " + options.method + ": not a method (aabb-tree, ebpi, stencil, consistent-pairs or ldi)");
    auto description = io::loadScene(options.scene);
    if (!description) return fail(description.status().describe());
    if (options.deformObject >= description->objects.size())
        return fail("--deform " + std::to_string(options.deformObject) + ": the scene has " +
                    std::to_string(description->objects.size()) + " objects");
    std::error_code dirError;
    std::filesystem::create_directories(options.out, dirError);
    if (dirError) return fail("--out \"" + options.out + "\": " + dirError.message());

    if (!options.renderdocCapture.empty() && options.captureFrame >= options.frames)
        return fail("--capture-frame " + std::to_string(options.captureFrame) + ": only " +
                    std::to_string(options.frames) + " frames are rendered");
    // RenderDoc hooks Vulkan through its layer: load it before the instance exists.
    std::optional<tools::RenderDocCapture> capture;
    if (!options.renderdocCapture.empty()) {
        auto loaded = tools::RenderDocCapture::load(options.renderdocCapture);
        if (!loaded) return fail(loaded.status().describe());
        capture = std::move(loaded.value());
    }
    std::string error;
    std::unique_ptr<WindowPresenter> window;
    Presentation presentation;
    if (options.window) {
        window = WindowPresenter::open(kImageWidth, kImageHeight, error);
        if (!window) return fail(error);
        presentation = {window->instanceExtensions(), [&](VkInstance instance, VkPhysicalDevice device, uint32_t family) {
                            return window->canPresent(instance, device, family);
                        }};
    }
    std::unique_ptr<HostDevice> host = HostDevice::create(features, options.validation, error, presentation);
    if (!host) return fail(error);
    std::vector<const MeshData*> meshData;
    for (const auto& mesh : description->meshes) meshData.push_back(&mesh.data);
    // The host draws two more meshes than the scene has: the result overlay's marker and bar.
    const MeshData marker = markerMesh(), bar = volumeBarMesh();
    std::vector<const MeshData*> hostMeshData = meshData;
    hostMeshData.insert(hostMeshData.end(), {&marker, &bar});
    HostMeshes meshes = createHostMeshes(*host, hostMeshData, error);
    int exitCode = 0;
    {
        auto context = adoptContext(host->contextDesc());
        if (!context) return fail(context.status().describe());
        auto scene = Scene::create(*context);
        if (!scene) return fail(scene.status().describe());
        const uint32_t deformedMesh = description->objects[options.deformObject].mesh;
        std::vector<MeshId> meshIds;
        for (uint32_t m = 0; m < meshData.size(); ++m) {
            MeshDesc desc{description->meshes[m].name.c_str(), meshData[m], meshes.vertices.buffer,
                          VkDeviceSize(meshes.ranges[m].firstVertex) * kVertexStride, kVertexStride, m == deformedMesh};
            auto id = scene->addMesh(desc);
            if (!id) return fail(id.status().describe());
            meshIds.push_back(id.value());
        }
        const io::SceneFrame& firstFrame = description->frames[0];
        std::vector<PlacedMesh> placed;
        for (uint32_t o = 0; o < description->objects.size(); ++o) {
            auto id = scene->addObject(meshIds[description->objects[o].mesh], firstFrame.transforms[o],
                                       description->objects[o].name);
            if (!id) return fail(id.status().describe());
            placed.push_back({meshData[description->objects[o].mesh], firstFrame.transforms[o]});
        }
        auto collisions = CollisionFrame::create(*context, collisionSettings);
        if (!collisions) return fail(collisions.status().describe());
        FrameRenderer renderer(*host, kFramesInFlight, error);
        if (!error.empty()) return fail(error);
        MeshDeformer deformer(*host, meshes, deformedMesh, *meshData[deformedMesh], error);
        if (!error.empty()) return fail(error);
        if (window && !(error = window->createSwapchain(*host, kFramesInFlight)).empty()) return fail(error);
        const glm::mat4 camera = cameraWorldToClip(placed, cameraMargin(options.growth, options.frames));
        const ResultMarkers overlay = resultMarkers(placed, cameraMargin(options.growth, options.frames),
                                                    uint32_t(meshData.size()), uint32_t(meshData.size() + 1));

        VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        poolInfo.queueFamilyIndex = host->queueFamily;
        VkCommandPool pool = VK_NULL_HANDLE;
        bool created = vkCreateCommandPool(host->device, &poolInfo, nullptr, &pool) == VK_SUCCESS;
        std::array<FrameSlot, kFramesInFlight> slots;
        for (FrameSlot& slot : slots) {
            VkCommandBufferAllocateInfo allocate = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            allocate.commandPool = pool;
            allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            allocate.commandBufferCount = 1;
            VkFenceCreateInfo fenceInfo = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            created = created && vkAllocateCommandBuffers(host->device, &allocate, &slot.cmd) == VK_SUCCESS &&
                      vkCreateFence(host->device, &fenceInfo, nullptr, &slot.fence) == VK_SUCCESS;
        }
        if (!created) error = "cannot create the command pool, command buffers and fences";
        const auto submit2 = vkQueueSubmit2 ? vkQueueSubmit2 : vkQueueSubmit2KHR;

        // Once frame f's fence has passed: its collision results (never a wait: they are in
        // read-back memory already) and its image, which shows frame f - 2's results.
        std::vector<std::set<ObjectPair>> colliding(options.frames);
        std::vector<FrameResults> shown(options.frames);  // each frame's results, drawn two frames later
        auto finishFrame = [&](uint32_t f) -> bool {
            FrameSlot& slot = slots[f % kFramesInFlight];
            vkWaitForFences(host->device, 1, &slot.fence, VK_TRUE, UINT64_MAX);
            vkResetFences(host->device, 1, &slot.fence);
            waitForSignal(host->device, slot);
            CollisionFrameResults frameResults;
            if (Status read = collisions->results(f, frameResults); !read.ok()) {
                fail("frame " + std::to_string(f) + ": " + read.describe());
                return false;
            }
            const FrameResults& results = frameResults.aabbTree          ? *frameResults.aabbTree
                                          : frameResults.ebpi            ? *frameResults.ebpi
                                          : frameResults.stencil         ? *frameResults.stencil
                                          : frameResults.consistentPairs ? *frameResults.consistentPairs
                                                                         : *frameResults.ldi;
            for (const PairResult& pair : results.pairs) colliding[f].insert({pair.a, pair.b});
            shown[f] = results;
            for (const std::string& warning : results.warnings) std::fprintf(stderr, "frame %u: %s\n", f, warning.c_str());
            char name[32];
            std::snprintf(name, sizeof(name), "frame_%04u.png", f);
            const std::filesystem::path png = std::filesystem::path(options.out) / name;
            if (!writeRgbaPng(png, kImageWidth, kImageHeight, renderer.pixels(f % kFramesInFlight))) {
                fail("cannot write " + png.string());
                return false;
            }
            std::printf("frame %u: colliding%s%s; %s tints %s\n", f, pairText(colliding[f], *scene).c_str(),
                        volumeText(results).c_str(), png.c_str(),
                        f >= 2 ? ("frame " + std::to_string(f - 2) + "'s pairs").c_str() : "nothing (no results yet)");
            return true;
        };

        bool ok = error.empty();
        if (!ok) fail(error);
        uint32_t submitted = 0;  // fewer than options.frames when the window is closed early
        for (uint32_t f = 0; f < options.frames && ok && !(window && window->closed()); ++f) {
            if (f >= kFramesInFlight) ok = finishFrame(f - kFramesInFlight);
            if (!ok) break;
            const io::SceneFrame& poses = description->frames[f % description->frames.size()];
            std::vector<ObjectDraw> draws;
            for (uint32_t o = 0; o < description->objects.size(); ++o) {
                if (Status moved = scene->setTransform(o, poses.transforms[o]); !moved.ok()) {
                    fail(moved.describe());
                    ok = false;
                    break;
                }
                bool tinted = false;
                if (f >= kFramesInFlight)
                    for (const ObjectPair& p : colliding[f - kFramesInFlight]) tinted |= p.a == o || p.b == o;
                draws.push_back({description->objects[o].mesh, glm::mat4(poses.transforms[o]),
                                 tinted ? kCollidingColor : kPlainColor});
            }
            if (!ok) break;
            if (f >= kFramesInFlight) {
                std::vector<glm::vec3> centres;
                for (const glm::dmat4& pose : poses.transforms) centres.push_back(glm::vec3(pose[3]));
                appendResultMarkers(overlay, shown[f - kFramesInFlight], centres, draws);
            }
            FrameSlot& slot = slots[f % kFramesInFlight];
            // The slot's previous frame has finished (its fence): its acquisition semaphore is free.
            if (window && !window->acquire(f % kFramesInFlight, error)) {
                fail(error);
                ok = false;
                break;
            }
            const bool captured = capture && f == options.captureFrame;
            if (captured) capture->begin(host->instance);
            VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
            begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
            if (vkBeginCommandBuffer(slot.cmd, &begin) != VK_SUCCESS) {
                fail("vkBeginCommandBuffer failed");
                ok = false;
                break;
            }
            deformer.record(slot.cmd, deformScale(f, options.growth));
            Status recorded = collisions->record(slot.cmd, *scene, f);
            renderer.record(slot.cmd, f % kFramesInFlight, meshes, camera, draws);
            if (window) window->recordBlit(slot.cmd, renderer.image(f % kFramesInFlight));
            const VkResult ended = vkEndCommandBuffer(slot.cmd);
            if (recorded.ok() && ended != VK_SUCCESS) recorded = makeError(ErrorCode::Unsupported, "vkEndCommandBuffer failed");
            if (!recorded.ok()) {
                fail("frame " + std::to_string(f) + ": " + recorded.describe());
                ok = false;
                break;
            }
            const VkCommandBufferSubmitInfo cmdInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, slot.cmd, 0};
            slot.signal = collisions->completionSignal(f);
            // With a window: wait for the swapchain image at the blit, signal its presentation.
            const VkSemaphoreSubmitInfo acquired = window ? window->acquiredWait(f % kFramesInFlight) : VkSemaphoreSubmitInfo{};
            const VkSemaphoreSubmitInfo signals[2] = {slot.signal, window ? window->renderedSignal() : VkSemaphoreSubmitInfo{}};
            VkSubmitInfo2 submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
            submit.waitSemaphoreInfoCount = window ? 1 : 0;
            submit.pWaitSemaphoreInfos = &acquired;
            submit.commandBufferInfoCount = 1;
            submit.pCommandBufferInfos = &cmdInfo;
            submit.signalSemaphoreInfoCount = window ? 2 : 1;
            submit.pSignalSemaphoreInfos = signals;
            if (submit2(host->queue, 1, &submit, slot.fence) != VK_SUCCESS) {
                fail("vkQueueSubmit2 failed");
                ok = false;
            } else {
                ++submitted;
            }
            if (ok && window) {
                ok = window->present(host->queue, error);
                if (!ok) fail(error);
                else std::printf("frame %u: presented\n", f);
            }
            if (captured) {
                if (Status written = capture->end(); !written.ok()) {
                    fail(written.describe());
                    ok = false;
                }
            }
        }
        const uint32_t drained = std::min(submitted, kFramesInFlight);
        for (uint32_t f = submitted - drained; f < submitted && ok; ++f) ok = finishFrame(f);
        vkDeviceWaitIdle(host->device);
        window.reset();  // its swapchain and surface go before the host's device and instance
        for (FrameSlot& slot : slots) vkDestroyFence(host->device, slot.fence, nullptr);
        vkDestroyCommandPool(host->device, pool, nullptr);
        if (!ok) exitCode = 2;
    }  // vkcollide's objects and context go before the host's buffers and device
    destroyHostMeshes(*host, meshes);
    if (host->validationMessages() != 0) {
        std::fprintf(stderr, "vkcollide-example: %u validation messages\n", host->validationMessages());
        return 1;
    }
    return exitCode;
}

}  // namespace vkc::example
