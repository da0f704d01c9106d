// A volk host that includes volk.h first: the public headers must accept Vulkan without prototypes.
#include <volk.h>

#include "all_public_headers.h"
#include "tests/include_order/public_api_with_vulkan.h"

static_assert(std::is_same_v<decltype(vkCreateInstance), PFN_vkCreateInstance>, "volk's pointers, not prototypes");

TEST(IncludeOrderTest, VolkThenPublicHeaders) { vkc::test::usePublicApiWithVulkanTypes(); }
