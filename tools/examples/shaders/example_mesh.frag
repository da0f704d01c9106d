#version 450
// Simple shading: ambient plus one directional light.
layout(location = 0) in vec3 worldNormal;

layout(push_constant) uniform Draw {
    mat4 objectToClip;
    vec4 objectToWorldRows[3];
    vec4 color;
} draw;

layout(location = 0) out vec4 outColor;

void main() {
    const vec3 light = normalize(vec3(0.4, 0.5, 1.0));
    const float lit = 0.35 + 0.65 * max(dot(normalize(worldNormal), light), 0.0);
    outColor = vec4(draw.color.rgb * lit, 1.0);
}
