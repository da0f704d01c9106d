// A box of the broadphase's tree (margin-expanded object boxes and their unions) and the CPU
// reference's overlap rule (closed intervals).

struct TreeBox {
    vec3 lo;
    vec3 hi;
};

#define kTreeInf uintBitsToFloat(0x7f800000u)

bool boxesOverlap(TreeBox a, TreeBox b) {
    return all(lessThanEqual(a.lo, b.hi)) && all(lessThanEqual(b.lo, a.hi));
}
