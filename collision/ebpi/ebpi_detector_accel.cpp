// EbpiDetector's acceleration structures; see ebpi_detector_accel.h.
#include "collision/ebpi/ebpi_detector_accel.h"

#include <algorithm>
#include <vector>

namespace vkc {

namespace {

Status makeLaunchBuffer(VulkanContext& ctx, EbpiAccelFrame& accel) {
    auto made = createBuffer(ctx, {16,
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                       VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                   MemoryUsage::DeviceLocal, "ebpi trace launch"});
    if (!made) return made.status();
    accel.launch = made.value();
    accel.launchAddress = bufferDeviceAddress(ctx, accel.launch.buffer);
    return Status::success();
}

}  // namespace

Status prepareEbpiAccelFrame(VulkanContext& ctx, EbpiRayBackend backend, EbpiAccelFrame& accel, uint32_t objectCount,
                             uint32_t boxesPerObject) {
    if (backend == EbpiRayBackend::RayTracingPipeline && accel.launch.buffer == VK_NULL_HANDLE)
        VKC_TRY(makeLaunchBuffer(ctx, accel));
    if (accel.structs.tlas != VK_NULL_HANDLE && accel.objectCount == objectCount && accel.boxesPerObject == boxesPerObject)
        return Status::success();
    std::vector<EbpiAccelMesh> meshes;
    std::vector<EbpiAccelInstance> instances;
    for (uint32_t i = 0; i < objectCount; ++i) {
        meshes.push_back({VkDeviceAddress(i) * boxesPerObject * sizeof(gpu::EbpiTriangleBoxGpu), boxesPerObject});
        instances.push_back({i, i});
    }
    const VkDeviceSize bytes =
        std::max<VkDeviceSize>(VkDeviceSize(objectCount) * boxesPerObject * sizeof(gpu::EbpiTriangleBoxGpu), 256);
    if (accel.boxes.buffer == VK_NULL_HANDLE || accel.boxes.size < bytes) {
        destroyBuffer(ctx, accel.boxes);
        auto made = createBuffer(ctx, {bytes,
                                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                                           VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR,
                                       MemoryUsage::DeviceLocal, "ebpi triangle boxes"});
        if (!made) return made.status();
        accel.boxes = made.value();
    }
    const VkDeviceAddress base = bufferDeviceAddress(ctx, accel.boxes.buffer);
    for (EbpiAccelMesh& m : meshes) m.boxes += base;
    destroyEbpiAccelStructs(ctx, accel.structs);
    auto structs = createEbpiAccelStructs(ctx, meshes, instances);
    if (!structs) return structs.status();
    accel.structs = structs.value();
    accel.objectCount = objectCount;
    accel.boxesPerObject = boxesPerObject;
    return Status::success();
}

void destroyEbpiAccelFrame(VulkanContext& ctx, EbpiAccelFrame& accel) {
    destroyEbpiAccelStructs(ctx, accel.structs);
    destroyBuffer(ctx, accel.boxes);
    destroyBuffer(ctx, accel.launch);
}

}  // namespace vkc
