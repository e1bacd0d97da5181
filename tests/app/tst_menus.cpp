// The window's menus, tabs and labels as a keyboard user meets them: every Alt+letter reaches one thing in its scope,
// File ▸ New from example tells each example apart, Help ▸ About says the version, the licence and how to cite.
#include "models/document.h"
#include "widgets/about.h"
#include "widgets/mainwindow.h"
#include "widgets/userguide.h"

#include <QAbstractButton>
#include <QDir>
#include <QDockWidget>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTabBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QToolBar>
#include <QtTest>
#include <map>

namespace {

// The letter after a single '&' ("&&" is a literal ampersand), lower-cased; none: a null QChar.
QChar mnemonicOf(const QString& text) {
    for (qsizetype i = 0; i + 1 < text.size(); ++i)
        if (text[i] == '&') {
            if (text[i + 1] == '&') {
                ++i;
                continue;
            }
            return text[i + 1].toLower();
        }
    return {};
}

// Labels by mnemonic, per scope.
struct Scopes {
    std::map<QString, std::map<QChar, QStringList>> keys;
    void add(const QString& scope, const QString& label, const QString& what) {
        if (QChar c = mnemonicOf(label); !c.isNull()) keys[scope][c] << what + " \"" + label + "\"";
    }
    QStringList clashes() const {
        QStringList out;
        for (const auto& [scope, byKey] : keys)
            for (const auto& [key, labels] : byKey)
                if (labels.size() > 1) out << QString("%1: Alt+%2 is %3").arg(scope, key.toUpper(), labels.join(", "));
        return out;
    }
};

void walkMenu(QMenu* menu, const QString& scope, Scopes& scopes) {
    for (QAction* a : menu->actions()) {
        if (a->isSeparator()) continue;
        scopes.add(scope, a->text(), "item");
        if (a->menu()) walkMenu(a->menu(), scope + " ▸ " + QString(a->text()).remove('&'), scopes);
    }
}

// The window-wide scope (menu bar titles, every tab bar's tabs, labelled buttons, group boxes, labels with a buddy:
// a widget on a hidden page counts too, which is stricter than Qt), and one scope per menu.
QStringList clashesOf(MainWindow& w) {
    Scopes scopes;
    const QString window = "window";
    for (QAction* a : w.menuBar()->actions()) {
        scopes.add(window, a->text(), "menu");
        if (a->menu()) walkMenu(a->menu(), QString(a->text()).remove('&'), scopes);
    }
    for (QTabBar* bar : w.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            scopes.add(window, bar->tabText(i), "tab");
    for (QAbstractButton* b : w.findChildren<QAbstractButton*>())
        if (b->window() == &w) scopes.add(window, b->text(), "button");
    for (QGroupBox* g : w.findChildren<QGroupBox*>())
        if (g->window() == &w) scopes.add(window, g->title(), "group");
    for (QLabel* l : w.findChildren<QLabel*>())
        if (l->window() == &w && l->buddy()) scopes.add(window, l->text(), "label");
    return scopes.clashes();
}

// The item of `items` named `text` (mnemonics aside), or null.
QAction* itemOf(const QList<QAction*>& items, const QString& text) {
    for (QAction* a : items)
        if (QString(a->text()).remove('&') == text) return a;
    return nullptr;
}

// The menu that the item of `items` named `text` opens, or null.
QMenu* menuIn(const QList<QAction*>& items, const QString& text) {
    QAction* a = itemOf(items, text);
    return a ? a->menu() : nullptr;
}

QMenu* subMenu(QMenu* menu, const QString& text) {
    return menuIn(menu->actions(), text);
}

QMenu* menuOf(MainWindow& w, const QString& text) {
    return menuIn(w.menuBar()->actions(), text);
}

} // namespace

class TestMenus : public QObject {
    Q_OBJECT
private slots:
    void theWalkerSeesAClash() {
        Scopes s;
        s.add("window", "&Help", "menu");
        s.add("window", "C&hain", "tab");
        s.add("window", "Rock && &roll", "tab");
        s.add("window", "&Run", "menu");
        QCOMPARE(s.clashes(), QStringList({"window: Alt+H is menu \"&Help\", tab \"C&hain\"",
                                           "window: Alt+R is tab \"Rock && &roll\", menu \"&Run\""}));
    }

