// One triangle covering the viewport, for the stencil-test draws whose occlusion queries answer
// "any interference?" and "any negative count?" without reading an image (paper 1, section 6.1),
// for ldi's stencil clears that the GPU draws only for the layers a frame has, and for
// consistent-pairs' peel clears that it draws only for the iterations a frame runs.
#version 460

void main() {
    vec2 corner = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
