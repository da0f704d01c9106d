// A host linking libvulkan that includes vkcollide's headers first: vulkan.h must still declare
// its prototypes, which a public header defining VK_NO_PROTOTYPES (or exporting it) would remove.
#include "all_public_headers.h"

#include <vulkan/vulkan.h>

#include "tests/include_order/public_api_with_vulkan.h"

static_assert(std::is_same_v<decltype(&vkCreateInstance), PFN_vkCreateInstance>, "a prototype's address");

TEST(IncludeOrderTest, PublicHeadersThenVulkanWithPrototypes) { vkc::test::usePublicApiWithVulkanTypes(); }
