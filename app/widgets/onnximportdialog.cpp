#include "onnximportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QSet>
#include <QSpinBox>
#include <QStringList>
#include <functional>

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

constexpr int kBatch = 32;    // proposed for a batch the file leaves open
constexpr int kOpenDim = 128; // proposed for any other dimension it leaves open (a sequence length)

// The key of dimension k (> 0) of an input: its symbol, shared by every input that names it, or "NAME:K".
QString openKey(const ckpt::OnnxInput& in, std::size_t k) {
    return in.symbols[k].empty() ? QString::fromStdString(in.name) + ":" + QString::number(k)
                                 : QString::fromStdString(in.symbols[k]);
}

// The symbols the file uses for a batch dimension: an open first dimension's, and any that names a batch (a
// sequence-first export has it second, as `ckpt import --batch` finds it); the batch size stands for them wherever
// they appear.
QSet<QString> batchSymbols(const std::vector<ckpt::OnnxInput>& inputs) {
    QSet<QString> out;
    for (const auto& in : inputs) {
        if (!in.dims.empty() && in.dims.front() < 0 && !in.symbols.front().empty())
            out.insert(QString::fromStdString(in.symbols.front()));
        for (const auto& symbol : in.symbols)
            if (QString::fromStdString(symbol).contains("batch", Qt::CaseInsensitive))
                out.insert(QString::fromStdString(symbol));
    }
    return out;
}

// The options for a batch (0: the file's own), element size and a value for every open dimension beyond the batch:
// an input with such a dimension gets its whole shape.
ckpt::OnnxImportOptions optionsFor(const std::vector<ckpt::OnnxInput>& inputs, int batch, int elementBytes,
                                   const std::function<int(const QString&)>& open) {
    ckpt::OnnxImportOptions o;
    o.batch = batch;
    o.element_bytes = elementBytes;
    const QSet<QString> batches = batchSymbols(inputs);
    for (const auto& in : inputs) {
        std::vector<std::int64_t> dims = in.dims;
        bool opened = false;
        for (std::size_t k = 1; k < dims.size(); ++k) {
            if (dims[k] >= 0) continue;
            const QString key = openKey(in, k);
            dims[k] = batches.contains(key) && batch > 0 ? batch : open(key);
            opened = true;
        }
        if (!opened) continue;
        // Only an open first dimension takes the batch: the import refuses to change one the file fixes.
        if (batch > 0 && dims.front() < 0) dims.front() = batch;
        o.inputs.emplace_back(in.name, dims);
    }
    return o;
}

} // namespace

OnnxImportDialog::OnnxImportDialog(const QString& path, const std::vector<ckpt::OnnxInput>& inputs, QWidget* parent)
    : QDialog(parent), m_inputs(inputs), m_batch(new QSpinBox(this)), m_dtype(new QComboBox(this)) {
    setWindowTitle(tr("Import %1").arg(QFileInfo(path).fileName()));
    auto* form = new QFormLayout(this);
    QStringList lines;
    for (const auto& in : inputs)
        lines << describe(in);
    auto* shown = new QLabel(lines.isEmpty() ? tr("none") : lines.join("\n"), this);
    shown->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Inputs:"), shown);
    // 0 keeps the file's own first dimension, where it has one.
    bool batchOpen = false;
    for (const auto& in : inputs)
        batchOpen = batchOpen || (!in.dims.empty() && in.dims.front() < 0);
    m_batch->setRange(batchOpen ? 1 : 0, 1 << 20);
    m_batch->setSpecialValueText(batchOpen ? QString() : tr("as in the file"));
    m_batch->setToolTip(batchOpen ? tr("The first dimension of every input (the file leaves it open)")
                                  : tr("The first dimension of every input"));
    form->addRow(tr("&Batch size:"), m_batch);
    // Every other dimension the file leaves open gets a field of its own, once per symbol: a model exported with a
    // dynamic sequence length cannot be sized without one.
    const QSet<QString> batches = batchSymbols(inputs);
    for (const auto& in : inputs)
        for (std::size_t k = 1; k < in.dims.size(); ++k) {
            if (in.dims[k] >= 0) continue;
            const QString key = openKey(in, k);
            if (m_open.contains(key) || batches.contains(key)) continue;
            auto* field = new QSpinBox(this);
            field->setRange(1, 1 << 24);
            field->setValue(kOpenDim);
            const bool named = !in.symbols[k].empty();
            field->setToolTip(
                named
                    ? tr("The file leaves '%1' open: its size in every input that names it").arg(key)
                    : tr("The file leaves this dimension of '%1' open: its size").arg(QString::fromStdString(in.name)));
            form->addRow(named ? tr("Dimension '%1':").arg(key)
                               : tr("'%1', dimension %2:").arg(QString::fromStdString(in.name)).arg(k),
                         field);
            m_open.insert(key, field);
        }
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
    int batch = 0;
    for (const auto& in : inputs)
        if (!in.dims.empty() && in.dims.front() < 0) batch = kBatch;
    return optionsFor(inputs, batch, 0, [](const QString&) { return kOpenDim; });
}

ckpt::OnnxImportOptions OnnxImportDialog::options() const {
    return optionsFor(m_inputs, m_batch->value(), m_dtype->currentData().toInt(), [this](const QString& key) {
        const QSpinBox* field = m_open.value(key);
        return field ? field->value() : kOpenDim;
    });
}
