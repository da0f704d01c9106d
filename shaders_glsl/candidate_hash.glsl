// The slot a candidate pair's search starts at (candidate_flags.glsl, candidate_index.comp).
uint candidateHash(uvec2 pair) {
    uint h = pair.x * 0x9e3779b1u ^ (pair.y + 0x7f4a7c15u) * 0x85ebca77u;
    return h ^ (h >> 15u);
}
