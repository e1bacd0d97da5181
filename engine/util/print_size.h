#pragma once
// The physical size of an exported chart: `3.5inx2.4in`, `8.9cmx6cm`, `252x173` (points), `1600pxx900px` (PNG),
// and the presets a paper or a talk uses. Plain C++, so the CLI and the explorer read sizes the same way.
#include <string>

struct PrintSize {
    double width_pt = 252;  // one column: 3.5 in
    double height_pt = 180; // 2.5 in
    double font_pt = 8;
    bool pixels = false; // given in px: for PNG only, width_pt/height_pt then hold pixels
};

// `WxH`, each a number with in, cm, mm, pt or px; a bare number is points, or pixels when `bareIsPixels` (a PNG, as
// `--size 1600x900` always meant). Empty on success, else what was wrong.
std::string parsePrintSize(const std::string& text, PrintSize& size, bool bareIsPixels = false);
// column (3.5 × 2.5 in, 8 pt), two-column (7 × 3 in, 8 pt), slide (10 × 5.625 in, 16 pt). False for another name.
bool printPreset(const std::string& name, PrintSize& size);
