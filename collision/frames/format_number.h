// Numbers in messages: the shortest readable form ("1e-06", "0.25"), not std::to_string's
// fixed six decimals ("0.000001").
#pragma once

#include <cstdio>
#include <string>

namespace vkc {

inline std::string formatNumber(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

}  // namespace vkc
