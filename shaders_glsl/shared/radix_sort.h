// Layout and sizes shared by radix_sort_*.comp and passes/shared/radix_sort_passes.cpp: a stable
// least-significant-digit radix sort of 32-bit keys carrying 32-bit values, 8 bits per pass
// (histogram per block of 1024 keys → one exclusive scan → stable scatter).
#ifndef VKC_SHARED_RADIX_SORT_H
#define VKC_SHARED_RADIX_SORT_H

#include "glsl_cpp.h"

VKC_NAMESPACE_BEGIN

VKC_CONSTANT(uint, kRadixDigits, 256u)     // 8 bits per pass
VKC_CONSTANT(uint, kRadixGroupSize, 256u)  // the histogram and scan: one thread per digit
VKC_CONSTANT(uint, kRadixRounds, 4u)       // rounds of kRadixGroupSize keys per block in the histogram
VKC_CONSTANT(uint, kRadixBlockSize, 1024u) // kRadixGroupSize * kRadixRounds
// The scatter's workgroup is one subgroup (radix_sort_scatter.comp), of at most this many lanes
// (a ballot holds 128).
VKC_CONSTANT(uint, kRadixMaxSubgroupSize, 128u)

// A sort buffer holds the keys, then the values: keys[0, count), values[count, 2 count).
VKC_CONSTANT(uint, kRadixBindingSource, 0u)
VKC_CONSTANT(uint, kRadixBindingDestination, 1u)
// Per digit, per block (digit-major): the block's count of the digit, then its first output slot.
VKC_CONSTANT(uint, kRadixBindingHistogram, 2u)

struct RadixSortPush {
    uint count;
    uint shift;       // the pass's digit is (key >> shift) & 255
    uint blockCount;  // ceil(count / kRadixBlockSize)
    uint pad;
};

VKC_NAMESPACE_END

#endif
