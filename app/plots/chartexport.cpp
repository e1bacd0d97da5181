#include "chartexport.h"

#include "chartstyle.h"
#include "printlayout.h"
#include "printsize.h"
#include "util/files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <cmath>
#include <memory>
#include <qcustomplot.h>
#include <vector>

// The drawn file (in a private folder) saved over `path` atomically.
static QString saveDrawn(bool ok, const QString& drawn, const QString& path);

QString exportChart(QCustomPlot* plot, const QString& path, int width, int height) {
    if (!plot) return QObject::tr("%1: nothing to export").arg(path);
    if (width < 16 || height < 16 || width > 20000 || height > 20000)
        return QObject::tr("%1: the size %2×%3 is out of range (16 to 20000 pixels)").arg(path).arg(width).arg(height);
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext != "pdf" && ext != "png" && ext != "svg")
        return QObject::tr("%1: unknown chart format '%2' (use .pdf, .svg or .png)").arg(path, ext);
    // QCustomPlot and QPrinter write straight to a path, so they write into a private folder first and the result
    // is saved like every other file (a unique temporary beside the destination, renamed over it): an interrupted or
    // failed export never leaves half a chart, and a link in the destination's folder is not followed.
    QTemporaryDir scratch;
    if (!scratch.isValid()) return QObject::tr("%1: no temporary folder to draw the chart in").arg(path);
    const QString drawn = scratch.filePath("chart." + ext);
    const PaperColours paper(plot); // black on white for papers, whatever the window's style
    bool ok = false;
    if (ext == "pdf") {
        ok = plot->savePdf(drawn, width, height, QCP::epNoCosmetic);
    } else if (ext == "png") {
        ok = plot->savePng(drawn, width, height, 1.0);
    } else {
        QSvgGenerator svg;
        svg.setFileName(drawn);
        svg.setSize(QSize(width, height));
        svg.setViewBox(QRect(0, 0, width, height));
        svg.setTitle(QStringLiteral("Checkpoint Explorer chart"));
        QCPPainter painter;
        if (painter.begin(&svg)) {
            plot->toPainter(&painter, width, height);
            ok = painter.end();
        }
    }
    return saveDrawn(ok, drawn, path);
}

namespace {
// Layout units to a PNG's pixels: a size in px is laid out at 96 per inch, one in points at 72.
double pngScale(const PrintSize& size, double dpi) {
    return size.pixels ? 96.0 / 72.0 : dpi / 72.0;
}
} // namespace

QString pngTooLarge(const PrintSize& size, double dpi) {
    const QSize page = layoutSize(size);
    const double scale = pngScale(size, dpi);
    const long long w = std::llround(page.width() * scale), h = std::llround(page.height() * scale);
    if (w <= kMaxPngSide && h <= kMaxPngSide) return {};
    return QObject::tr("a PNG of %1 × %2 px is more than %3 px a side: lower the dpi or the size")
        .arg(w)
        .arg(h)
        .arg(kMaxPngSide);
}

QSize layoutSize(const PrintSize& size) {
    // With px, the layout is made at 96 px per inch so fonts keep their point size on screen.
    const double unit = size.pixels ? 72.0 / 96.0 : 1.0;
    return QSize(int(std::lround(size.width_pt * unit)), int(std::lround(size.height_pt * unit)));
}

QString exportChart(QCustomPlot* plot, const QString& path, const PrintSize& size, double dpi, PrintFit* fit) {
    if (!plot) return QObject::tr("%1: nothing to export").arg(path);
    const QSize page = layoutSize(size);
    const PrintFit fitted = fitForPrint(plot, page.width(), page.height(), size.font_pt);
    if (fit) *fit = fitted;
    return exportPanels({ChartPanel{plot, QRect(QPoint(0, 0), page)}}, path, size, dpi);
}

