#pragma once
// File ▸ Export of a chart tab at a physical size: a preset (one column, two columns, a slide) or a width and height in
// in, cm, mm or pt (px for PNG), the font size, and the PNG's resolution, with a preview drawn by the code that
// writes the file (the chart laid out as `ckpt render` lays it out), so the preview is what is written. The charts
// exported are fresh copies of the tab's: the window's own are never laid out for paper.
#include "plots/printsize.h"

#include <QDialog>
#include <QImage>
#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QFormLayout;
class QHBoxLayout;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;
class QTimer;
class QPushButton;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // Copies of the charts to export, top to bottom (one, or two stacked), each a view holding one QCustomPlot.
    using MakeCharts = std::function<std::vector<std::unique_ptr<QWidget>>()>;
    ExportDialog(MakeCharts make, const QString& defaultPath, QWidget* parent = nullptr);
    ~ExportDialog() override;

    void setFormat(const QString& format); // pdf, svg or png
    QString format() const;
    void setPreset(const QString& name);                            // column, two-column or slide
    QString preset() const;                                         // the preset the fields hold, or "custom"
    void setSize(double width, double height, const QString& unit); // unit: in, cm, mm, pt, px
    void setFontSize(double pt);
    void setDpi(int dpi);
    PrintSize printSize() const; // what the fields say
    int dpi() const;
    QString problem() const; // why the fields cannot be exported (then Export is disabled), else empty

    QImage preview() const { return m_preview; } // the last preview drawn
    QString fitNote() const;                     // what the page made of the text in the last preview, or empty
    QString exportTo(const QString& path) const; // writes the file; the error, or empty
    QString exportedPath() const { return m_exported; }

public slots:
    void refreshPreview();

private:
    void buildFormatFields(QFormLayout* form); // the format and the preset
    void buildSizeFields(QFormLayout* form);   // the width, height and unit, the font size and the resolution
    void buildMessageAndButtons(QFormLayout* form);
    void buildPreview(QHBoxLayout* outer);
    void connectFields(); // each field's change to the others and the preview
    void fieldsChanged();
    void chooseFileAndExport();
    QString drawInto(const QString& path, const PrintSize& size, double dpi, QString* fitNote = nullptr) const;

    MakeCharts m_make;
    QString m_defaultPath, m_exported;
    QComboBox* m_format;
    QComboBox* m_preset;
    QDoubleSpinBox* m_width;
    QDoubleSpinBox* m_height;
    QComboBox* m_unit;
    QDoubleSpinBox* m_font;
    QSpinBox* m_dpi;
    QLabel* m_previewLabel;
    QLabel* m_message;
    QLabel* m_fitNote;
    QPushButton* m_export;
    QTimer* m_debounce;
    QImage m_preview;
    bool m_updating = false; // fields set by a preset or a unit change, not by the user
};
