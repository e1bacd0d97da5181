// Saving from the explorer. Chart exports are atomic saves like projects. Autosave: one file per open document,
// deleted only by its own document's save or clean close, listed at every start while it holds unsaved work, and
// failures said in the status bar. Nothing here touches the user's home: CKPT_AUTOSAVE_DIR points into a temporary
// folder.
#include "io/json_io.h"
#include "models/autosave.h"
#include "models/document.h"
#include "widgets/mainwindow.h"
#include "widgets/recoverydialog.h"

#include <QDir>
#include <QImage>
#include <QPushButton>
#include <QStatusBar>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ckpt;

namespace {

const QString kSmall = QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json";

QStringList autosaveFiles() {
    return QDir(Autosave::directory()).entryList({"*.ckpt-project.json"}, QDir::Files, QDir::Name);
}

QStringList leftoverFiles() {
    QStringList out;
    for (const auto& e : Autosave::leftovers())
        out << QFileInfo(e.file).fileName();
    out.sort();
    return out;
}

// An edit the user could make: the first step's forward time doubled.
void edit(MainWindow& w, double factor = 2) {
    auto steps = w.document()->steps();
    steps[0].forward *= factor;
    QCOMPARE(w.document()->editSteps(steps, "test edit"), QString());
}

} // namespace

class TestSaving : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_project; // a saved project the windows open

    // A window with the saved project open, edited, autosaved.
    void openEditAutosave(MainWindow& w, double factor = 2) {
        w.setInteractive(false);
        QVERIFY2(w.openFile(m_project), qPrintable(w.lastError()));
        edit(w, factor);
        QVERIFY2(w.autosaveNow(), qPrintable(w.lastError()));
        QVERIFY(QFileInfo::exists(w.autosaveFile()));
    }