    // Alt+H matched Chain, Hardware and Help; Alt+R the Trainer tab and the Run menu; the Run menu had two Alt+C.
    void mnemonicsAreUniquePerScope() {
        MainWindow w;
        w.setInteractive(false);
        w.openDefault();
        w.show();
        QStringList clashes = clashesOf(w);
        QVERIFY2(clashes.isEmpty(), qPrintable("chain: " + clashes.join("; ")));
        // A graph renames the problem tab and shows the graph editor's buttons.
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/linear-32.ckpt-graph.json"));
        clashes = clashesOf(w);
        QVERIFY2(clashes.isEmpty(), qPrintable("graph: " + clashes.join("; ")));
        // The letters the issue named now reach one thing each.
        Scopes all;
        for (QAction* a : w.menuBar()->actions())
            all.add("w", a->text(), "menu");
        QCOMPARE(all.keys["w"][QChar('r')], QStringList({"menu \"&Run\""}));
        QCOMPARE(all.keys["w"][QChar('h')], QStringList({"menu \"&Help\""}));
    }

    // The Problem dock has a close button; View ▸ Problem panel (F9) brings it back. Save as has Ctrl+Shift+S
    // (QKeySequence::SaveAs is empty outside KDE and GNOME).
    void theProblemPanelComesBackAndSaveAsHasAKey() {
        MainWindow w;
        w.setInteractive(false);
        w.openDefault();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QMenu* view = menuOf(w, "View");
        QVERIFY(view);
        QAction* panel = itemOf(view->actions(), "Problem panel");
        QVERIFY(panel);
        QCOMPARE(panel->shortcut(), QKeySequence(Qt::Key_F9));
        auto* dock = w.findChild<QDockWidget*>("problem");
        QVERIFY(dock && dock->isVisible() && panel->isChecked());
        dock->close(); // its title bar's close button
        QVERIFY(!dock->isVisible());
        QVERIFY(!panel->isChecked());
        panel->trigger();
        QVERIFY(dock->isVisible());
        QMenu* file = menuOf(w, "File");
        QAction* saveAs = itemOf(file->actions(), "Save as…");
        QVERIFY(saveAs);
        QCOMPARE(saveAs->shortcut(), QKeySequence("Ctrl+Shift+S"));
    }

