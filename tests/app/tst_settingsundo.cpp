// The scheduler settings as project edits: each change of scheduler, parameter, budget, budgets compared or ticked
// schedulers is one undo step that puts the panel's widgets back, and the project is modified exactly when the undo
// stack is away from where it was opened or saved. The title names the opened file; Save proposes a project beside
// a chain or graph file, never the file itself.
#include "models/autosave.h"
#include "models/document.h"
#include "widgets/mainwindow.h"
#include "widgets/schedulerpanel.h"

#include <QLineEdit>
#include <QListWidget>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

namespace {
const QString kSmall = QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json";
const QString kGraph = QString(CKPT_SOURCE_DIR) + "/examples/linear-32.ckpt-graph.json";

QListWidget* listOf(SchedulerPanel* p) {
    return p->findChild<QListWidget*>();
}
QLineEdit* budgetsOf(SchedulerPanel* p) {
    for (QLineEdit* e : p->findChildren<QLineEdit*>())
        if (e->toolTip().startsWith("Comma-separated")) return e;
    return nullptr;
}
QSpinBox* slotsOf(SchedulerPanel* p) { // revolve's one parameter
    const auto boxes = p->findChildren<QSpinBox*>();
    return boxes.size() == 1 ? boxes.front() : nullptr;
}
int rowOf(QListWidget* list, const QString& name) {
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->text() == name) return i;
    return -1;
}
QByteArray readAll(const QString& p) {
    QFile f(p);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

class TestSettingsUndo : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    void open(MainWindow& w, const QString& path = kSmall) {
        w.setInteractive(false);
        QVERIFY2(w.openFile(path), qPrintable(w.lastError()));
        QVERIFY(!w.isModified());
        QVERIFY2(!w.windowTitle().contains('*'), qPrintable(w.windowTitle()));
    }

private slots:
    void initTestCase() { qputenv("CKPT_AUTOSAVE_DIR", m_dir.filePath("autosave").toLocal8Bit()); }

    // Opening a chain, a graph and a project leaves nothing to undo and nothing modified (the panel's refresh after
    // a new document is no edit).
    void openingIsClean() {
        MainWindow w;
        open(w, kSmall);
        QCOMPARE(w.document()->undoStack()->count(), 0);
        open(w, kGraph);
        QCOMPARE(w.document()->undoStack()->count(), 0);
        const QString p = m_dir.filePath("clean.ckpt-project.json");
        QVERIFY(w.saveProjectTo(p));
        open(w, p);
        QCOMPARE(w.document()->undoStack()->count(), 0);
    }

    void schedulerChoiceIsUndoable() {
        MainWindow w;
        open(w);
        QListWidget* list = listOf(w.schedulerPanel());
        QVERIFY(list);
        const std::string before = w.schedulerPanel()->currentScheduler();
        QVERIFY(before != "periodic");
        list->setCurrentRow(rowOf(list, "periodic"));
        QCOMPARE(w.document()->settings().scheduler, std::string("periodic"));
        QVERIFY(w.isModified());
        QVERIFY2(w.windowTitle().startsWith("small-hetero-12.ckpt-chain.json*"), qPrintable(w.windowTitle()));
        QCOMPARE(w.document()->undoStack()->count(), 1);
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->settings().scheduler, before);
        QCOMPARE(w.schedulerPanel()->currentScheduler(), before); // the list shows it again
        QCOMPARE(list->currentItem()->text().toStdString(), before);
        QVERIFY(!w.isModified());
        QVERIFY2(!w.windowTitle().contains('*'), qPrintable(w.windowTitle()));
        w.document()->undoStack()->redo();
        QCOMPARE(w.schedulerPanel()->currentScheduler(), std::string("periodic"));
    }

    // Typing 1 then 12 in one parameter is one step; undo puts the spin box back.
    void parameterEditsMergeAndUndo() {
        MainWindow w;
        open(w);
        w.schedulerPanel()->setCurrentScheduler("revolve");
        const int base = w.document()->undoStack()->index();
        QSpinBox* spin = slotsOf(w.schedulerPanel());
        QVERIFY(spin);
        const int shown = spin->value();
        spin->setValue(1);
        spin->setValue(12);
        QCOMPARE(w.document()->settings().params.at("revolve").at("slots"), std::string("12"));
        QCOMPARE(w.document()->undoStack()->index(), base + 1);
        QCOMPARE(slotsOf(w.schedulerPanel()), spin); // the form was not rebuilt under the typing
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->undoStack()->index(), base);
        QVERIFY(!w.document()->settings().params.count("revolve"));
        QCOMPARE(slotsOf(w.schedulerPanel())->value(), shown);
    }

    // Consecutive slider moves are one step (one per drag); undo puts the slider back.
    void budgetMovesMergeIntoOneStep() {
        MainWindow w;
        open(w);
        QSlider* slider = w.schedulerPanel()->budgetSlider();
        const int start = slider->value();
        const std::int64_t budget = w.document()->settings().budget_bytes;
        QVERIFY(start > 300);
        for (int v : {start - 100, start - 200, start - 300})
            slider->setValue(v);
        QCOMPARE(w.document()->undoStack()->count(), 1);
        QCOMPARE(w.document()->settings().budget_bytes, w.schedulerPanel()->budgetBytes());
        QVERIFY(w.isModified());
        w.document()->undoStack()->undo();
        QCOMPARE(slider->value(), start);
        QCOMPARE(w.document()->settings().budget_bytes, budget);
        QVERIFY(!w.isModified());
        // A new drag is a new step.
        w.document()->undoStack()->redo();
        emit slider->sliderPressed();
        slider->setValue(start - 50);
        QCOMPARE(w.document()->undoStack()->count(), 2);
        // Dragged back to where the drag started: that drag leaves no step.
        slider->setValue(start - 300);
        QCOMPARE(w.document()->undoStack()->count(), 1);
    }

    void budgetsAndTicksAreUndoable() {
        MainWindow w;
        open(w);
        QLineEdit* budgets = budgetsOf(w.schedulerPanel());
        QVERIFY(budgets);
        const QString before = budgets->text();
        budgets->setText("none,40%");
        emit budgets->editingFinished();
        QCOMPARE(w.document()->settings().budgets, std::string("none,40%"));
        QListWidget* list = listOf(w.schedulerPanel());
        list->item(rowOf(list, "periodic"))->setCheckState(Qt::Unchecked);
        QCOMPARE(int(w.document()->settings().schedulers.size()), list->count() - 1);
        QCOMPARE(w.document()->undoStack()->count(), 2);
        w.document()->undoStack()->undo();
        QCOMPARE(list->item(rowOf(list, "periodic"))->checkState(), Qt::Checked);
        QVERIFY(w.document()->settings().schedulers.empty());
        w.document()->undoStack()->undo();
        QCOMPARE(budgets->text(), before);
        QCOMPARE(QString::fromStdString(w.document()->settings().budgets), before);
        QVERIFY(!w.isModified());
    }

    // "*" goes after undoing back to the saved state and comes back when undoing past it.
    void savedStateIsTheCleanOne() {
        MainWindow w;
        open(w);
        QListWidget* list = listOf(w.schedulerPanel());
        list->setCurrentRow(rowOf(list, "periodic"));
        const QString p = m_dir.filePath("saved.ckpt-project.json");
        QVERIFY(w.saveProjectTo(p));
        QVERIFY(!w.isModified());
        QVERIFY2(w.windowTitle().startsWith("saved.ckpt-project.json — "), qPrintable(w.windowTitle()));
        list->setCurrentRow(rowOf(list, "store-all"));
        QVERIFY(w.windowTitle().startsWith("saved.ckpt-project.json*"));
        w.document()->undoStack()->undo();
        QVERIFY(!w.isModified());
        QVERIFY2(w.windowTitle().startsWith("saved.ckpt-project.json — "), qPrintable(w.windowTitle()));
        w.document()->undoStack()->undo();
        QVERIFY(w.isModified());
        QVERIFY(w.windowTitle().startsWith("saved.ckpt-project.json*"));
    }

    // A settings change alone is unsaved work: the autosave keeps it.
    void settingsChangesAreAutosaved() {
        MainWindow w;
        open(w);
        QVERIFY(w.autosaveNow());
        QCOMPARE(w.autosaveFile(), QString()); // nothing to keep
        listOf(w.schedulerPanel())->setCurrentRow(rowOf(listOf(w.schedulerPanel()), "periodic"));
        QVERIFY(w.autosaveNow());
        QVERIFY(QFileInfo::exists(w.autosaveFile()));
        QCOMPARE(ckpt::loadProject(w.autosaveFile().toStdString())->settings.scheduler, std::string("periodic"));
        w.document()->undoStack()->undo(); // back to the file: a clean close drops the autosave
        w.close();
        QVERIFY(!QFileInfo::exists(w.autosaveFile()));
    }

    void titleNamesTheOpenedFileAndSaveProposesAProject() {
        QCOMPARE(MainWindow::projectPathFor("/a/b/lstm.ckpt-chain.json"), QString("/a/b/lstm.ckpt-project.json"));
        QCOMPARE(MainWindow::projectPathFor("/a/net.ckpt-graph.json"), QString("/a/net.ckpt-project.json"));
        QCOMPARE(MainWindow::projectPathFor("model.v2.json"), QString("model.v2.ckpt-project.json"));
        QCOMPARE(MainWindow::projectPathFor("/x/.json"), QString("/x/untitled.ckpt-project.json"));
        const QString chain = m_dir.filePath("small.ckpt-chain.json");
        QVERIFY(QFile::copy(kSmall, chain));
        const QByteArray bytes = readAll(chain);
        MainWindow w;
        open(w, chain);
        QVERIFY2(w.windowTitle().startsWith("small.ckpt-chain.json — "), qPrintable(w.windowTitle()));
        QCOMPARE(w.suggestedSavePath(), m_dir.filePath("small.ckpt-project.json"));
        QVERIFY(w.saveProjectTo(w.suggestedSavePath()));
        QCOMPARE(readAll(chain), bytes); // the chain file is left alone
        QVERIFY(w.windowTitle().startsWith("small.ckpt-project.json — "));
        QCOMPARE(w.suggestedSavePath(), m_dir.filePath("small.ckpt-project.json"));
        open(w, kGraph);
        QVERIFY2(w.windowTitle().startsWith("linear-32.ckpt-graph.json — "), qPrintable(w.windowTitle()));
        QCOMPARE(w.suggestedSavePath(), QString(CKPT_SOURCE_DIR) + "/examples/linear-32.ckpt-project.json");
    }
};

QTEST_MAIN(TestSettingsUndo)
#include "tst_settingsundo.moc"
