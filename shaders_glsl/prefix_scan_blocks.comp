// Prefix scan, step 2 (several blocks only): the block sums become each block's offset, by an
// exclusive scan in one workgroup: each thread sums a contiguous run, the run totals are scanned,
// each run is rewritten. Blocks are 4,096 uints, so a million-object scan has 245 of them.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/prefix_scan.h"

layout(local_size_x = kScanGroupSize) in;

layout(set = 0, binding = kScanBindingBlockSums, std430) buffer BlockSums { uint blockSums[]; };

layout(push_constant) uniform Push { PrefixScanPush push; };

#include "prefix_scan_workgroup.glsl"

void main() {
    uint t = gl_LocalInvocationID.x;
    uint perThread = (push.blockCount + kScanGroupSize - 1u) / kScanGroupSize;
    uint begin = min(t * perThread, push.blockCount), end = min(begin + perThread, push.blockCount);
    uint sum = 0u;
    for (uint i = begin; i < end; ++i) sum += blockSums[i];
    uint running = inclusiveWorkgroupScan(sum) - sum;
    for (uint i = begin; i < end; ++i) {
        uint count = blockSums[i];
        blockSums[i] = running;
        running += count;
    }
}
