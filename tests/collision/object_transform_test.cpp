// Outward rounding to float (floatAtMost / floatAtLeast, done on the float's bits) against
// std::nextafter over every kind of double: exact floats, zeros, subnormals, both signs, values
// between and beyond float's range. Tier A: no device.
#include "collision/scene/object_transform.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace vkc {
namespace {

float nearestAtMost(double x) {
    const float f = float(x);
    return double(f) > x ? std::nextafter(f, -INFINITY) : f;
}

float nearestAtLeast(double x) {
    const float f = float(x);
    return double(f) < x ? std::nextafter(f, INFINITY) : f;
}

std::vector<double> valuesOfEveryKind() {
    constexpr float kDenorm = std::numeric_limits<float>::denorm_min();
    constexpr float kMax = std::numeric_limits<float>::max();
    std::vector<double> values = {0.0, -0.0, kDenorm, -kDenorm, 0.5 * kDenorm, -0.5 * kDenorm, 1.0, -1.0, 1e-40,
                                  -1e-40, double(kMax), -double(kMax), 1e39, -1e39, 1.0 + 1e-12, -1.0 - 1e-12,
                                  std::numeric_limits<double>::min()};
    std::mt19937_64 random(20261127);
    std::uniform_real_distribution<double> exponent(-160.0, 130.0), sign(-1.0, 1.0);
    for (int i = 0; i < 20000; ++i) values.push_back(std::copysign(std::exp2(exponent(random)), sign(random)));
    return values;
}

TEST(OutwardRounding, NearestFloatAtMostAndAtLeastOfEveryKindOfDouble) {
    for (double x : valuesOfEveryKind()) {
        EXPECT_EQ(floatAtMost(x), nearestAtMost(x)) << x;
        EXPECT_EQ(floatAtLeast(x), nearestAtLeast(x)) << x;
        EXPECT_LE(double(floatAtMost(x)), x) << x;
        EXPECT_GE(double(floatAtLeast(x)), x) << x;
    }
}

}  // namespace
}  // namespace vkc
