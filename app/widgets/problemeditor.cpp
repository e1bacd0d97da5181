#include "problemeditor.h"

#include "examplefiles.h"
#include "io/json_io.h"
#include "models/chaintablemodel.h"
#include "models/document.h"
#include "models/focus.h"
#include "models/hardwaretablemodel.h"
#include "models/nodetablemodel.h"
#include "schedulerpanel.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

using namespace ckpt;

namespace {
QLabel* refusalLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setStyleSheet("color: #b00020");
    label->setWordWrap(true);
    return label;
}

QTableView* editorTable(QAbstractItemModel* model, QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setModel(model);
    // As wide as the values shown (a narrow dock scrolls sideways rather than cutting "128 KiB" to "128.0…").
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->setDefaultSectionSize(22);
    return table;
}
} // namespace

ProblemEditor::ProblemEditor(Document* doc, Focus* focus, SchedulerPanel* panel, QWidget* parent)
    : QTabWidget(parent), m_doc(doc), m_focus(focus), m_chainModel(new ChainTableModel(doc, this)),
      m_nodeModel(new NodeTableModel(doc, this)), m_hardwareModel(new HardwareTableModel(doc, this)) {
    m_problemStack = new QStackedWidget(this);
    m_problemStack->addWidget(buildChainTab());
    m_problemStack->addWidget(buildGraphTab());
    addTab(m_problemStack, tr("Ch&ain"));
    addTab(buildHardwareTab(), tr("Har&dware"));
    addTab(panel, tr("&Schedulers"));
    setCurrentIndex(2);
    m_problemStack->widget(0)->setWhatsThis(
        tr("<p>The chain: one row per step, with its forward and backward times and the bytes it keeps (its state, "
           "its tape and its temporaries). Edit a cell to change a step (Ctrl+Z undoes it); Steps sets the length; a "
           "column of selected cells takes one value with Set selection. The marks follow the shared cursor: what is "
           "held at the chosen action.</p>"));
    m_problemStack->widget(1)->setWhatsThis(
        tr("<p>The graph's nodes: each one's forward and backward times, output and workspace bytes. Add node, Connect "
           "and Delete edit the graph (Ctrl+Z undoes); a row chosen here is selected on the Graph tab too.</p>"));
    widget(1)->setWhatsThis(
        tr("<p>The machine: memory levels from the fastest (level 0, where computation reads and writes) to the "
           "slowest, each with its capacity, its read and write bandwidths to level 0 and the latency of a transfer. "
           "A preset replaces the machine by a shipped one (Ctrl+Z undoes it); offloading schedulers move tensors "
           "between the levels.</p>"));
    panel->setWhatsThis(
        tr("<p>The schedulers: choose one, its budget (bytes or a share of store-all's peak) and its parameters, then "
           "Run current (F5) to show its plan, or Run all (Shift+F5) to compare every scheduler over a sweep of "
           "budgets on the Trade-off and Comparison tabs. Each scheduler's tooltip names its paper.</p>"));
    connect(m_doc, &Document::reset, this, [this] {
        showLength();
        m_memoryModel->setCurrentIndex(m_doc->chain().memoryModel() == MemoryModel::RotorPaper ? 1 : 0);
    });
    connect(m_doc, &Document::chainChanged, this, &ProblemEditor::showLength);
    updateMode();
}

void ProblemEditor::showLength() {
    m_length->blockSignals(true);
    m_length->setValue(int(m_doc->steps().size()));
    m_length->blockSignals(false);
}

