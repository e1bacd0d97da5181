#include "onnximportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStringList>

namespace {

// "input: batch x 3 x 224 x 224"
QString describe(const ckpt::OnnxInput& in) {
    QStringList dims;
    for (std::size_t k = 0; k < in.dims.size(); ++k)
        dims << (in.dims[k] >= 0         ? QString::number(in.dims[k])
                 : in.symbols[k].empty() ? QStringLiteral("?")
                                         : QString::fromStdString(in.symbols[k]));
    return QString::fromStdString(in.name) + ": " + (dims.isEmpty() ? QObject::tr("a scalar") : dims.join(" × "));
}

} // namespace

OnnxImportDialog::OnnxImportDialog(const QString& path, const std::vector<ckpt::OnnxInput>& inputs, QWidget* parent)
    : QDialog(parent), m_batch(new QSpinBox(this)), m_dtype(new QComboBox(this)) {
    setWindowTitle(tr("Import %1").arg(QFileInfo(path).fileName()));
    auto* form = new QFormLayout(this);
    QStringList lines;
    for (const auto& in : inputs)
        lines << describe(in);
    auto* shown = new QLabel(lines.isEmpty() ? tr("none") : lines.join("\n"), this);
    shown->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Inputs:"), shown);
    // 0 keeps the file's own first dimension.
    m_batch->setRange(0, 1 << 20);
    m_batch->setSpecialValueText(tr("as in the file"));
    m_batch->setToolTip(tr("The first dimension of every input"));
    form->addRow(tr("&Batch size:"), m_batch);
    m_dtype->addItem(tr("as in the file"), 0);
    m_dtype->addItem("fp32", 4);
    m_dtype->addItem("fp16", 2);
    m_dtype->addItem("bf16", 2);
    m_dtype->setToolTip(tr("The element size of every floating-point tensor"));
    form->addRow(tr("&Element type:"), m_dtype);
    auto* note = new QLabel(tr("Times come from each operator's FLOPs and bytes moved on this window's machine (its "
                               "compute speed and level 0 bandwidth)."),
                            this);
    note->setWordWrap(true);
    form->addRow(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    const ckpt::OnnxImportOptions d = defaults(inputs);
    m_batch->setValue(int(d.batch));
}

ckpt::OnnxImportOptions OnnxImportDialog::defaults(const std::vector<ckpt::OnnxInput>& inputs) {
    ckpt::OnnxImportOptions o;
    for (const auto& in : inputs)
        if (!in.dims.empty() && in.dims.front() < 0) o.batch = 32;
    return o;
}

ckpt::OnnxImportOptions OnnxImportDialog::options() const {
    ckpt::OnnxImportOptions o;
    o.batch = m_batch->value();
    o.element_bytes = m_dtype->currentData().toInt();
    return o;
}
