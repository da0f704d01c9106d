// Depth/stencil-only draws (edge depths, counting): no colour output. A fragment stage exists so
// that every draw pipeline shares one descriptor-set layout (stage flags vertex | fragment).
#version 460

layout(location = 0) flat in uint object;  // stencil_geometry.vert's output, unused here

void main() {}
