// The Vulkan names the public headers use, declared without <vulkan/vulkan_core.h>: that header
// decides once, by its include guard, whether function prototypes exist (a host linking libvulkan
// wants them; volk.h defines VK_NO_PROTOTYPES and declares `extern PFN_vkX vkX;` instead), so a
// public header that included it would break one of those hosts for one include order. Each
// declaration here is one vulkan_core.h repeats compatibly: identical typedefs, and structs named
// but not defined (a host that fills or reads them includes Vulkan, in any order). Vulkan's enums
// cannot be declared without their definition, so the API passes them as integers, each field or
// parameter naming its enum.
#pragma once

#include <vulkan/vk_platform.h>  // VKAPI_PTR; declares no functions

#include <cstdint>

// Dispatchable handles, as VK_DEFINE_HANDLE declares them.
typedef struct VkInstance_T* VkInstance;
typedef struct VkPhysicalDevice_T* VkPhysicalDevice;
typedef struct VkDevice_T* VkDevice;
typedef struct VkQueue_T* VkQueue;
typedef struct VkCommandBuffer_T* VkCommandBuffer;

// Non-dispatchable handles: pointers on 64-bit targets, uint64_t elsewhere, with vulkan_core.h's
// test (a host's own VK_DEFINE_NON_DISPATCHABLE_HANDLE or VK_USE_64_BIT_PTR_DEFINES wins, as there).
// Either way `{}` is their null handle.
#if defined(VK_DEFINE_NON_DISPATCHABLE_HANDLE)
#define VKC_NON_DISPATCHABLE_HANDLE(object) VK_DEFINE_NON_DISPATCHABLE_HANDLE(object)
#elif (defined(VK_USE_64_BIT_PTR_DEFINES) && VK_USE_64_BIT_PTR_DEFINES == 1) ||                               \
    (!defined(VK_USE_64_BIT_PTR_DEFINES) &&                                                                    \
     (defined(__LP64__) || defined(_WIN64) || (defined(__x86_64__) && !defined(__ILP32__)) || defined(_M_X64) || \
      defined(__ia64) || defined(_M_IA64) || defined(__aarch64__) || defined(__powerpc64__) ||                   \
      (defined(__riscv) && __riscv_xlen == 64)))
#define VKC_NON_DISPATCHABLE_HANDLE(object) typedef struct object##_T* object;
#else
#define VKC_NON_DISPATCHABLE_HANDLE(object) typedef uint64_t object;
#endif
VKC_NON_DISPATCHABLE_HANDLE(VkBuffer)
VKC_NON_DISPATCHABLE_HANDLE(VkDeviceMemory)
#undef VKC_NON_DISPATCHABLE_HANDLE

typedef uint64_t VkDeviceSize;

// Used through pointers or as return types only: their definitions come from Vulkan's headers.
struct VkAllocationCallbacks;
struct VkPhysicalDeviceFeatures2;
struct VkSemaphoreSubmitInfo;

typedef void (VKAPI_PTR *PFN_vkVoidFunction)(void);
typedef PFN_vkVoidFunction (VKAPI_PTR *PFN_vkGetInstanceProcAddr)(VkInstance instance, const char* pName);