QWidget* ProblemEditor::buildChainTab() {
    auto* w = new QWidget;
    auto* l = new QVBoxLayout(w);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Steps:"), w));
    m_length = new QSpinBox(w);
    m_length->setRange(1, 1'000'000);
    m_length->setToolTip(tr("Length of the chain: new steps copy the last one"));
    row->addWidget(m_length);
    auto* uniform = new QPushButton(tr("Make uniform"), w);
    uniform->setToolTip(tr("Give every step the values of the selected (or first) step"));
    auto* bulk = new QPushButton(tr("Set selection…"), w);
    bulk->setToolTip(tr("Set one column of every selected step to one value"));
    row->addWidget(uniform);
    row->addWidget(bulk);
    m_memoryModel = new QComboBox(w);
    m_memoryModel->addItem(tr("this program's"), int(MemoryModel::Standard));
    m_memoryModel->addItem(tr("the rotor paper's"), int(MemoryModel::RotorPaper));
    m_memoryModel->setToolTip(tr(
        "How the chain's memory is counted.\nThis program's: a taped forward consumes its input and keeps its output "
        "beside its tape.\nThe rotor paper's (Beaumont et al. 2019): a taped forward keeps its input until its "
        "backward, and its tape holds its output. Only store-all and rotor plan in it."));
    connect(m_memoryModel, &QComboBox::activated, this, [this](int) {
        const auto model = MemoryModel(m_memoryModel->currentData().toInt());
        const Chain c = m_doc->chain();
        if (c.memoryModel() == model) return;
        if (auto next = c.withModel(model, c.finalStateBytes())) m_doc->setChain(*next);
    });
    row->addStretch(1);
    l->addLayout(row);
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(new QLabel(tr("Memory model:"), w));
    modelRow->addWidget(m_memoryModel);
    modelRow->addStretch(1);
    l->addLayout(modelRow);
    m_chainTable = editorTable(m_chainModel, w);
    m_chainTable->setSelectionBehavior(QAbstractItemView::SelectItems);
    l->addWidget(m_chainTable, 1);
    auto* editMessage = refusalLabel(w);
    l->addWidget(editMessage);

    connect(m_chainModel, &ChainTableModel::editRefused, this,
            [this, editMessage](const QModelIndex& index, const QString& reason) {
                editMessage->setText(reason);
                QRect r = m_chainTable->visualRect(index);
                QToolTip::showText(m_chainTable->viewport()->mapToGlobal(r.bottomLeft()), reason, m_chainTable);
            });
    connect(m_doc, &Document::chainChanged, editMessage, &QLabel::clear);
    connect(m_length, &QSpinBox::editingFinished, this, [this] {
        std::vector<Step> steps = m_doc->steps();
        steps.resize(std::size_t(m_length->value()), steps.back());
        m_doc->editSteps(steps, tr("Change the length to %1").arg(m_length->value()));
    });
    connect(uniform, &QPushButton::clicked, this, [this] {
        std::vector<Step> steps = m_doc->steps();
        QModelIndex cur = m_chainTable->currentIndex();
        Step model = steps[std::size_t(cur.isValid() ? cur.row() : 0)];
        std::fill(steps.begin(), steps.end(), model);
        m_doc->editSteps(steps, tr("Make uniform"));
    });
    connect(bulk, &QPushButton::clicked, this, [this, editMessage] {
        QModelIndexList sel = m_chainTable->selectionModel()->selectedIndexes();
        if (sel.isEmpty()) return emit refused(tr("Select cells of one column first"));
        int column = sel.front().column();
        QList<int> rows;
        for (const QModelIndex& i : sel)
            if (i.column() == column) rows.push_back(i.row());
        bool ok = false;
        QString text = QInputDialog::getText(
            this, tr("Set %1 steps").arg(rows.size()),
            tr("%1 (with units, e.g. 3ms or 512KiB):").arg(m_chainModel->headerData(column, Qt::Horizontal).toString()),
            QLineEdit::Normal, sel.front().data(Qt::EditRole).toString(), &ok);
        if (!ok) return;
        editMessage->setText(m_chainModel->setColumn(rows, column, text));
    });
    return w;
}

