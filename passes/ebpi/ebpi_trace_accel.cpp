// Acceleration structures of ebpi's ray-query backend; see ebpi_trace_accel.h.
#include "passes/ebpi/ebpi_trace_accel.h"

#include "vk/debug.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace vkc {

namespace {

VkDeviceSize alignUp(VkDeviceSize value, VkDeviceSize alignment) {
    return (value + alignment - 1) / alignment * alignment;
}

VkAccelerationStructureGeometryKHR boxGeometry(const EbpiAccelMesh& mesh) {
    VkAccelerationStructureGeometryKHR geometry{VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR};
    geometry.geometryType = VK_GEOMETRY_TYPE_AABBS_KHR;
    // Not opaque: every candidate reaches the shader. No duplicates: a box is reported once per
    // ray (the sort pass still drops a repeat).
    geometry.flags = VK_GEOMETRY_NO_DUPLICATE_ANY_HIT_INVOCATION_BIT_KHR;
    VkAccelerationStructureGeometryAabbsDataKHR& boxes = geometry.geometry.aabbs;
    boxes.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR;
    boxes.data.deviceAddress = mesh.boxes;
    boxes.stride = sizeof(VkAabbPositionsKHR);
    return geometry;
}

VkAccelerationStructureGeometryKHR instanceGeometry(VkDeviceAddress instances) {
    VkAccelerationStructureGeometryKHR geometry{VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR};
    geometry.geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR;
    geometry.geometry.instances.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR;
    geometry.geometry.instances.data.deviceAddress = instances;
    return geometry;
}

VkAccelerationStructureBuildGeometryInfoKHR buildInfo(VkAccelerationStructureTypeKHR type,
                                                      const VkAccelerationStructureGeometryKHR* geometry) {
    VkAccelerationStructureBuildGeometryInfoKHR info{VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR};
    info.type = type;
    info.flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR;
    info.mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR;
    info.geometryCount = 1;
    info.pGeometries = geometry;
    return info;
}

VkDeviceSize scratchAlignment(const VulkanContext& ctx) {
    VkPhysicalDeviceAccelerationStructurePropertiesKHR as{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props.pNext = &as;
    ctx.vki.vkGetPhysicalDeviceProperties2(ctx.physicalDevice, &props);
    return std::max<VkDeviceSize>(as.minAccelerationStructureScratchOffsetAlignment, 16);
}

// The storage buffer and the structure over it.
Status createStructure(VulkanContext& ctx, VkAccelerationStructureTypeKHR type, VkDeviceSize size,
                       const std::string& name, Buffer& storage, VkAccelerationStructureKHR& structure) {
    auto buffer = createBuffer(ctx, BufferDesc{size,
                                               VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR |
                                                   VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                               MemoryUsage::DeviceLocal, name.c_str()});
    if (!buffer) return buffer.status();
    storage = buffer.value();
    VkAccelerationStructureCreateInfoKHR info{VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR};
    info.buffer = storage.buffer;
    info.size = size;
    info.type = type;
    VKC_TRY(checkVk(ctx.vkd.vkCreateAccelerationStructureKHR(ctx.device, &info, ctx.allocationCallbacks, &structure),
                    ("vkCreateAccelerationStructureKHR (" + name + ")").c_str()));
    setObjectName(ctx, VK_OBJECT_TYPE_ACCELERATION_STRUCTURE_KHR, structure, name.c_str());
    return Status::success();
}

VkAccelerationStructureInstanceKHR instanceOf(const EbpiAccelInstance& instance, VkDeviceAddress blas) {
    VkAccelerationStructureInstanceKHR out{};
    out.instanceCustomIndex = instance.object;
    out.mask = 0xFF;
    out.flags =
        VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR | VK_GEOMETRY_INSTANCE_FORCE_NO_OPAQUE_BIT_KHR;
    out.accelerationStructureReference = blas;
    return out;
}

Status createAll(VulkanContext& ctx, std::span<const EbpiAccelMesh> meshes,
                 std::span<const EbpiAccelInstance> instances, EbpiAccelStructs& accel) {
    if (!ctx.hasAccelerationStructure)
        return makeError(ErrorCode::MissingFeature, "ebpi ray backends: the device has no acceleration structures enabled");
    const VkDeviceSize alignment = scratchAlignment(ctx);
    accel.meshes.assign(meshes.begin(), meshes.end());
    VkDeviceSize scratch = 0;
    for (size_t m = 0; m < meshes.size(); ++m) {
        const VkAccelerationStructureGeometryKHR geometry = boxGeometry(meshes[m]);
        const VkAccelerationStructureBuildGeometryInfoKHR info =
            buildInfo(VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &geometry);
        VkAccelerationStructureBuildSizesInfoKHR sizes{VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
        ctx.vkd.vkGetAccelerationStructureBuildSizesKHR(ctx.device, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR,
                                                        &info, &meshes[m].triangleCount, &sizes);
        accel.blasStorage.emplace_back();
        accel.blas.push_back(VK_NULL_HANDLE);
        VKC_TRY(createStructure(ctx, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, sizes.accelerationStructureSize,
                                "ebpi-blas[" + std::to_string(m) + "]", accel.blasStorage.back(), accel.blas.back()));
        accel.blasScratchOffset.push_back(scratch);
        scratch = alignUp(scratch + sizes.buildScratchSize, alignment);
    }

    std::vector<VkAccelerationStructureInstanceKHR> gpuInstances;
    for (const EbpiAccelInstance& instance : instances) {
        if (instance.mesh >= accel.blas.size() || instance.object >= (1u << 24))
            return makeError(ErrorCode::InvalidArgument,
                             "ebpi ray backends: instance names no mesh or a too large object");
        VkAccelerationStructureDeviceAddressInfoKHR address{
            VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR};
        address.accelerationStructure = accel.blas[instance.mesh];
        gpuInstances.push_back(
            instanceOf(instance, ctx.vkd.vkGetAccelerationStructureDeviceAddressKHR(ctx.device, &address)));
    }
    accel.instanceCount = uint32_t(gpuInstances.size());
    const VkDeviceSize instanceBytes = std::max<VkDeviceSize>(16, gpuInstances.size() * sizeof(gpuInstances[0]));
    auto instanceBuffer =
        createBuffer(ctx, BufferDesc{instanceBytes,
                                     VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
                                         VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                     MemoryUsage::Upload, "ebpi-tlas-instances"});
    if (!instanceBuffer) return instanceBuffer.status();
    accel.instances = instanceBuffer.value();
    VKC_TRY(uploadBuffer(ctx, accel.instances, gpuInstances.data(), gpuInstances.size() * sizeof(gpuInstances[0])));

    const VkAccelerationStructureGeometryKHR geometry = instanceGeometry(0);
    const VkAccelerationStructureBuildGeometryInfoKHR info =
        buildInfo(VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &geometry);
    VkAccelerationStructureBuildSizesInfoKHR sizes{VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
    ctx.vkd.vkGetAccelerationStructureBuildSizesKHR(ctx.device, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, &info,
                                                    &accel.instanceCount, &sizes);
    VKC_TRY(createStructure(ctx, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, sizes.accelerationStructureSize,
                            "ebpi-tlas", accel.tlasStorage, accel.tlas));
    // The TLAS build runs after the BLAS builds (a barrier between): it reuses the scratch from 0.
    scratch = std::max(scratch, sizes.buildScratchSize);
    // Extra room so that the first range can start at an aligned address.
    auto scratchBuffer =
        createBuffer(ctx, BufferDesc{scratch + alignment,
                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                     MemoryUsage::DeviceLocal, "ebpi-accel-scratch"});
    if (!scratchBuffer) return scratchBuffer.status();
    accel.scratch = scratchBuffer.value();
    accel.scratchAddress = alignUp(bufferDeviceAddress(ctx, accel.scratch.buffer), alignment);
    accel.instancesAddress = bufferDeviceAddress(ctx, accel.instances.buffer);
    return Status::success();
}

}  // namespace

VkDeviceAddress bufferDeviceAddress(const VulkanContext& ctx, VkBuffer buffer) {
    VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    info.buffer = buffer;
    return ctx.vkd.vkGetBufferDeviceAddress(ctx.device, &info);
}

Result<EbpiAccelStructs> createEbpiAccelStructs(VulkanContext& ctx, std::span<const EbpiAccelMesh> meshes,
                                                std::span<const EbpiAccelInstance> instances) {
    EbpiAccelStructs accel;
    Status status = createAll(ctx, meshes, instances, accel);
    if (!status.ok()) {
        destroyEbpiAccelStructs(ctx, accel);
        return status;
    }
    return accel;
}

void destroyEbpiAccelStructs(VulkanContext& ctx, EbpiAccelStructs& accel) {
    for (VkAccelerationStructureKHR blas : accel.blas)
        if (blas != VK_NULL_HANDLE)
            ctx.vkd.vkDestroyAccelerationStructureKHR(ctx.device, blas, ctx.allocationCallbacks);
    if (accel.tlas != VK_NULL_HANDLE)
        ctx.vkd.vkDestroyAccelerationStructureKHR(ctx.device, accel.tlas, ctx.allocationCallbacks);
    for (Buffer& b : accel.blasStorage) destroyBuffer(ctx, b);
    destroyBuffer(ctx, accel.tlasStorage);
    destroyBuffer(ctx, accel.instances);
    destroyBuffer(ctx, accel.scratch);
    accel = {};
}

void recordEbpiBlasBuilds(const VolkDeviceTable& device, VkCommandBuffer cmd, const EbpiAccelStructs& accel) {
    std::vector<VkAccelerationStructureGeometryKHR> geometries;
    for (const EbpiAccelMesh& mesh : accel.meshes) geometries.push_back(boxGeometry(mesh));
    std::vector<VkAccelerationStructureBuildGeometryInfoKHR> infos;
    std::vector<VkAccelerationStructureBuildRangeInfoKHR> ranges;
    for (size_t m = 0; m < accel.meshes.size(); ++m) {
        VkAccelerationStructureBuildGeometryInfoKHR info =
            buildInfo(VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &geometries[m]);
        info.dstAccelerationStructure = accel.blas[m];
        info.scratchData.deviceAddress = accel.scratchAddress + accel.blasScratchOffset[m];
        infos.push_back(info);
        ranges.push_back({accel.meshes[m].triangleCount, 0, 0, 0});
    }
    std::vector<const VkAccelerationStructureBuildRangeInfoKHR*> rangePointers;
    for (const auto& range : ranges) rangePointers.push_back(&range);
    if (!infos.empty())
        device.vkCmdBuildAccelerationStructuresKHR(cmd, uint32_t(infos.size()), infos.data(), rangePointers.data());
}

void recordEbpiTlasBuild(const VolkDeviceTable& device, VkCommandBuffer cmd, const EbpiAccelStructs& accel) {
    const VkAccelerationStructureGeometryKHR geometry = instanceGeometry(accel.instancesAddress);
    VkAccelerationStructureBuildGeometryInfoKHR info =
        buildInfo(VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &geometry);
    info.dstAccelerationStructure = accel.tlas;
    info.scratchData.deviceAddress = accel.scratchAddress;
    const VkAccelerationStructureBuildRangeInfoKHR range{accel.instanceCount, 0, 0, 0};
    const VkAccelerationStructureBuildRangeInfoKHR* rangePointer = &range;
    device.vkCmdBuildAccelerationStructuresKHR(cmd, 1, &info, &rangePointer);
}

}  // namespace vkc
