// Radix sort, step 2 of a pass: the histogram (digit-major, so all of digit 0's blocks come first)
// becomes each block's first output slot per digit, by an exclusive scan in one workgroup: each
// thread sums a contiguous run, the run totals are scanned in shared memory, each run is rewritten.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/radix_sort.h"

layout(local_size_x = kRadixGroupSize) in;

layout(set = 0, binding = kRadixBindingHistogram, std430) buffer Histogram { uint histogram[]; };

layout(push_constant) uniform Push { RadixSortPush push; };

shared uint runTotals[kRadixGroupSize];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint total = kRadixDigits * push.blockCount;
    uint perThread = (total + kRadixGroupSize - 1u) / kRadixGroupSize;
    uint begin = min(t * perThread, total);
    uint end = min(begin + perThread, total);
    uint sum = 0u;
    for (uint i = begin; i < end; ++i) sum += histogram[i];
    runTotals[t] = sum;
    barrier();
    // Inclusive scan of the run totals (Hillis–Steele, log2(256) steps).
    for (uint offset = 1u; offset < kRadixGroupSize; offset <<= 1u) {
        uint before = t >= offset ? runTotals[t - offset] : 0u;
        barrier();
        runTotals[t] += before;
        barrier();
    }
    uint running = t == 0u ? 0u : runTotals[t - 1u];
    for (uint i = begin; i < end; ++i) {
        uint count = histogram[i];
        histogram[i] = running;
        running += count;
    }
}