    // resnet18-b32-224 and vgg16-b32-224 were listed twice (a chain and a graph of each; baseName cut at the dot).
    void examplesHaveUniqueSortedLabels() {
        MainWindow w;
        w.setInteractive(false);
        QMenu* file = menuOf(w, "File");
        QVERIFY(file);
        QMenu* examples = subMenu(file, "New from example");
        QVERIFY(examples);
        QStringList labels;
        for (QAction* a : examples->actions())
            labels << a->text();
        const int files = int(QDir(QString(CKPT_SOURCE_DIR) + "/examples").entryList({"*.json"}, QDir::Files).size());
        QCOMPARE(labels.size(), files);
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), files);
        QStringList sorted = labels;
        sorted.sort(Qt::CaseInsensitive);
        QCOMPARE(labels, sorted);
        for (const char* l : {"resnet18-b32-224 (chain)", "resnet18-b32-224 (graph)", "vgg16-b32-224 (chain)",
                              "vgg16-b32-224 (graph)", "lstm-h512-b32-fp32-1000 (chain)"})
            QVERIFY2(labels.contains(l), l);
        // Each opens what it says, named in the title.
        for (QAction* a : examples->actions())
            if (a->text() == "resnet18-b32-224 (graph)") a->trigger();
        QVERIFY(w.document()->isGraph());
        QVERIFY2(w.windowTitle().startsWith("resnet18-b32-224.ckpt-graph.json — "), qPrintable(w.windowTitle()));
        for (QAction* a : examples->actions())
            if (a->text() == "resnet18-b32-224 (chain)") a->trigger();
        QVERIFY(!w.document()->isGraph());
        QVERIFY2(w.windowTitle().startsWith("resnet18-b32-224.ckpt-chain.json — "), qPrintable(w.windowTitle()));
        QCOMPARE(w.suggestedSavePath(), QString("resnet18-b32-224.ckpt-project.json"));
    }

    // Help ▸ Keyboard shortcuts (aboutSaysVersionLicenceAndCitation finds it in the menu) lists every action that has
    // one, by name without its mnemonic, and no key belongs to two actions (Qt then runs neither).
    void shortcutsAreListedAndUnique() {
        MainWindow w;
        const QStringList lines = shortcutLines(&w);
        for (const char* expected : {"Run current\tF5", "Run all\tShift+F5", "Cancel\tEsc", "Presentation mode\tF11",
                                     "Problem panel\tF9", "Next scene of the lesson\tPgDown", "Save as…\tCtrl+Shift+S"})
            QVERIFY2(lines.contains(expected), qPrintable(expected + QString(" not in: ") + lines.join(" | ")));
        std::map<QString, QStringList> byKey;
        for (const QString& line : lines)
            byKey[line.section('\t', 1)] << line.section('\t', 0, 0);
        for (const auto& [key, names] : byKey)
            QVERIFY2(names.size() == 1, qPrintable(key + " belongs to " + names.join(", ")));
        QVERIFY2(lines.size() >= 15, qPrintable(lines.join(" | ")));
    }

    // Help ▸ User guide (F1) opens the guide's contents page from the shipped docs, rendered from Markdown; each page
    // it links is there (the window follows the links itself).
    void userGuideOpensTheInstalledDocs() {
        MainWindow w;
        QMenu* help = menuOf(w, "Help");
        QVERIFY(help);
        QAction* guide = itemOf(help->actions(), "User guide");
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        guide->trigger();
        auto* g = w.findChild<UserGuide*>("userGuide");
        QVERIFY(g && g->isVisible());
        QCOMPARE(QFileInfo(g->browser()->source().toLocalFile()).canonicalFilePath(),
                 QFileInfo(QString(CKPT_SOURCE_DIR) + "/docs/index.md").canonicalFilePath());
        const QString contents = g->browser()->toPlainText();
        QVERIFY2(contents.contains("File formats") && !contents.contains("]("), qPrintable(contents.left(400)));
        QDir docs(QString(CKPT_SOURCE_DIR) + "/docs");
        int links = 0;
        for (const QString& page : docs.entryList({"*.md"}, QDir::Files)) {
            QFile f(docs.filePath(page));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(f.readAll());
            auto it = QRegularExpression(R"(\]\(([^)#:\s]+\.md)(#[^)]*)?\))").globalMatch(text);
            while (it.hasNext()) {
                const QString target = it.next().captured(1);
                QVERIFY2(QFileInfo::exists(docs.filePath(target)), qPrintable(page + " links " + target));
                ++links;
            }
        }
        QVERIFY2(links >= 6, qPrintable(QString::number(links))); // the contents page's at least
        g->browser()->setSource(QUrl::fromLocalFile(docs.filePath("cli.md")));
        QVERIFY(g->browser()->toPlainText().contains("ckpt compare"));
        QVERIFY(!g->browser()->toPlainText().contains("```")); // read as Markdown, not as plain text
        // The explorer's page shows 1600-pixel screenshots: each fits the page's width, in proportion.
        g->resize(700, 500);
        g->browser()->setSource(QUrl::fromLocalFile(docs.filePath("explorer.md")));
        int images = 0;
        for (QTextBlock b = g->browser()->document()->begin(); b.isValid(); b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it)
                if (const QTextCharFormat f = it.fragment().charFormat(); f.isImageFormat()) {
                    const QTextImageFormat image = f.toImageFormat();
                    QVERIFY2(image.width() > 100 && image.width() <= g->browser()->viewport()->width(),
                             qPrintable(image.name() + ": " + QString::number(image.width())));
                    QVERIFY(image.height() > 0 && image.height() < image.width()); // the screenshots are wide
                    ++images;
                }
        QVERIFY(images >= 1);
        g->home();
        QCOMPARE(g->browser()->toPlainText(), contents);
    }

    // Help ▸ What's This (Shift+F1) has something to say on every tab and on the Problem panel; every toolbar button
    // with a key names it in its tooltip, and every scheduler has a tooltip naming its paper.
    void panelsExplainThemselves() {
        MainWindow w;
        auto* tabs = w.findChild<QTabWidget*>();
        QVERIFY(tabs && tabs->count() >= 9);
        for (int i = 0; i < tabs->count(); ++i)
            QVERIFY2(tabs->widget(i)->whatsThis().size() > 80, qPrintable(tabs->tabText(i)));
        auto* dock = w.findChild<QDockWidget*>("problem");
        QVERIFY(dock && !dock->whatsThis().isEmpty());
        auto* editor = qobject_cast<QTabWidget*>(dock->widget());
        QVERIFY(editor);
        for (int i = 0; i < editor->count(); ++i) {
            QWidget* page = editor->widget(i);
            if (auto* stack = qobject_cast<QStackedWidget*>(page)) page = stack->currentWidget();
            QVERIFY2(page->whatsThis().size() > 80, qPrintable(editor->tabText(i)));
        }
        bool whatsThis = false;
        for (QAction* a : menuOf(w, "Help")->actions())
            whatsThis |= a->shortcut() == QKeySequence(Qt::SHIFT | Qt::Key_F1);
        QVERIFY(whatsThis);
        int keyed = 0;
        for (QToolBar* bar : w.findChildren<QToolBar*>())
            for (QAction* a : bar->actions())
                if (!a->shortcut().isEmpty()) {
                    ++keyed;
                    const QString key = a->shortcut().toString(QKeySequence::NativeText);
                    QVERIFY2(a->toolTip().contains(key), qPrintable(a->toolTip() + " lacks " + key));
                }
        QVERIFY(keyed >= 5);
        auto* schedulers = w.findChild<QListWidget*>();
        QVERIFY(schedulers && schedulers->count() >= 10);
        for (int i = 0; i < schedulers->count(); ++i)
            QVERIFY2(schedulers->item(i)->toolTip().count('\n') >= 2, qPrintable(schedulers->item(i)->text()));
    }

    void aboutSaysVersionLicenceAndCitation() {
        QFile cmake(QString(CKPT_SOURCE_DIR) + "/CMakeLists.txt");
        QVERIFY(cmake.open(QIODevice::ReadOnly));
        const auto m = QRegularExpression(R"(project\(\s*CheckpointExplorer\s+VERSION\s+([0-9.]+))")
                           .match(QString::fromUtf8(cmake.readAll()));
        QVERIFY(m.hasMatch());
        const QString version = m.captured(1);
        QCOMPARE(appVersion(), version);
        const QString text = aboutText();
        QVERIFY2(text.contains("Checkpoint Explorer</b> " + version), qPrintable(text));
        QVERIFY(text.contains("GPL-3.0-or-later"));
        QVERIFY(text.contains("To cite it: Checkpoint Explorer, version " + version + " (2026)"));
        QVERIFY(text.contains("version = {" + version + "}"));
        // The Help menu has the About item that shows this text.
        QMenu* help = nullptr;
        MainWindow w;
        help = menuOf(w, "Help");
        QVERIFY(help);
        QStringList items;
        for (QAction* a : help->actions())
            if (!a->isSeparator()) items << QString(a->text()).remove('&');
        QCOMPARE(items, QStringList({"User guide", "Keyboard shortcuts", "What's This?", "About"}));
    }
};

QTEST_MAIN(TestMenus)
#include "tst_menus.moc"
