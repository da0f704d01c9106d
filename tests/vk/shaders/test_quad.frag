#version 460
// Test shader: flat white.
layout(location = 0) out vec4 color;

void main() { color = vec4(1.0); }