QWidget* ProblemEditor::buildGraphTab() {
    auto* w = new QWidget;
    auto* l = new QVBoxLayout(w);
    auto* row = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add node"), w);
    add->setToolTip(tr("A new node fed by the selected nodes, with the costs of the last selected one"));
    auto* connectButton = new QPushButton(tr("Connect"), w);
    connectButton->setToolTip(tr("Select two nodes (Ctrl+click): an edge from the first selected to the second"));
    auto* remove = new QPushButton(tr("Delete"), w);
    remove->setToolTip(tr("Delete the selected nodes and every edge that touches them"));
    row->addWidget(add);
    row->addWidget(connectButton);
    row->addWidget(remove);
    row->addStretch(1);
    l->addLayout(row);
    m_nodeTable = editorTable(m_nodeModel, w);
    m_nodeTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    l->addWidget(m_nodeTable, 1);
    m_graphMessage = refusalLabel(w);
    l->addWidget(m_graphMessage);

    connect(add, &QPushButton::clicked, this, &ProblemEditor::addNodeRequested);
    connect(connectButton, &QPushButton::clicked, this, &ProblemEditor::connectRequested);
    connect(remove, &QPushButton::clicked, this, &ProblemEditor::deleteRequested);
    connect(m_nodeModel, &NodeTableModel::editRefused, this, [this](const QModelIndex& index, const QString& reason) {
        showGraphEdit(reason);
        QRect r = m_nodeTable->visualRect(index);
        QToolTip::showText(m_nodeTable->viewport()->mapToGlobal(r.bottomLeft()), reason, m_nodeTable);
    });
    connect(m_doc, &Document::graphChanged, m_graphMessage, &QLabel::clear);
    // The shared selection: a row chosen here selects the node everywhere, and this table follows the others.
    connect(m_nodeTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { m_focus->setNode(current.isValid() ? current.row() : -1); });
    connect(m_focus, &Focus::nodeChanged, this, [this](int node) {
        if (node < 0 || node >= m_nodeModel->rowCount()) return m_nodeTable->clearSelection();
        m_nodeTable->selectRow(node);
        m_nodeTable->scrollTo(m_nodeModel->index(node, 0));
    });
    return w;
}

QWidget* ProblemEditor::buildHardwareTab() {
    auto* w = new QWidget;
    auto* l = new QVBoxLayout(w);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Preset:"), w));
    auto* presets = new QComboBox(w);
    presets->setToolTip(tr("Replace the machine by a shipped preset (undoable)"));
    presets->addItem(tr("(choose)"));
    presets->addItem(tr("one unbounded level"), QString());
    for (const QFileInfo& f :
         QDir(resourceRoot() + "/resources/hardware").entryInfoList({"*.json"}, QDir::Files, QDir::Name))
        presets->addItem(f.baseName(), f.absoluteFilePath());
    row->addWidget(presets, 1);
    auto* add = new QPushButton(tr("Add level"), w);
    auto* remove = new QPushButton(tr("Remove level"), w);
    row->addWidget(add);
    row->addWidget(remove);
    l->addLayout(row);
    auto* table = new QTableView(w);
    table->setModel(m_hardwareModel);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    l->addWidget(table, 1);
    auto* message = refusalLabel(w);
    l->addWidget(message);
    connect(m_hardwareModel, &HardwareTableModel::editRefused, this,
            [message](const QModelIndex&, const QString& reason) { message->setText(reason); });
    connect(m_doc, &Document::hardwareChanged, message, &QLabel::clear);
    connect(presets, &QComboBox::activated, this, [this, presets](int index) {
        if (index <= 0) return;
        QString path = presets->itemData(index).toString();
        if (path.isEmpty())
            m_doc->setHardware(Hardware::unbounded());
        else if (auto h = loadHardware(path.toStdString()))
            m_doc->setHardware(*h);
        else
            emit refused(QString::fromStdString(h.error()));
        presets->setCurrentIndex(0);
    });
    connect(add, &QPushButton::clicked, this, [this] {
        auto levels = m_doc->levels();
        levels.push_back(MemoryLevel{"disk", 1LL << 40, 2e9, 1.5e9, 1e-4});
        m_doc->editLevels(levels, tr("Add a level"));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        auto levels = m_doc->levels();
        if (levels.size() <= 1) return emit refused(tr("Level 0 is where compute runs; it cannot be removed"));
        levels.pop_back();
        m_doc->editLevels(levels, tr("Remove a level"));
    });
    return w;
}

QString ProblemEditor::graphMessage() const {
    return m_graphMessage->text();
}

void ProblemEditor::showGraphEdit(const QString& refusal) {
    m_graphMessage->setText(refusal);
    if (!refusal.isEmpty()) emit status(refusal, 10000);
}

void ProblemEditor::updateMode() {
    const bool graph = m_doc->isGraph();
    m_problemStack->setCurrentIndex(graph ? 1 : 0);
    setTabText(indexOf(m_problemStack), graph ? tr("Gr&aph") : tr("Ch&ain"));
    m_graphMessage->clear();
}

void ProblemEditor::editNode(int node) {
    setCurrentWidget(m_problemStack);
    m_focus->setNode(node);
    m_nodeTable->selectRow(node); // also when the shared selection was this node already
    m_nodeTable->setFocus();
    m_nodeTable->edit(m_nodeModel->index(node, NodeTableModel::Forward));
}
