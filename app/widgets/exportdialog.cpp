#include "exportdialog.h"

#include "plots/chartexport.h"
#include "plots/printlayout.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace {

const char* const kPresets[] = {"column", "two-column", "slide"};

// Points per unit; px are layout pixels, 96 to the inch (chartexport.h: layoutSize).
double pointsPer(const QString& unit) {
    if (unit == "in") return 72;
    if (unit == "cm") return 72 / 2.54;
    if (unit == "mm") return 72 / 25.4;
    if (unit == "px") return 72.0 / 96;
    return 1; // pt
}

} // namespace

ExportDialog::ExportDialog(MakeCharts make, const QString& defaultPath, QWidget* parent)
    : QDialog(parent), m_make(std::move(make)), m_defaultPath(defaultPath) {
    setWindowTitle(tr("Export the chart"));
    auto* outer = new QHBoxLayout(this);
    auto* form = new QFormLayout;
    outer->addLayout(form);
    buildFormatFields(form);
    buildSizeFields(form);
    buildMessageAndButtons(form);
    buildPreview(outer);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(200);
    connect(m_debounce, &QTimer::timeout, this, &ExportDialog::refreshPreview);

    setFormat(QFileInfo(defaultPath).suffix().toLower());
    setPreset("column");
    setDpi(300);

    connectFields();
    m_dpi->setEnabled(format() == "png");
    m_unit->setItemData(4, format() == "png" ? QVariant() : QVariant(0), Qt::UserRole - 1);
    fieldsChanged();
}

void ExportDialog::buildFormatFields(QFormLayout* form) {
    m_format = new QComboBox(this);
    m_format->addItem("PDF", "pdf");
    m_format->addItem("SVG", "svg");
    m_format->addItem("PNG", "png");
    m_format->setToolTip(tr("PDF and SVG keep text and lines sharp at any zoom; PNG is a picture at the resolution "
                            "below"));
    form->addRow(tr("&Format"), m_format);

    m_preset = new QComboBox(this);
    m_preset->addItem(tr("One column (3.5 × 2.5 in, 8 pt)"), "column");
    m_preset->addItem(tr("Two columns (7 × 3 in, 8 pt)"), "two-column");
    m_preset->addItem(tr("Slide (10 × 5.625 in, 16 pt)"), "slide");
    m_preset->addItem(tr("Custom"), "custom");
    m_preset->setToolTip(tr("The sizes papers and talks use; the same presets as `ckpt render --preset`"));
    form->addRow(tr("&Preset"), m_preset);
}

void ExportDialog::buildSizeFields(QFormLayout* form) {
    auto* sizeRow = new QHBoxLayout;
    m_width = new QDoubleSpinBox(this);
    m_height = new QDoubleSpinBox(this);
    for (QDoubleSpinBox* b : {m_width, m_height}) {
        b->setRange(0, 100000);
        b->setDecimals(3);
        b->setKeyboardTracking(false);
    }
    m_width->setToolTip(tr("The page's width: the figure is drawn for exactly this size, text at the font size"));
    m_height->setToolTip(tr("The page's height"));
    m_unit = new QComboBox(this);
    for (const char* u : {"in", "cm", "mm", "pt", "px"})
        m_unit->addItem(u, u);
    m_unit->setToolTip(tr("Inches, centimetres, millimetres, points (1/72 in); px is for PNG only"));
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel("×", this));
    sizeRow->addWidget(m_height);
    sizeRow->addWidget(m_unit);
    form->addRow(tr("&Size"), sizeRow);
    qobject_cast<QLabel*>(form->labelForField(sizeRow))->setBuddy(m_width);

    m_font = new QDoubleSpinBox(this);
    m_font->setRange(0, 200);
    m_font->setDecimals(1);
    m_font->setSuffix(" pt");
    m_font->setKeyboardTracking(false);
    m_font->setToolTip(tr("The size of every text on the page; no text is drawn smaller"));
    form->addRow(tr("F&ont"), m_font);

    m_dpi = new QSpinBox(this);
    m_dpi->setRange(36, 2400);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setToolTip(tr("Pixels per inch of a PNG (300 for print, 150 for the screen)"));
    form->addRow(tr("&Resolution"), m_dpi);
}

