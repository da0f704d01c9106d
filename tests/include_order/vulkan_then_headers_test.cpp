// A host linking libvulkan that includes vulkan.h (with prototypes) first.
#include <vulkan/vulkan.h>

#include "all_public_headers.h"
#include "tests/include_order/public_api_with_vulkan.h"

static_assert(std::is_same_v<decltype(&vkCreateInstance), PFN_vkCreateInstance>, "a prototype's address");

TEST(IncludeOrderTest, VulkanWithPrototypesThenPublicHeaders) { vkc::test::usePublicApiWithVulkanTypes(); }
