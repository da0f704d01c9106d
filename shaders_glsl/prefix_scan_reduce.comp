// Prefix scan, step 1 (several blocks only): each workgroup sums its block of kScanBlockSize uints
// into blockSums. Threads read with a stride of the workgroup, so neighbours read neighbours.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/prefix_scan.h"

layout(local_size_x = kScanGroupSize) in;

layout(set = 0, binding = kScanBindingData, std430) readonly buffer Data { uint data[]; };
layout(set = 0, binding = kScanBindingBlockSums, std430) writeonly buffer BlockSums { uint blockSums[]; };

layout(push_constant) uniform Push { PrefixScanPush push; };

#include "prefix_scan_workgroup.glsl"

void main() {
    uint first = gl_WorkGroupID.x * kScanBlockSize + gl_LocalInvocationID.x;
    uint sum = 0u;
    for (uint k = 0u; k < kScanPerThread; ++k) {
        uint i = first + k * kScanGroupSize;
        if (i < push.count) sum += data[i];
    }
    uint total = inclusiveWorkgroupScan(sum);
    if (gl_LocalInvocationID.x == kScanGroupSize - 1u) blockSums[gl_WorkGroupID.x] = total;
}
