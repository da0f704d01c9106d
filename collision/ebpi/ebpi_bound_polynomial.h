// Method `ebpi` (paper 5): the error bound of one tile as a polynomial in the tile's size w x h,
// one coefficient per channel of the EBPI (the paper's Eq. 9, in its conservative form).
//
// The paper's Eq. 9 has seven terms because Eq. 8 multiplies each edge's bound by the fractional
// count l_x/w + l_y/h of tiles it crosses; that count is not conservative (a short edge across a
// tile corner touches up to four tiles with l_x/w + l_y/h near 0), so here an edge counts once in
// every pixel its closed segment touches and a tile sums its pixels. What remains per edge is the
// frustum bound of Eq. 7 (both of Alg. 2's cases) and the box bound of steep faces: five terms.
#pragma once

namespace vkc {

struct EbpiBoundPolynomial {
    double w2h = 0;  // w^2 h: case 1 of Alg. 2 (edge nearer the y axis), and steep-face slopes
    double wh2 = 0;  // w h^2: case 2 of Alg. 2 (edge nearer the x axis), and steep-face slopes
    double h3 = 0;   // h^3: case 1, the edge's slope across the tile (Eq. 7's beta term)
    double w3 = 0;   // w^3: case 2, the same with x and y swapped
    double wh = 0;   // w h: the depth of steep faces (the paper's d terms)

    // The bound, in volume units, of a tile of w x h (image-plane units) where the accumulated
    // edges touch it.
    double evaluate(double w, double h) const {
        return w * w * h * w2h + w * h * h * wh2 + h * h * h * h3 + w * w * w * w3 + w * h * wh;
    }

    EbpiBoundPolynomial operator*(double s) const { return {w2h * s, wh2 * s, h3 * s, w3 * s, wh * s}; }

    EbpiBoundPolynomial& operator+=(const EbpiBoundPolynomial& o) {
        w2h += o.w2h;
        wh2 += o.wh2;
        h3 += o.h3;
        w3 += o.w3;
        wh += o.wh;
        return *this;
    }
};

}  // namespace vkc
