// A volk host that includes vkcollide's headers first: volk.h must still declare its function
// pointers, which a public header including vulkan_core.h with prototypes would forbid.
#include "all_public_headers.h"

#include <volk.h>

#include "tests/include_order/public_api_with_vulkan.h"

static_assert(std::is_same_v<decltype(vkCreateInstance), PFN_vkCreateInstance>, "volk's pointers, not prototypes");

TEST(IncludeOrderTest, PublicHeadersThenVolk) { vkc::test::usePublicApiWithVulkanTypes(); }
