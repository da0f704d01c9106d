// Order-preserving map between float and uint: a < b as floats iff encode(a) < encode(b) as
// uints, so atomicMin/atomicMax on uints give float min/max (used for world AABBs). Written once
// for GLSL and C++ (vkc::gpu): the broadphase's shaders encode, the CPU decodes its read-back and
// encodes a host's candidate boxes alike.
#ifndef VKC_SHARED_FLOAT_ORDER_H
#define VKC_SHARED_FLOAT_ORDER_H

#include "glsl_cpp.h"

#ifdef __cplusplus
#include <bit>
#define VKC_FLOAT_ORDER_INLINE inline
#else
#define VKC_FLOAT_ORDER_INLINE
#endif

VKC_NAMESPACE_BEGIN

#ifdef __cplusplus
inline uint floatBitsToUint(float value) { return std::bit_cast<uint>(value); }
inline float uintBitsToFloat(uint bits) { return std::bit_cast<float>(bits); }
#endif

VKC_FLOAT_ORDER_INLINE uint encodeOrderedFloat(float value) {
    uint bits = floatBitsToUint(value);
    return (bits & 0x80000000u) != 0u ? ~bits : (bits | 0x80000000u);
}

VKC_FLOAT_ORDER_INLINE float decodeOrderedFloat(uint encoded) {
    uint bits = (encoded & 0x80000000u) != 0u ? (encoded & 0x7fffffffu) : ~encoded;
    return uintBitsToFloat(bits);
}

VKC_NAMESPACE_END

#endif
