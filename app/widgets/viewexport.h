#pragma once
// Exports of what is not one chart: the graph view's picture, and charts stacked in one image (Side by side, the
// trainer's predicted and measured timelines). PDF, SVG (QSvgGenerator) or PNG by the file's extension, saved
// atomically like every chart; the error names the file, or empty.
#include <QList>
#include <QString>

class QGraphicsScene;
class QCustomPlot;

// The whole scene fitted into width × height (its aspect kept, centred) on white.
QString exportScene(QGraphicsScene* scene, const QString& path, int width, int height);
// The plots top to bottom, sharing the height equally; each is drawn as exportChart would draw it at its share.
QString exportStacked(const QList<QCustomPlot*>& plots, const QString& path, int width, int height);
