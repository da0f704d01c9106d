#version 460
// Test shader: an axis-aligned quad (two triangles, 6 vertices, no vertex buffer) covering
// push.rect = (x0, y0, x1, y1) in NDC at depth push.depth.
layout(push_constant) uniform Push {
    vec4 rect;
    float depth;
} push;

void main() {
    const vec2 corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 0), vec2(1, 1), vec2(0, 1));
    vec2 c = corners[gl_VertexIndex];
    gl_Position = vec4(mix(push.rect.xy, push.rect.zw, c), push.depth, 1.0);
}