private slots:
    void initTestCase() {
        qputenv("CKPT_AUTOSAVE_DIR", m_dir.filePath("autosave").toLocal8Bit());
        m_project = m_dir.filePath("p.ckpt-project.json");
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        QVERIFY(w.saveProjectTo(m_project));
    }

    void init() { QDir(Autosave::directory()).removeRecursively(); }

    void eachDocumentHasItsOwnFile() {
        MainWindow a, b;
        openEditAutosave(a, 2);
        openEditAutosave(b, 3);
        QVERIFY(a.autosaveFile() != b.autosaveFile());
        QCOMPARE(autosaveFiles().size(), 2);
        // Each holds its own document (a project file that opens as one) and the document's path.
        for (auto [w, factor] : {std::pair{&a, 2.0}, std::pair{&b, 3.0}}) {
            auto p = loadProject(w->autosaveFile().toStdString());
            QVERIFY2(p.ok(), p.ok() ? "" : p.error().c_str());
            QCOMPARE(p->chain.steps()[0].forward, w->document()->steps()[0].forward);
            QCOMPARE(p->chain.steps()[0].forward, loadChain(kSmall.toStdString())->steps()[0].forward * factor);
            auto doc = loadJson(w->autosaveFile().toStdString());
            QCOMPARE(QString::fromStdString((*doc)["autosave"]["original_path"].get<std::string>()),
                     QFileInfo(m_project).absoluteFilePath());
        }
        // Nothing clean is autosaved.
        MainWindow clean;
        clean.setInteractive(false);
        QVERIFY(clean.openFile(m_project));
        QVERIFY(clean.autosaveNow());
        QCOMPARE(clean.autosaveFile(), QString());
        QCOMPARE(autosaveFiles().size(), 2);
    }

    void savingDeletesOnlyItsOwn() {
        MainWindow a, b;
        openEditAutosave(a);
        openEditAutosave(b);
        const QString bFile = b.autosaveFile();
        QVERIFY(a.saveProjectTo(m_dir.filePath("a.ckpt-project.json")));
        QCOMPARE(a.autosaveFile(), QString());
        QCOMPARE(autosaveFiles(), QStringList({QFileInfo(bFile).fileName()}));
        // A clean close deletes its own; a close with unsaved changes nobody was asked about keeps them.
        a.close();
        QCOMPARE(autosaveFiles(), QStringList({QFileInfo(bFile).fileName()}));
        b.close();
        QCOMPARE(autosaveFiles(), QStringList({QFileInfo(bFile).fileName()}));
    }

    void openingAnotherDocumentKeepsTheUnsavedOne() {
        MainWindow a;
        openEditAutosave(a);
        const QString first = a.autosaveFile();
        QVERIFY(a.openFile(kSmall)); // non-interactive: no one was asked to discard, so the autosave stays
        QCOMPARE(a.autosaveFile(), QString());
        QVERIFY(QFileInfo::exists(first));
        QCOMPARE(leftoverFiles(), QStringList({QFileInfo(first).fileName()}));
    }

    void leftoverIsListedAtStartEvenWithAFileOpened() {
        QString file;
        {
            MainWindow crashed;
            openEditAutosave(crashed);
            file = crashed.autosaveFile();
            // While its window runs, another explorer does not offer it.
            QVERIFY(Autosave::leftovers().isEmpty());
        } // gone without a clean close (as after a crash, the lock is stale or missing)
        MainWindow next;
        next.setInteractive(false);
        QVERIFY(next.openFile(m_project)); // started with a file on the command line
        const auto entries = next.recoverableAutosaves();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries[0].file, file);
        QCOMPARE(entries[0].originalPath, QFileInfo(m_project).absoluteFilePath());
        QVERIFY(qAbs(entries[0].savedAt.secsTo(QDateTime::currentDateTime())) < 3600);
        QVERIFY(!next.offerRecovery()); // never a dialog without interaction (tests, --screenshot)
        QVERIFY(QFileInfo::exists(file));
    }

    // A chain opened from its file (no project yet) is listed by that file, not as "untitled", and recovers with Save
    // proposing the project beside it.
    void anOpenedChainsAutosaveNamesItsFile() {
        QString file;
        const QString chain = QFileInfo(kSmall).absoluteFilePath();
        {
            MainWindow crashed;
            crashed.setInteractive(false);
            QVERIFY2(crashed.openFile(kSmall), qPrintable(crashed.lastError()));
            edit(crashed, 4);
            QVERIFY2(crashed.autosaveNow(), qPrintable(crashed.lastError()));
            file = crashed.autosaveFile();
        }
        QVERIFY2(QFileInfo(file).fileName().startsWith(QFileInfo(kSmall).fileName().section('.', 0, 0) + "-"),
                 qPrintable(file));
        const auto entries = Autosave::leftovers();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries[0].originalPath, QString());
        QCOMPARE(entries[0].sourcePath, chain);
        QCOMPARE(entries[0].name(), chain + " (not saved as a project)");
        {
            MainWindow w;
            w.setInteractive(false);
            QVERIFY(w.recoverAutosave(entries[0]));
            QCOMPARE(w.suggestedSavePath(), MainWindow::projectPathFor(chain));
            QVERIFY(w.windowTitle().startsWith(QFileInfo(kSmall).fileName() + "*"));
        }
        QCOMPARE(Autosave::discard(entries[0]), QString());
    }

    void staleLockOfACrashedProcessIsIgnored() {
        QString file;
        {
            MainWindow crashed;
            openEditAutosave(crashed);
            file = crashed.autosaveFile();
        }
        // What a crash leaves besides: the lock file, naming a process that no longer runs.
        const pid_t child = ::fork();
        if (child == 0) ::_exit(0);
        QVERIFY(child > 0);
        ::waitpid(child, nullptr, 0);
        QString lockPath = file;
        lockPath.replace(".ckpt-project.json", ".lock");
        QVERIFY(!QFileInfo::exists(lockPath));
        QFile lock(lockPath);
        QVERIFY(lock.open(QIODevice::WriteOnly | QIODevice::Truncate));
        lock.write(QByteArray::number(child) + "\nckpt-explorer\n" + QSysInfo::machineHostName().toUtf8() + "\n");
        lock.close();
        QCOMPARE(leftoverFiles(), QStringList({QFileInfo(file).fileName()}));
    }

    void recoverReopensTheDocument() {
        QString file;
        double edited = 0;
        {
            MainWindow crashed;
            openEditAutosave(crashed, 5);
            file = crashed.autosaveFile();
            edited = crashed.document()->steps()[0].forward;
        }
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        const auto entries = w.recoverableAutosaves();
        QCOMPARE(entries.size(), 1);
        QVERIFY(w.recoverAutosave(entries[0]));
        QCOMPARE(w.document()->steps()[0].forward, edited);
        QVERIFY(w.windowTitle().startsWith("p.ckpt-project.json*"));
        QCOMPARE(w.autosaveFile(), file);            // this window goes on with that file...
        QVERIFY(w.recoverableAutosaves().isEmpty()); // ...and holds it
        QVERIFY(w.saveProjectTo(m_project));         // saved to its original path: the autosave is done with
        QVERIFY(!QFileInfo::exists(file));
        QCOMPARE(loadProject(m_project.toStdString())->chain.steps()[0].forward, edited);
        // The next test starts from the small chain again.
        QVERIFY(w.openFile(kSmall) && w.saveProjectTo(m_project));
    }

    void leftoversAreNewestFirst() {
        // The time is the one the autosave records, not the file's (a copy or a backup restore changes that).
        QString file;
        {
            MainWindow crashed;
            openEditAutosave(crashed);
            file = crashed.autosaveFile();
        }
        auto doc = *loadJson(file.toStdString());
        for (auto [name, when] :
             {std::pair{"older-1", "2024-05-17T10:00:00Z"}, std::pair{"newer-2", "2024-05-17T12:00:00Z"},
              std::pair{"oldest-3", "2024-05-16T09:00:00Z"}}) {
            doc["autosave"]["saved_at"] = when;
            QVERIFY(saveJson((Autosave::directory() + "/" + name + ".ckpt-project.json").toStdString(), doc).ok());
        }
        QVERIFY(QFile::remove(file));
        QStringList order;
        for (const auto& e : Autosave::leftovers())
            order << QFileInfo(e.file).baseName() + " " + e.savedAt.toUTC().toString(Qt::ISODate);
        QCOMPARE(order, QStringList({"newer-2 2024-05-17T12:00:00Z", "older-1 2024-05-17T10:00:00Z",
                                     "oldest-3 2024-05-16T09:00:00Z"}));
    }

    void discardDeletesOnlyWhatIsNotHeld() {
        MainWindow live;
        openEditAutosave(live);
        QString file;
        {
            MainWindow crashed;
            openEditAutosave(crashed);
            file = crashed.autosaveFile();
        }
        const auto entries = Autosave::leftovers();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(Autosave::discard(entries[0]), QString());
        QVERIFY(!QFileInfo::exists(file));
        AutosaveEntry held{live.autosaveFile(), {}, {}};
        QVERIFY(Autosave::discard(held).contains("a running window still writes it"));
        QVERIFY(QFileInfo::exists(live.autosaveFile()));
    }

    void failureIsShownInTheStatusBar() {
        // A folder under a regular file cannot be made, for root too.
        const QString blocker = m_dir.filePath("not-a-folder");
        QFile f(blocker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        const QByteArray saved = qgetenv("CKPT_AUTOSAVE_DIR");
        qputenv("CKPT_AUTOSAVE_DIR", (blocker + "/autosave").toLocal8Bit());
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(m_project));
        edit(w);
        const bool ok = w.autosaveNow();
        qputenv("CKPT_AUTOSAVE_DIR", saved);
        QVERIFY(!ok);
        const QString shown = w.statusBar()->currentMessage();
        QVERIFY2(shown.startsWith("Autosave failed: " + blocker + "/autosave: cannot create the autosave folder"),
                 qPrintable(shown));
        QCOMPARE(w.lastError(), shown);
    }

    void chartExportsAreAtomicSaves() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        w.runCurrentNow();
        QTemporaryDir out;
        // An existing file keeps its mode; nothing but the chart is left in the folder.
        const QString png = out.filePath("c.png");
        QFile old(png);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old");
        old.close();
        QVERIFY(::chmod(qPrintable(png), 0600) == 0);
        QCOMPARE(w.exportChart("timeline", png, 400, 300), QString());
        QVERIFY(QImage(png).size() == QSize(400, 300));
        struct stat st {};
        QVERIFY(::stat(qPrintable(png), &st) == 0);
        QCOMPARE(st.st_mode & 0777, 0600u);
        // A linked destination stays a link; its target gets the chart.
        QVERIFY(QDir(out.path()).mkdir("real"));
        QVERIFY(QFile::link("real/chart.svg", out.filePath("link.svg")));
        QCOMPARE(w.exportChart("sweep", out.filePath("link.svg"), 400, 300), QString());
        QVERIFY(QFileInfo(out.filePath("link.svg")).isSymLink());
        QVERIFY(QFileInfo(out.filePath("real/chart.svg")).size() > 100);
        // A folder where the chart should go: refused, nothing written.
        QVERIFY(QDir(out.path()).mkdir("d.pdf"));
        const QString err = w.exportChart("timeline", out.filePath("d.pdf"), 400, 300);
        QVERIFY2(err.contains("Is a directory"), qPrintable(err));
        const auto all = QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot;
        QCOMPARE(QDir(out.path()).entryList(all, QDir::Name), QStringList({"c.png", "d.pdf", "link.svg", "real"}));
        QCOMPARE(QDir(out.filePath("real")).entryList(all), QStringList({"chart.svg"}));
        QVERIFY(QDir(out.filePath("d.pdf")).entryList(all).isEmpty());
    }

    void recoveryDialogListsEachWithItsPathAndTime() {
        const QDateTime t(QDate(2024, 5, 17), QTime(14, 30));
        QList<AutosaveEntry> entries{{"/x/a-1.ckpt-project.json", "/home/u/model.ckpt-project.json", "", t},
                                     {"/x/untitled-2.ckpt-project.json", "", "", t.addSecs(-3600)},
                                     {"/x/lstm-3.ckpt-project.json", "", "/d/lstm.ckpt-chain.json", t.addSecs(-7200)}};
        RecoveryDialog d(entries);
        QCOMPARE(d.list()->topLevelItemCount(), 3);
        QCOMPARE(d.list()->topLevelItem(0)->text(0), QString("/home/u/model.ckpt-project.json"));
        QCOMPARE(d.list()->topLevelItem(1)->text(0), QString("untitled"));
        QCOMPARE(d.list()->topLevelItem(2)->text(0), QString("/d/lstm.ckpt-chain.json (not saved as a project)"));
        QCOMPARE(d.list()->topLevelItem(0)->text(1), QLocale().toString(t, QLocale::ShortFormat));
        QCOMPARE(d.list()->topLevelItem(1)->text(2), QString("untitled-2.ckpt-project.json"));
        // The newest is selected: Recover opens one document, Discard takes any number.
        QCOMPARE(d.selected().size(), 1);
        QVERIFY(d.button(RecoveryDialog::Recover)->isEnabled());
        d.list()->selectAll();
        QCOMPARE(d.selected().size(), 3);
        QVERIFY(!d.button(RecoveryDialog::Recover)->isEnabled());
        QVERIFY(d.button(RecoveryDialog::Discard)->isEnabled());
        QCOMPARE(d.choice(), RecoveryDialog::Later); // closing the dialog any other way keeps everything
        d.button(RecoveryDialog::Discard)->click();
        QCOMPARE(d.choice(), RecoveryDialog::Discard);
        QCOMPARE(d.result(), int(QDialog::Accepted));
        if (const QByteArray shot = qgetenv("CKPT_TEST_SHOT"); !shot.isEmpty()) {
            RecoveryDialog fresh(entries);
            fresh.show();
            QVERIFY(fresh.grab().save(QString::fromLocal8Bit(shot)));
        }
    }
};

QTEST_MAIN(TestSaving)
#include "tst_saving.moc"
