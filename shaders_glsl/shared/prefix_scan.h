// Layout and sizes shared by prefix_scan_*.comp and passes/shared/prefix_scan_passes.cpp: an
// exclusive scan of uints in place, over as many workgroups as the data has blocks of
// kScanBlockSize (each block's sum → one workgroup scans the block sums → each block rescanned
// from its sum's offset). A single block skips the first two steps.
#ifndef VKC_SHARED_PREFIX_SCAN_H
#define VKC_SHARED_PREFIX_SCAN_H

#include "glsl_cpp.h"

VKC_NAMESPACE_BEGIN

VKC_CONSTANT(uint, kScanGroupSize, 256u)
VKC_CONSTANT(uint, kScanPerThread, 16u)
VKC_CONSTANT(uint, kScanBlockSize, 4096u)  // kScanGroupSize * kScanPerThread

VKC_CONSTANT(uint, kScanBindingData, 0u)       // the uints scanned, in place
VKC_CONSTANT(uint, kScanBindingBlockSums, 1u)  // per block: its sum, then its offset

struct PrefixScanPush {
    uint count;       // uints scanned
    uint blockCount;  // ceil(count / kScanBlockSize)
    uint pad0;
    uint pad1;
};

VKC_NAMESPACE_END

#endif
