#include "schedulerstyle.h"

#include "schedulers/graph_registry.h"
#include "schedulers/registry.h"

#include <QPainterPath>
#include <array>
#include <cmath>
#include <functional>
#include <optional>

namespace {

// Okabe and Ito's colour-blind-safe palette without its yellow (too faint on white), plus a purple and a brown.
const QColor kBlack(0, 0, 0), kOrange(230, 159, 0), kSky(86, 180, 233), kGreen(0, 158, 115), kBlue(0, 114, 178),
    kVermillion(213, 94, 0), kPurplePink(204, 121, 167), kGrey(110, 110, 110), kPurple(120, 60, 160),
    kBrown(140, 90, 40);

struct Entry {
    const char* name;
    QColor color;
    QCPScatterStyle::ScatterShape marker;
    Qt::PenStyle dash;
    // With ssCustom: 0 a pentagon, 1 a bow tie, 2 a hexagon, 3 a triangle pointing right, 4 one pointing left, 5 an
    // hourglass, 6 an octagon, 7 a pentagon point down, 8 a flat bar, 9 an arrow head pointing up.
    int custom = 0;
};

// Chain schedulers first, then the graph schedulers; a name in both registries (store-all) has one look.
const Entry kTable[] = {
    {"store-all", kBlack, QCPScatterStyle::ssCircle, Qt::SolidLine},
    {"periodic", kGrey, QCPScatterStyle::ssPlus, Qt::DashDotLine},
    {"revolve", kBlue, QCPScatterStyle::ssSquare, Qt::SolidLine},
    {"rotor", kVermillion, QCPScatterStyle::ssTriangle, Qt::DashLine},
    {"bptt-dp", kGreen, QCPScatterStyle::ssDiamond, Qt::DotLine},
    {"multistage", kPurplePink, QCPScatterStyle::ssTriangleInverted, Qt::DashLine},
    {"async-multistage", kOrange, QCPScatterStyle::ssStar, Qt::DashDotLine},
    {"double-checkpointing", kPurple, QCPScatterStyle::ssCrossSquare, Qt::DotLine},
    {"offload-all", kSky, QCPScatterStyle::ssDisc, Qt::DashDotDotLine},
    {"offload-dp", kBrown, QCPScatterStyle::ssCustom, Qt::DashDotDotLine, 1},
    {"chen-sqrt", kSky, QCPScatterStyle::ssCross, Qt::DashLine},
    {"chen-greedy", kBrown, QCPScatterStyle::ssPlusCircle, Qt::SolidLine},
    {"reversible", kGreen, QCPScatterStyle::ssCrossCircle, Qt::DashDotLine},
    {"dtr", kOrange, QCPScatterStyle::ssPlusSquare, Qt::DotLine},
    {"lower-set-dp", kBlue, QCPScatterStyle::ssPeace, Qt::DashLine},
    {"checkmate", kVermillion, QCPScatterStyle::ssCustom, Qt::SolidLine},
    {"monet", kPurple, QCPScatterStyle::ssCustom, Qt::DashLine, 2},
    {"join-dp", kGreen, QCPScatterStyle::ssCustom, Qt::SolidLine, 3}, // branches meeting at a point
    // The frameworks' policies (engine/schedulers/policies.h).
    {"full-ac", kGrey, QCPScatterStyle::ssCustom, Qt::SolidLine, 4},
    {"selective-ac", kGrey, QCPScatterStyle::ssCustom, Qt::DashLine, 5},
    {"memory-budget", kPurplePink, QCPScatterStyle::ssCustom, Qt::SolidLine, 6},
    {"min-cut", kPurplePink, QCPScatterStyle::ssCustom, Qt::DotLine, 7},
    {"jax-policy", kSky, QCPScatterStyle::ssCustom, Qt::SolidLine, 8},
    {"deepspeed-offload", kOrange, QCPScatterStyle::ssCustom, Qt::SolidLine, 9},
};

const Entry* entryOf(const std::string& name) {
    for (const Entry& e : kTable)
        if (name == e.name) return &e;
    return nullptr;
}

// "bptt-dp hsm": a scheduler with one of the choices its registry entry lists. The default choice looks like the
// scheduler itself; each other choice keeps the scheduler's hue, darker or lighter, with a marker and a dash of its
// own, so the variants read as one family and stay apart where they coincide.
std::optional<SchedulerStyle> variantStyle(const std::string& name) {
    const std::size_t space = name.find(' ');
    if (space == std::string::npos) return std::nullopt;
    const std::string base = name.substr(0, space), choice = name.substr(space + 1);
    const Entry* e = entryOf(base);
    if (!e) return std::nullopt;
    const std::vector<ckpt::ParamSpec>* specs = nullptr;
    if (const auto* s = ckpt::findScheduler(base)) specs = &s->params;
    if (const auto* g = ckpt::findGraphScheduler(base); g && !specs) specs = &g->params;
    if (!specs) return std::nullopt;
    for (const ckpt::ParamSpec& p : *specs) {
        if (p.type != ckpt::ParamType::Choice) continue;
        int rank = 0; // among the choices that are not the default
        for (const std::string& c : p.choices) {
            if (c == choice && c == p.default_value)
                return SchedulerStyle{e->color, e->marker, e->dash, true, e->custom};
            if (c == choice) {
                // A cross first: drawn over another series' closed marker at the same point, both stay visible.
                static const QCPScatterStyle::ScatterShape markers[] = {
                    QCPScatterStyle::ssCross,  QCPScatterStyle::ssTriangle, QCPScatterStyle::ssCircle,
                    QCPScatterStyle::ssSquare, QCPScatterStyle::ssPlus,     QCPScatterStyle::ssTriangleInverted};
                static const Qt::PenStyle dashes[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
                QCPScatterStyle::ScatterShape marker = markers[rank % 6];
                if (marker == e->marker) marker = markers[(rank + 3) % 6];
                Qt::PenStyle dash = dashes[rank % 4];
                if (dash == e->dash) dash = dashes[(rank + 2) % 4];
                // Alternately darker and lighter (mixed with white, which keeps the hue).
                const QColor& c0 = e->color;
                const double w = 0.3 + 0.1 * (rank / 2);
                QColor color = rank % 2 == 0 ? c0.darker(160 + 40 * (rank / 2))
                                             : QColor::fromRgbF(c0.redF() + (1 - c0.redF()) * w,
                                                                c0.greenF() + (1 - c0.greenF()) * w,
                                                                c0.blueF() + (1 - c0.blueF()) * w);
                return SchedulerStyle{color, marker, dash, true};
            }
            if (c != p.default_value) ++rank;
        }
    }
    return std::nullopt;
}

} // namespace

SchedulerStyle schedulerStyle(const std::string& name) {
    if (const Entry* e = entryOf(name)) return {e->color, e->marker, e->dash, true, e->custom};
    if (auto v = variantStyle(name)) return *v;
    // Not in the table yet (a new scheduler): a look that depends on the name only, never on run order.
    static const std::array<QColor, 10> colors = {kBlack,      kOrange,     kSky,  kGreen,  kBlue,
                                                  kVermillion, kPurplePink, kGrey, kPurple, kBrown};
    static const std::array<Qt::PenStyle, 4> dashes = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    const std::size_t h = std::hash<std::string>()(name);
    return {colors[h % colors.size()], QCPScatterStyle::ssDiamond, dashes[(h / colors.size()) % dashes.size()], false};
}

namespace {

// The shapes QCustomPlot lacks that read as closed and apart from the others, in QCustomPlot's custom-shape units (a
// marker of size 6 spans 6): a pentagon (point up), a hexagon (flat top), a bow tie (two triangles meeting at the
// centre), and a triangle pointing right.
QPainterPath pentagon() {
    QPainterPath path;
    for (int k = 0; k < 5; ++k) {
        const double a = -M_PI / 2 + k * 2 * M_PI / 5;
        const QPointF p(3.3 * std::cos(a), 3.3 * std::sin(a) + 0.4);
        k == 0 ? path.moveTo(p) : path.lineTo(p);
    }
    path.closeSubpath();
    return path;
}

QPainterPath hexagon() {
    QPainterPath path;
    for (int k = 0; k < 6; ++k) {
        const QPointF p(3.2 * std::cos(k * M_PI / 3), 3.2 * std::sin(k * M_PI / 3));
        k == 0 ? path.moveTo(p) : path.lineTo(p);
    }
    path.closeSubpath();
    return path;
}

// A closed outline through the given corners.
QPainterPath closedPath(std::initializer_list<QPointF> corners) {
    QPainterPath path(*corners.begin());
    for (auto p = corners.begin() + 1; p != corners.end(); ++p)
        path.lineTo(*p);
    path.closeSubpath();
    return path;
}

QPainterPath rightTriangle() {
    return closedPath({{-2.6, -3.2}, {3.4, 0}, {-2.6, 3.2}});
}

QPainterPath bowTie() {
    return closedPath({{-3.2, -2.8}, {3.2, 2.8}, {3.2, -2.8}, {-3.2, 2.8}});
}

QPainterPath leftTriangle() {
    return closedPath({{2.6, -3.2}, {-3.4, 0}, {2.6, 3.2}});
}

QPainterPath hourglass() {
    return closedPath({{-2.8, -3.2}, {2.8, -3.2}, {-2.8, 3.2}, {2.8, 3.2}});
}

QPainterPath octagon() {
    QPainterPath path;
    for (int k = 0; k < 8; ++k) {
        const QPointF p(3.3 * std::cos(M_PI / 8 + k * M_PI / 4), 3.3 * std::sin(M_PI / 8 + k * M_PI / 4));
        k == 0 ? path.moveTo(p) : path.lineTo(p);
    }
    path.closeSubpath();
    return path;
}

QPainterPath pentagonDown() {
    QPainterPath path;
    for (int k = 0; k < 5; ++k) {
        const double a = M_PI / 2 + k * 2 * M_PI / 5;
        const QPointF p(3.3 * std::cos(a), 3.3 * std::sin(a) - 0.4);
        k == 0 ? path.moveTo(p) : path.lineTo(p);
    }
    path.closeSubpath();
    return path;
}

QPainterPath bar() {
    return closedPath({{-3.6, -1.6}, {3.6, -1.6}, {3.6, 1.6}, {-3.6, 1.6}});
}

QPainterPath arrowUp() {
    return closedPath({{0, -3.6}, {3.2, 3}, {0, 1.2}, {-3.2, 3}});
}

QPainterPath customShape(int custom) {
    switch (custom) {
    case 1:
        return bowTie();
    case 2:
        return hexagon();
    case 3:
        return rightTriangle();
    case 4:
        return leftTriangle();
    case 5:
        return hourglass();
    case 6:
        return octagon();
    case 7:
        return pentagonDown();
    case 8:
        return bar();
    case 9:
        return arrowUp();
    default:
        return pentagon();
    }
}

} // namespace

QPen schedulerPen(const SchedulerStyle& style, double width) {
    QPen pen(style.color, width, style.dash);
    pen.setCapStyle(Qt::FlatCap);
    return pen;
}

QCPScatterStyle schedulerScatter(const SchedulerStyle& style, double size) {
    // The marker's outline is solid even when the line is dashed, so the shape stays readable. Hollow: a chart
    // that marks proven results fills them itself (tradeoffview.cpp).
    if (style.marker == QCPScatterStyle::ssCustom)
        return QCPScatterStyle(customShape(style.custom), QPen(style.color, 1.2), Qt::NoBrush, size);
    return QCPScatterStyle(style.marker, QPen(style.color, 1.2), Qt::NoBrush, size);
}
