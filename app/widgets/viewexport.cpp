#include "viewexport.h"

#include "util/files.h"

#include <QBuffer>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <functional>
#include <qcustomplot.h>

namespace {

// Draws into a document of the file's format in memory, then saves it over `path` in one step.
QString render(const QString& path, int width, int height, const std::function<void(QCPPainter&, bool vector)>& draw) {
    if (width < 16 || height < 16 || width > 20000 || height > 20000)
        return QObject::tr("%1: the size %2×%3 is out of range (16 to 20000 pixels)").arg(path).arg(width).arg(height);
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext != "pdf" && ext != "png" && ext != "svg")
        return QObject::tr("%1: unknown picture format '%2' (use .pdf, .svg or .png)").arg(path, ext);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    bool ok = false;
    QCPPainter painter;
    if (ext == "png") {
        QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        if (painter.begin(&image)) {
            draw(painter, false);
            ok = painter.end() && image.save(&buffer, "PNG");
        }
    } else {
        // Vector output: no pixmap caches, cosmetic pens kept as drawn.
        auto vector = [&](QPaintDevice* device) {
            if (!painter.begin(device)) return false;
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            painter.fillRect(QRect(0, 0, width, height), Qt::white);
            draw(painter, true);
            return painter.end();
        };
        if (ext == "svg") {
            QSvgGenerator svg;
            svg.setOutputDevice(&buffer);
            svg.setSize(QSize(width, height));
            svg.setViewBox(QRect(0, 0, width, height));
            svg.setTitle(QStringLiteral("Checkpoint Explorer"));
            ok = vector(&svg);
        } else {
            QPdfWriter pdf(&buffer);
            // One pixel is one point, as the charts' PDFs have it.
            pdf.setPageSize(QPageSize(QSize(width, height), QPageSize::Point, {}, QPageSize::ExactMatch));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            pdf.setResolution(72);
            pdf.setCreator(QStringLiteral("Checkpoint Explorer"));
            ok = vector(&pdf);
        }
    }
    if (!ok || bytes.isEmpty()) return QObject::tr("%1: could not draw the picture").arg(path);
    auto saved = ckpt::writeTextFileAtomic(path.toStdString(), bytes.toStdString());
    return saved ? QString() : QString::fromStdString(saved.error());
}

} // namespace

QString exportScene(QGraphicsScene* scene, const QString& path, int width, int height) {
    if (!scene || scene->items().isEmpty()) return QObject::tr("%1: there is no graph to export").arg(path);
    const QRectF source = scene->itemsBoundingRect().adjusted(-12, -12, 12, 12);
    return render(path, width, height, [&](QCPPainter& p, bool) {
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        scene->render(&p, QRectF(0, 0, width, height), source, Qt::KeepAspectRatio);
    });
}

QString exportStacked(const QList<QCustomPlot*>& plots, const QString& path, int width, int height) {
    if (plots.isEmpty() || plots.contains(nullptr)) return QObject::tr("%1: nothing to export").arg(path);
    const int n = int(plots.size());
    if (height / n < 16) return QObject::tr("%1: %2 pixels are too few for %3 charts").arg(path).arg(height).arg(n);
    return render(path, width, height, [&](QCPPainter& p, bool vector) {
        for (int i = 0, top = 0; i < n; ++i) {
            const int h = i + 1 < n ? height / n : height - top; // the last takes what rounding leaves
            if (vector) {
                p.save();
                p.translate(0, top);
                plots[i]->toPainter(&p, width, h);
                p.restore();
            } else {
                p.drawPixmap(0, top, plots[i]->toPixmap(width, h)); // as savePng draws a chart
            }
            top += h;
        }
    });
}
