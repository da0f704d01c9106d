// Order-preserving map between float and uint: a < b as floats iff encode(a) < encode(b) as
// uints, so atomicMin/atomicMax on uints give float min/max (used for world AABBs).
#ifndef VKC_SHARED_FLOAT_ORDER_H
#define VKC_SHARED_FLOAT_ORDER_H

uint encodeOrderedFloat(float value) {
    uint bits = floatBitsToUint(value);
    return (bits & 0x80000000u) != 0u ? ~bits : (bits | 0x80000000u);
}

float decodeOrderedFloat(uint encoded) {
    uint bits = (encoded & 0x80000000u) != 0u ? (encoded & 0x7fffffffu) : ~encoded;
    return uintBitsToFloat(bits);
}

#endif
