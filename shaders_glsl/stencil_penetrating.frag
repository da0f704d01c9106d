// Penetrating-object pass (paper 1, section 5.1): where an edge of this object passed the stencil
// test (signed count > 0) writes its id and the edge point's window depth, from which the scan
// unprojects the world-space interference point (section 6.2).
#version 460

layout(location = 0) flat in uint object;  // the draw's instance
layout(location = 0) out uvec4 outId;

void main() { outId = uvec4(object + 1u, floatBitsToUint(gl_FragCoord.z), 0u, 0u); }
