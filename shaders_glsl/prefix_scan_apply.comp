// Prefix scan, step 3: each workgroup rewrites its block as the exclusive scan of its values,
// starting from the block's offset (step 2's; 0 when there is one block). Each thread takes a
// contiguous run of kScanPerThread values, so runs are scanned in order.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/prefix_scan.h"

layout(local_size_x = kScanGroupSize) in;

layout(set = 0, binding = kScanBindingData, std430) buffer Data { uint data[]; };
layout(set = 0, binding = kScanBindingBlockSums, std430) readonly buffer BlockSums { uint blockSums[]; };

layout(push_constant) uniform Push { PrefixScanPush push; };

#include "prefix_scan_workgroup.glsl"

void main() {
    uint begin = min(gl_WorkGroupID.x * kScanBlockSize + gl_LocalInvocationID.x * kScanPerThread, push.count);
    uint end = min(begin + kScanPerThread, push.count);
    uint sum = 0u;
    for (uint i = begin; i < end; ++i) sum += data[i];
    uint running = inclusiveWorkgroupScan(sum) - sum;
    if (push.blockCount > 1u) running += blockSums[gl_WorkGroupID.x];
    for (uint i = begin; i < end; ++i) {
        uint count = data[i];
        data[i] = running;
        running += count;
    }
}
