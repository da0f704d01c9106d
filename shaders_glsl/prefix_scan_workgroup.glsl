// The workgroup-wide inclusive scan the prefix scan's shaders share: each thread's value in
// `partial` becomes the sum of its own and every earlier thread's (Hillis–Steele, log2 steps).
shared uint partial[kScanGroupSize];

uint inclusiveWorkgroupScan(uint value) {
    uint t = gl_LocalInvocationID.x;
    partial[t] = value;
    barrier();
    for (uint offset = 1u; offset < kScanGroupSize; offset <<= 1u) {
        uint before = t >= offset ? partial[t - offset] : 0u;
        barrier();
        partial[t] += before;
        barrier();
    }
    return partial[t];
}