void ExportDialog::buildMessageAndButtons(QFormLayout* form) {
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setStyleSheet("color: #b00020");
    form->addRow(m_message);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_export = buttons->addButton(tr("&Export…"), QDialogButtonBox::AcceptRole);
    m_export->setToolTip(tr("Choose the file and write the figure as previewed"));
    connect(m_export, &QPushButton::clicked, this, &ExportDialog::chooseFileAndExport);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

void ExportDialog::buildPreview(QHBoxLayout* outer) {
    auto* previewBox = new QVBoxLayout;
    auto* previewTitle = new QLabel(tr("Preview (the page, scaled to fit)"), this);
    m_previewLabel = new QLabel(this);
    m_previewLabel->setMinimumSize(460, 340);
    m_previewLabel->setAlignment(Qt::AlignCenter);
    m_previewLabel->setStyleSheet("background: #808080");
    m_previewLabel->setToolTip(tr("Drawn by the code that writes the file"));
    previewBox->addWidget(previewTitle);
    previewBox->addWidget(m_previewLabel, 1);
    m_fitNote = new QLabel(this); // the text shrunk to fit the page, or a page too small for the chart
    m_fitNote->setWordWrap(true);
    previewBox->addWidget(m_fitNote);
    outer->addLayout(previewBox, 1);
}

void ExportDialog::connectFields() {
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        // px is for PNG: a PDF or SVG gets the same size in inches.
        if (format() != "png" && m_unit->currentData().toString() == "px") {
            const PrintSize s = printSize();
            setSize(s.width_pt / 96, s.height_pt / 96, "in");
        }
        m_unit->setItemData(4, format() == "png" ? QVariant() : QVariant(0), Qt::UserRole - 1); // px on/off
        m_dpi->setEnabled(format() == "png");
        fieldsChanged();
    });
    connect(m_preset, &QComboBox::currentIndexChanged, this, [this] {
        const QString name = m_preset->currentData().toString();
        if (name != "custom") setPreset(name);
    });
    connect(m_unit, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updating) return;
        // The same size in the new unit.
        const QString unit = m_unit->currentData().toString();
        const double w = m_width->property("points").toDouble(), h = m_height->property("points").toDouble();
        setSize(w / pointsPer(unit), h / pointsPer(unit), unit);
    });
    for (QDoubleSpinBox* b : {m_width, m_height, m_font})
        connect(b, &QDoubleSpinBox::valueChanged, this, [this] {
            if (!m_updating) fieldsChanged();
        });
    connect(m_dpi, &QSpinBox::valueChanged, this, [this] {
        if (!m_updating) fieldsChanged();
    });
}

ExportDialog::~ExportDialog() = default;

void ExportDialog::setFormat(const QString& format) {
    const int i = m_format->findData(format);
    m_format->setCurrentIndex(i >= 0 ? i : 0);
}

QString ExportDialog::format() const {
    return m_format->currentData().toString();
}

void ExportDialog::setPreset(const QString& name) {
    PrintSize s;
    if (!printPreset(name.toStdString(), s)) return;
    m_updating = true;
    m_font->setValue(s.font_pt);
    m_updating = false;
    setSize(s.width_pt / 72, s.height_pt / 72, "in");
}

QString ExportDialog::preset() const {
    const PrintSize now = printSize();
    for (const char* name : kPresets) {
        PrintSize p;
        printPreset(name, p);
        if (!now.pixels && std::abs(now.width_pt - p.width_pt) < 0.5 && std::abs(now.height_pt - p.height_pt) < 0.5 &&
            std::abs(now.font_pt - p.font_pt) < 0.05)
            return name;
    }
    return "custom";
}

void ExportDialog::setSize(double width, double height, const QString& unit) {
    m_updating = true;
    const int u = m_unit->findData(unit);
    if (u >= 0) m_unit->setCurrentIndex(u);
    m_width->setValue(width);
    m_height->setValue(height);
    m_updating = false;
    fieldsChanged();
}

void ExportDialog::setFontSize(double pt) {
    m_font->setValue(pt);
}

void ExportDialog::setDpi(int dpi) {
    m_dpi->setValue(dpi);
}

int ExportDialog::dpi() const {
    return m_dpi->value();
}

PrintSize ExportDialog::printSize() const {
    const QString unit = m_unit->currentData().toString();
    PrintSize s;
    s.pixels = unit == "px";
    // px: PrintSize holds the pixels themselves.
    const double per = s.pixels ? 1 : pointsPer(unit);
    s.width_pt = m_width->value() * per;
    s.height_pt = m_height->value() * per;
    s.font_pt = m_font->value();
    return s;
}

