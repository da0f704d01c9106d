// GLSL only: an integer-valued double as the (low, high) words of its 64-bit two's complement, for
// signed sums of two 32-bit atomics with a carry (the EBPI volume and gradient sums, the normal
// histogram of the directions). The low word's add that wraps carries one into the high word, so
// the 64-bit sum is exact mod 2^64 whatever the order of the atomics.
#ifndef VKC_SIGNED_WORDS_GLSL
#define VKC_SIGNED_WORDS_GLSL

uvec2 signedWords(double q) {
    const double two32 = 4294967296.0LF;
    double magnitude = abs(q);
    uint high = uint(floor(magnitude / two32));
    uint low = uint(magnitude - double(high) * two32);
    if (q < 0.0LF) {
        low = ~low + 1u;
        high = ~high + (low == 0u ? 1u : 0u);
    }
    return uvec2(low, high);
}
#endif