QString exportPanels(const QList<ChartPanel>& panels, const QString& path, const PrintSize& size, double dpi) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext != "pdf" && ext != "png" && ext != "svg")
        return QObject::tr("%1: unknown chart format '%2' (use .pdf, .svg or .png)").arg(path, ext);
    if (size.pixels && ext != "png")
        return QObject::tr("%1: a size in px is for PNG; give PDF and SVG sizes in in, cm, mm or pt").arg(path);
    if (dpi < 36 || dpi > 2400) return QObject::tr("%1: --dpi %2 is out of range (36 to 2400)").arg(path).arg(dpi);
    if (ext == "png")
        if (QString why = pngTooLarge(size, dpi); !why.isEmpty()) return path + ": " + why;
    const QSize page = layoutSize(size);
    const int wi = page.width(), hi = page.height();
    // Black on white for papers, whatever the window's style; each chart gets its colours back after.
    std::vector<std::unique_ptr<PaperColours>> paper;
    for (const ChartPanel& p : panels)
        paper.push_back(std::make_unique<PaperColours>(p.plot));
    QTemporaryDir scratch;
    if (!scratch.isValid()) return QObject::tr("%1: no temporary folder to draw the chart in").arg(path);
    const QString drawn = scratch.filePath("chart." + ext);
    // Each chart in its rectangle; a chart draws from its own origin, so the painter moves there.
    auto drawAll = [&](QCPPainter& painter) {
        for (const ChartPanel& p : panels) {
            painter.save();
            painter.translate(p.rect.topLeft());
            p.plot->toPainter(&painter, p.rect.width(), p.rect.height());
            painter.restore();
        }
    };
    bool ok = false;
    if (ext == "png") {
        const double scale = pngScale(size, dpi);
        QImage image(int(std::lround(wi * scale)), int(std::lround(hi * scale)), QImage::Format_RGB32);
        image.fill(Qt::white);
        const int dotsPerMetre = int(std::lround((size.pixels ? 96.0 : dpi) / 0.0254));
        image.setDotsPerMeterX(dotsPerMetre);
        image.setDotsPerMeterY(dotsPerMetre);
        QCPPainter painter;
        if (painter.begin(&image)) {
            // Scaled up, pens keep their width in points (as QCustomPlot::savePng does).
            if (scale > 1) painter.setMode(QCPPainter::pmNonCosmetic);
            painter.scale(scale, scale);
            drawAll(painter);
            ok = painter.end() && image.save(drawn, "PNG");
        }
    } else {
        // Drawn in points (a 72-dpi device), so a font of F points is F points on the page.
        QCPPainter painter;
        QPdfWriter pdf(drawn);
        QSvgGenerator svg;
        if (ext == "pdf") {
            // Qt writes the page box in whole points, so a size is rounded to the nearest point (3.5inx2.4in: 252 x
            // 173).
            pdf.setPageSize(QPageSize(QSize(wi, hi), QPageSize::Point, {}, QPageSize::ExactMatch));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            pdf.setResolution(72);
            pdf.setCreator(QStringLiteral("Checkpoint Explorer"));
            ok = painter.begin(&pdf);
        } else {
            svg.setFileName(drawn);
            svg.setResolution(72);
            svg.setSize(QSize(wi, hi));
            svg.setViewBox(QRect(0, 0, wi, hi));
            svg.setTitle(QStringLiteral("Checkpoint Explorer chart"));
            ok = painter.begin(&svg);
        }
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            drawAll(painter);
            ok = painter.end();
        }
    }
    return saveDrawn(ok, drawn, path);
}

static QString saveDrawn(bool ok, const QString& drawn, const QString& path) {
    QFile file(drawn);
    if (!ok || !file.open(QIODevice::ReadOnly) || file.size() == 0)
        return QObject::tr("%1: could not draw the chart").arg(path);
    const QByteArray bytes = file.readAll();
    auto saved = ckpt::writeTextFileAtomic(path.toStdString(), bytes.toStdString());
    if (!saved) return QString::fromStdString(saved.error());
    return {};
}

QString exportCharts(const QList<QPair<QString, QCustomPlot*>>& charts, const QString& dir, const QString& format,
                     int width, int height) {
    QDir d(dir);
    if (!d.exists() && !d.mkpath(".")) return QObject::tr("%1: cannot create the folder").arg(dir);
    for (const auto& [name, plot] : charts) {
        QString err = exportChart(plot, d.filePath(name + "." + format), width, height);
        if (!err.isEmpty()) return err;
    }
    return {};
}