QString ExportDialog::problem() const {
    const PrintSize s = printSize();
    if (s.width_pt <= 0 || s.height_pt <= 0) return tr("The width and the height must be above zero.");
    const double w = s.pixels ? s.width_pt * 0.75 : s.width_pt, h = s.pixels ? s.height_pt * 0.75 : s.height_pt;
    if (w < 36 || h < 36) return tr("The page is smaller than half an inch: nothing would read on it.");
    if (w > 14400 || h > 14400) return tr("The page is larger than 200 inches.");
    if (s.font_pt < 4 || s.font_pt > 72) return tr("The font size must be between 4 and 72 pt.");
    if (s.pixels && format() != "png") return tr("px is for PNG; give a PDF or SVG size in in, cm, mm or pt.");
    if (format() == "png")
        if (QString why = pngTooLarge(s, dpi()); !why.isEmpty()) return why.left(1).toUpper() + why.mid(1) + ".";
    return {};
}

void ExportDialog::fieldsChanged() {
    // The size in points, so that a change of unit converts what is there.
    const QString unit = m_unit->currentData().toString();
    m_width->setProperty("points", m_width->value() * pointsPer(unit));
    m_height->setProperty("points", m_height->value() * pointsPer(unit));
    {
        const QSignalBlocker quiet(m_preset);
        m_preset->setCurrentIndex(m_preset->findData(preset()));
    }
    const QString why = problem();
    m_message->setText(why);
    m_export->setEnabled(why.isEmpty());
    m_debounce->start();
}

QString ExportDialog::drawInto(const QString& path, const PrintSize& size, double dpi, QString* fitNote) const {
    std::vector<std::unique_ptr<QWidget>> views = m_make();
    if (views.empty()) return tr("%1: nothing to export").arg(path);
    const QSize page = layoutSize(size);
    QList<ChartPanel> panels;
    PrintFit all{size.font_pt, true};
    const int n = int(views.size());
    for (int i = 0; i < n; ++i) {
        QCustomPlot* plot = views[std::size_t(i)]->findChild<QCustomPlot*>();
        if (!plot) return tr("%1: nothing to export").arg(path);
        const int top = page.height() * i / n, bottom = page.height() * (i + 1) / n;
        const QRect cell(0, top, page.width(), bottom - top);
        views[std::size_t(i)]->resize(cell.size());
        const PrintFit fit = fitForPrint(plot, cell.width(), cell.height(), size.font_pt);
        all.legend_pt = std::min(all.legend_pt, fit.legend_pt);
        all.fits = all.fits && fit.fits;
        panels << ChartPanel{plot, cell};
    }
    if (fitNote) *fitNote = printFitNote(all, size);
    return exportPanels(panels, path, size, dpi);
}

void ExportDialog::refreshPreview() {
    if (!problem().isEmpty()) {
        m_preview = QImage();
        m_previewLabel->setPixmap(QPixmap());
        m_previewLabel->setText(tr("(no preview)"));
        m_fitNote->clear();
        return;
    }
    QTemporaryDir scratch;
    const QString file = scratch.filePath("preview.png");
    const PrintSize s = printSize();
    // About as wide as the preview's room: a column at some 130 dpi, a slide at some 45.
    const double inches = s.pixels ? s.width_pt / 96 : s.width_pt / 72;
    const double dpi = std::clamp(m_previewLabel->minimumWidth() / std::max(inches, 0.1), 36.0, 300.0);
    QString note;
    if (QString err = drawInto(file, s, dpi, &note); !err.isEmpty()) {
        m_previewLabel->setText(err);
        m_fitNote->clear();
        return;
    }
    m_fitNote->setText(note);
    m_preview = QImage(file);
    const QSize room = m_previewLabel->size().expandedTo(m_previewLabel->minimumSize()) - QSize(16, 16);
    m_previewLabel->setPixmap(
        QPixmap::fromImage(m_preview.size().boundedTo(room) == m_preview.size()
                               ? m_preview
                               : m_preview.scaled(room, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
}

QString ExportDialog::fitNote() const {
    return m_fitNote->text();
}

QString ExportDialog::exportTo(const QString& path) const {
    if (QString why = problem(); !why.isEmpty()) return path + ": " + why;
    return drawInto(path, printSize(), dpi());
}

void ExportDialog::chooseFileAndExport() {
    const QString ext = format();
    QString start = m_defaultPath;
    if (QFileInfo(start).suffix().toLower() != ext) start = QFileInfo(start).completeBaseName() + "." + ext;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export the chart"), start, ext.toUpper() + " (*." + ext + ")");
    if (path.isEmpty()) return;
    if (QString err = exportTo(path); !err.isEmpty()) {
        m_message->setText(err);
        return;
    }
    m_exported = path;
    accept();
}
