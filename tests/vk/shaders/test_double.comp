#version 460
// Test shader: multiplies `count` floats in place by the kMultiplier specialization constant.
layout(local_size_x = 64) in;

layout(constant_id = 0) const uint kMultiplier = 1;  // the test sets 2: proves specialization works

layout(set = 0, binding = 0) buffer Values { float values[]; };
layout(push_constant) uniform Push { uint count; } push;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < push.count) values[i] *= float(kMultiplier);
}
