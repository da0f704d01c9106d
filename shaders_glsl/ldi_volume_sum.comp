// Intersection volume (paper 2, §3.3a), per pair: the sum of ldi_volume.comp's per-workgroup
// partial sums, strided over 256 threads and then a fixed-order tree, so the double result is the
// same on every run. The host multiplies it by the pixel area. One workgroup per pair.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ldi_compute.glsl"

layout(local_size_x = kLdiVolumeGroupSize) in;

shared double partial[kLdiVolumeGroupSize];

void main() {
    uint pair = gl_WorkGroupID.x, thread = gl_LocalInvocationID.x;
    if (pair >= push.pairCount) return;  // uniform per workgroup, before any barrier
    uint groups = (push.resolution * push.resolution + kLdiVolumeGroupSize - 1u) / kLdiVolumeGroupSize;
    double sum = 0.0lf;
    for (uint g = thread; g < groups; g += kLdiVolumeGroupSize) sum += volumePartials[pair * groups + g];
    partial[thread] = sum;
    barrier();
    for (uint width = kLdiVolumeGroupSize / 2u; width > 0u; width /= 2u) {
        if (thread < width) partial[thread] += partial[thread + width];
        barrier();
    }
    if (thread == 0u) pairResults[pair].lengthSum = partial[0];
}
