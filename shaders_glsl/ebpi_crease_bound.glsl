// GLSL only: ebpiCreaseBound (collision/ebpi/ebpi_edge_terms.cpp) with the CPU's operations in its
// order, for the mesh edges (ebpi_edge_terms.comp) and the surfaces' crossings
// (ebpi_transient_terms.comp).
#ifndef VKC_EBPI_CREASE_BOUND_GLSL
#define VKC_EBPI_CREASE_BOUND_GLSL

// ebpiCreaseBound: the bend of the depth span along the edge, Alg. 2's case that suits the edge.
void creaseBound(dvec2 gradientJump, inout double bound[5]) {
    double kx = abs(gradientJump.x);
    double ky = abs(gradientJump.y);
    if (kx == 0.0LF && ky == 0.0LF) return;
    precise double quarterSquare;
    if (kx >= ky) {
        bound[0] = kx / 8.0LF;
        quarterSquare = ky * ky / (24.0LF * kx);
        bound[2] = quarterSquare;
    } else {
        bound[1] = ky / 8.0LF;
        quarterSquare = kx * kx / (24.0LF * ky);
        bound[3] = quarterSquare;
    }
}
#endif
