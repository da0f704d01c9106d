#version 450
// The example renderer's mesh: positions and normals from the interleaved vertex buffer.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;

layout(push_constant) uniform Draw {
    mat4 objectToClip;
    vec4 objectToWorldRows[3];  // rotation times uniform scale, row by row (w unused)
    vec4 color;
} draw;

layout(location = 0) out vec3 worldNormal;

void main() {
    gl_Position = draw.objectToClip * vec4(position, 1.0);
    worldNormal = vec3(dot(draw.objectToWorldRows[0].xyz, normal), dot(draw.objectToWorldRows[1].xyz, normal),
                       dot(draw.objectToWorldRows[2].xyz, normal));
}
