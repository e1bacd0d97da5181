#pragma once
// File > Import ONNX…: the model's data inputs as the file declares them, and the batch size and element type to
// import with (engine/io/onnx_import.h). The machine (compute speed, level 0 bandwidth) is the window's.
#include "io/onnx_import.h"

#include <QDialog>
#include <QMap>

class QComboBox;
class QSpinBox;

class OnnxImportDialog : public QDialog {
    Q_OBJECT
public:
    OnnxImportDialog(const QString& path, const std::vector<ckpt::OnnxInput>& inputs, QWidget* parent = nullptr);

    // What the dialog proposes before any change: batch 32 when an input's first dimension is not fixed (as a model
    // exported with a dynamic batch has it), else the file's own; 128 for every other dimension the file leaves open
    // (a sequence length "seq"); the file's element types.
    static ckpt::OnnxImportOptions defaults(const std::vector<ckpt::OnnxInput>& inputs);
    ckpt::OnnxImportOptions options() const; // batch, open dimensions and element size; the caller adds the machine

    QSpinBox* batch() const { return m_batch; }
    QComboBox* dtype() const { return m_dtype; }
    // The field of a dimension the file leaves open beyond the batch: by its symbol ("seq"), or "NAME:K" for the
    // unnamed dimension K of input NAME; null if there is none.
    QSpinBox* dimension(const QString& key) const { return m_open.value(key); }

private:
    std::vector<ckpt::OnnxInput> m_inputs;
    QSpinBox* m_batch;
    QComboBox* m_dtype;
    QMap<QString, QSpinBox*> m_open;
};
