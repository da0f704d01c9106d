// The body is generated from volk.h's VolkDeviceTable at configure time (vk/CMakeLists.txt).
#include "vk/device_table.h"

#include <cstring>

namespace vkc {

void loadDeviceTable(VolkDeviceTable& tableRef, VkDevice device, PFN_vkGetDeviceProcAddr getDeviceProcAddr) {
    memset(&tableRef, 0, sizeof(tableRef));
    VolkDeviceTable* table = &tableRef;
    auto load = [getDeviceProcAddr](VkDevice d, const char* name) { return getDeviceProcAddr(d, name); };
#include "volk_device_table_loader.inc"

#define VKC_ALIAS(core) \
    if (!table->core) table->core = table->core##KHR
    VKC_ALIAS(vkCmdPipelineBarrier2);
    VKC_ALIAS(vkCmdWriteTimestamp2);
    VKC_ALIAS(vkQueueSubmit2);
    VKC_ALIAS(vkCmdBeginRendering);
    VKC_ALIAS(vkCmdEndRendering);
#undef VKC_ALIAS
}

}  // namespace vkc
