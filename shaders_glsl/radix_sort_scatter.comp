// Radix sort, step 3 of a pass: every key and value to its place. A workgroup is one subgroup
// (its size is the device's subgroup size, a specialisation constant) and owns one block, which it
// goes through in input order a subgroup-width round at a time: lanes with the same digit find
// each other by one ballot per digit bit (a multisplit), a lane's place is its digit's next slot
// for the block plus its rank among those lanes, and the last of them moves the slot on. Equal
// digits keep their input order, which the least-significant-digit passes rely on. (Its barriers
// are then a subgroup's: lavapipe runs them at no cost, and a workgroup barrier among subgroups
// that left early is not allowed.)
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : require

#include "shared/radix_sort.h"

layout(local_size_x_id = 0) in;  // the device's subgroup size

layout(set = 0, binding = kRadixBindingSource, std430) readonly buffer Source { uint source[]; };
layout(set = 0, binding = kRadixBindingDestination, std430) writeonly buffer Destination { uint destination[]; };
layout(set = 0, binding = kRadixBindingHistogram, std430) readonly buffer Histogram { uint histogram[]; };

layout(push_constant) uniform Push { RadixSortPush push; };

shared uint nextSlot[kRadixDigits];

void main() {
    uint block = gl_WorkGroupID.x;
    uint lane = gl_SubgroupInvocationID;
    for (uint digit = lane; digit < kRadixDigits; digit += gl_SubgroupSize)
        nextSlot[digit] = histogram[digit * push.blockCount + block];
    barrier();
    uint end = min(push.count, (block + 1u) * kRadixBlockSize);
    for (uint first = block * kRadixBlockSize; first < end; first += gl_SubgroupSize) {
        uint i = first + lane;
        bool valid = i < end;
        uint key = valid ? source[i] : 0u;
        uint digit = (key >> push.shift) & 0xffu;
        uvec4 same = subgroupBallot(valid);
        for (uint bit = 0u; bit < 8u; ++bit) {
            bool set = ((digit >> bit) & 1u) != 0u;
            uvec4 withBit = subgroupBallot(set);
            same &= set ? withBit : ~withBit;
        }
        uint rank = subgroupBallotExclusiveBitCount(same);
        uint slot = nextSlot[digit] + rank;
        barrier();  // every lane has read its digit's slot before the last one moves it on
        if (valid) {
            destination[slot] = key;
            destination[push.count + slot] = source[push.count + i];
            if (rank + 1u == subgroupBallotBitCount(same)) nextSlot[digit] = slot + 1u;
        }
        barrier();
    }
}
