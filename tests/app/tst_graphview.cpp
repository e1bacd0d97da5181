// Graphs in the explorer, offscreen: open a graph, edit it through the node table and the graph view with undo, run
// graph schedulers, colour the nodes by the plan, keep selection in step, save and reopen, export, screenshot.
#include "io/graph_io.h"
#include "io/graph_plan_io.h"
#include "io/json_io.h"
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "models/focus.h"
#include "models/nodetablemodel.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "schedulers/graph_fit.h"
#include "schedulers/graph_registry.h"
#include "sim/graph_simulator.h"
#include "widgets/graphview.h"
#include "widgets/mainwindow.h"
#include "widgets/schedulerpanel.h"

#include <QAbstractItemModelTester>
#include <QGraphicsView>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace ckpt;

namespace {
std::string jsonOf(const Graph& g) {
    return graphToJson(g).dump();
}
int computeActions(const GraphPlan& p) { // actions that take time on the compute lane: one interval each
    int n = 0;
    for (const GraphAction& a : p.actions)
        n += a.kind != GraphActionKind::Free;
    return n;
}
} // namespace

class TestGraphView : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString writeGraph(const Graph& g, const QString& name) {
        const QString p = m_dir.filePath(name);
        auto ok = saveGraph(p.toStdString(), g);
        return ok ? p : QString();
    }
    // Store-all's run of a random 20-node graph, shown (null if anything failed).
    std::shared_ptr<const ckpt::Run> storeAllOnRandom(MainWindow& w) {
        openRandom(w, 20, 2);
        w.schedulerPanel()->setCurrentScheduler("store-all");
        w.schedulerPanel()->setBudgetBytes(0);
        return w.runCurrentNow();
    }

    void openRandom(MainWindow& w, int nodes = 30, std::uint64_t seed = 7) {
        w.setInteractive(false);
        const QString p = writeGraph(randomLayeredGraph(nodes, seed), "random.ckpt-graph.json");
        QVERIFY(!p.isEmpty());
        QVERIFY2(w.openFile(p), qPrintable(w.lastError()));
    }

private slots:
    void openingAGraphMakesAGraphDocument() {
        MainWindow w;
        const Graph g = randomLayeredGraph(30, 7);
        openRandom(w);
        QVERIFY(w.document()->isGraph());
        QCOMPARE(jsonOf(w.document()->graph()), jsonOf(g));
        QCOMPARE(w.nodeModel()->rowCount(), g.size());
        QCOMPARE(w.graphView()->nodeCount(), g.size());
        QCOMPARE(w.graphView()->edgeCount(), int(g.edges().size()));
        QVERIFY2(w.graphView()->layoutError().isEmpty(), qPrintable(w.graphView()->layoutError())); // Graphviz ran
        // Every node has a box of its own: no two overlap.
        for (int a = 0; a < g.size(); ++a)
            for (int b = a + 1; b < g.size(); ++b)
                QVERIFY(!w.graphView()->nodeRect(a).intersects(w.graphView()->nodeRect(b)));
        for (const GraphSchedulerInfo& s : graphSchedulers()) {
            const auto listed = w.schedulerPanel()->listedSchedulers();
            QVERIFY(std::find(listed.begin(), listed.end(), s.name) != listed.end());
        }
        // Chain-only tabs are off, with the reason.
        // The tab holds the diagram and the Held now panel.
        const int sweep = int(MainWindow::chartTabNames().indexOf("sweep")); // the tabs in that order
        QVERIFY(!w.chartTabs()->isTabEnabled(sweep));
        QVERIFY(w.chartTabs()->tabToolTip(sweep).contains("chain"));
        // A chain file turns the document back.
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json"));
        QVERIFY(!w.document()->isGraph());
        QVERIFY(w.chartTabs()->isTabEnabled(sweep));
        QCOMPARE(w.graphView()->nodeCount(), 0);
    }

    void nodeTablePassesTheModelTester() {
        MainWindow w;
        openRandom(w, 12, 3);
        QAbstractItemModelTester tester(w.nodeModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        NodeTableModel* m = w.nodeModel();
        QCOMPARE(m->columnCount(), int(NodeTableModel::ColumnCount));
        QVERIFY(m->setData(m->index(2, NodeTableModel::Forward), "3ms"));
        QCOMPARE(w.document()->nodes()[2].forward, 3e-3);
        QVERIFY(m->setData(m->index(2, NodeTableModel::Output), "2 MiB"));
        QCOMPARE(w.document()->nodes()[2].output_bytes, std::int64_t(2) << 20);
        QVERIFY(m->setData(m->index(2, NodeTableModel::Flags), "output reversible"));
        QVERIFY(!w.document()->nodes()[2].needs_inputs && w.document()->nodes()[2].needs_output &&
                w.document()->nodes()[2].reversible);
        QCOMPARE(m->index(2, NodeTableModel::Flags).data().toString(), QString("output reversible"));
        QCOMPARE(m->index(2, NodeTableModel::Output).data().toString(), QString("2 MiB"));
        w.document()->undoStack()->undo();
        w.document()->undoStack()->redo();
    }

    void inPlaceNodesAreMarkedAndEditable() {
        MainWindow w;
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/resnet18-b32-224.ckpt-graph.json"));
        const Graph g = w.document()->graph();
        const int relu = g.indexOf("relu"), conv = g.indexOf("conv1"), add = g.indexOf("layer1.0.add");
        QVERIFY(relu >= 0 && conv >= 0 && add >= 0);
        QVERIFY(g.node(relu).in_place && !g.node(conv).in_place);
        // Drawn with ↺ before its size, named in the legend, and read as a word in the table.
        QVERIFY2(w.graphView()->nodeDetail(relu).startsWith(QChar(0x21BA)),
                 qPrintable(w.graphView()->nodeDetail(relu)));
        QVERIFY(!w.graphView()->nodeDetail(conv).contains(QChar(0x21BA)));
        QVERIFY2(w.graphView()->legendText().contains("in place"), qPrintable(w.graphView()->legendText()));
        NodeTableModel* m = w.nodeModel();
        QCOMPARE(m->index(relu, NodeTableModel::Flags).data().toString(), QString("output in-place"));
        // "in" is inputs; "inpl", "inplace" and "in_place" are in-place.
        QVERIFY(m->setData(m->index(conv, NodeTableModel::Flags), "in inpl"));
        QVERIFY(w.document()->nodes()[std::size_t(conv)].needs_inputs &&
                w.document()->nodes()[std::size_t(conv)].in_place);
        QVERIFY(w.graphView()->nodeDetail(conv).startsWith(QChar(0x21BA)));
        QVERIFY(m->setData(m->index(conv, NodeTableModel::Flags), "inputs"));
        QVERIFY(!w.document()->nodes()[std::size_t(conv)].in_place);
        // An add has two inputs: in place is refused, with the reason, and nothing changes.
        const std::string before = jsonOf(w.document()->graph());
        QVERIFY(!m->setData(m->index(add, NodeTableModel::Flags), "in_place"));
        QVERIFY2(w.graphMessage().contains("exactly one input"), qPrintable(w.graphMessage()));
        QCOMPARE(jsonOf(w.document()->graph()), before);
    }

    void implementationsShowBesideTheirNodes() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/convnet-algorithms-b32-64.ckpt-graph.json"));
        const Graph g = w.document()->graph();
        const int conv = g.indexOf("conv2_1"), relu = g.indexOf("relu2_1");
        QCOMPARE(g.implementationCount(conv), 3);
        // Without a budget monet runs every conv on its fastest algorithm (fft), named beside the node.
        w.schedulerPanel()->setCurrentScheduler("monet");
        w.schedulerPanel()->setBudgetBytes(0);
        auto run = w.runCurrentNow();
        QVERIFY(run && run->feasible);
        QCOMPARE(w.graphView()->nodeBadge(conv), QString("fft"));
        QVERIFY(w.graphView()->nodeBadge(relu).isEmpty());
        QVERIFY2(w.graphView()->legendText().contains("6 not their own"), qPrintable(w.graphView()->legendText()));
        // checkmate runs every node as its own: no badges.
        w.schedulerPanel()->setCurrentScheduler("checkmate");
        run = w.runCurrentNow();
        QVERIFY(run && run->feasible);
        QVERIFY(w.graphView()->nodeBadge(conv).isEmpty());
        QVERIFY(!w.graphView()->legendText().contains("not their own"));
    }

    void joinBranchesShowTheOrderTheyAreReversedIn() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/cross-modal-b32.ckpt-graph.json"));
        const Graph g = w.document()->graph();
        const int img = g.indexOf("img_fc"), aud = g.indexOf("aud_fc"), conv = g.indexOf("img_conv1_1");
        QVERIFY(img >= 0 && aud >= 0 && conv >= 0);
        w.schedulerPanel()->setCurrentScheduler("join-dp");
        w.schedulerPanel()->setBudgetBytes(std::int64_t(0.65 * double(graphPlanPeak(g, graphStoreAll(g)))));
        auto run = w.runCurrentNow();
        QVERIFY2(run && run->feasible, run ? run->message.c_str() : "");
        // The plan's own order (its branch_order parameter) is the one beside the branches' last nodes.
        const QStringList order = QString::fromStdString(run->graphPlan()->params.at("branch_order")).split(',');
        QCOMPARE(order.size(), 2);
        QCOMPARE(w.graphView()->nodeBadge(g.indexOf(order[0].toStdString())), QString("\u21B61"));
        QCOMPARE(w.graphView()->nodeBadge(g.indexOf(order[1].toStdString())), QString("\u21B62"));
        QVERIFY(w.graphView()->nodeBadge(conv).isEmpty());
        QVERIFY2(w.graphView()->legendText().contains("n-th of 2"), qPrintable(w.graphView()->legendText()));
        // Any plan on a join graph shows its order; a graph that is no join shows none.
        w.schedulerPanel()->setCurrentScheduler("store-all");
        w.schedulerPanel()->setBudgetBytes(0);
        run = w.runCurrentNow();
        QVERIFY(run && run->feasible);
        QVERIFY(w.graphView()->nodeBadge(img).startsWith(QChar(0x21B6)));
        openRandom(w, 12, 3);
        w.schedulerPanel()->setCurrentScheduler("store-all");
        QVERIFY(w.runCurrentNow());
        QVERIFY(!w.graphView()->legendText().contains("n-th of"));
    }

    void editsUndoToTheExactGraph() {
        MainWindow w;
        openRandom(w, 20, 11);
        Document* doc = w.document();
        const std::string original = jsonOf(doc->graph());
        std::vector<std::string> states{original};
        const QString a = QString::fromStdString(doc->nodes()[0].id);
        const QString last = QString::fromStdString(doc->nodes().back().id);
        // Add a node fed by the first, connect it on to the last, edit its costs, disconnect, remove a node.
        GraphNode fresh{"extra", 1e-3, 2e-3, 4096, 128, true, false, false};
        QCOMPARE(doc->addNode(fresh, {a}), QString());
        states.push_back(jsonOf(doc->graph()));
        QCOMPARE(doc->connectNodes("extra", last), QString());
        states.push_back(jsonOf(doc->graph()));
        QVERIFY(
            w.nodeModel()->setData(w.nodeModel()->index(doc->nodeIndex("extra"), NodeTableModel::Workspace), "1 KiB"));
        states.push_back(jsonOf(doc->graph()));
        QVERIFY(w.nodeModel()->setData(w.nodeModel()->index(doc->nodeIndex("extra"), NodeTableModel::Id), "renamed"));
        QVERIFY(doc->nodeIndex("renamed") >= 0 && doc->nodeInputs(doc->nodeIndex(last)).contains("renamed"));
        states.push_back(jsonOf(doc->graph()));
        QCOMPARE(doc->disconnectNodes(a, "renamed"), QString());
        states.push_back(jsonOf(doc->graph()));
        QCOMPARE(doc->removeNodes({QString::fromStdString(doc->nodes()[5].id)}), QString());
        states.push_back(jsonOf(doc->graph()));
        QCOMPARE(w.graphView()->nodeCount(), doc->graph().size()); // laid out again after each edit
        QCOMPARE(w.graphView()->edgeCount(), int(doc->graph().edges().size()));
        // Undo walks back through every state exactly; redo walks forward again.
        for (std::size_t k = states.size() - 1; k > 0; --k) {
            doc->undoStack()->undo();
            QCOMPARE(jsonOf(doc->graph()), states[k - 1]);
        }
        for (std::size_t k = 1; k < states.size(); ++k) {
            doc->undoStack()->redo();
            QCOMPARE(jsonOf(doc->graph()), states[k]);
        }
    }

    void refusedEditsChangeNothingAndSayWhy() {
        MainWindow w;
        openRandom(w, 15, 5);
        Document* doc = w.document();
        const std::string before = jsonOf(doc->graph());
        const int steps = doc->undoStack()->count();
        // An edge from a sink back to a source closes a cycle (the graph is connected through layers).
        const Graph g = doc->graph();
        const int source = g.topologicalOrder().front(), sink = g.topologicalOrder().back();
        const QString s = QString::fromStdString(g.node(source).id), t = QString::fromStdString(g.node(sink).id);
        QString why = doc->connectNodes(t, s);
        QVERIFY2(why.contains("cycle"), qPrintable(why));
        QVERIFY2(why.contains("'"), qPrintable(why)); // names the node
        // Through the table: the refusal appears under it.
        QSignalSpy refused(w.nodeModel(), &NodeTableModel::editRefused);
        QVERIFY(!w.nodeModel()->setData(w.nodeModel()->index(source, NodeTableModel::Inputs), t));
        QCOMPARE(refused.count(), 1);
        QVERIFY2(w.graphMessage().contains("cycle"), qPrintable(w.graphMessage()));
        QVERIFY(
            !w.nodeModel()->setData(w.nodeModel()->index(1, NodeTableModel::Id), QString::fromStdString(g.node(0).id)));
        QVERIFY2(w.graphMessage().contains("used twice"), qPrintable(w.graphMessage()));
        QVERIFY(!w.nodeModel()->setData(w.nodeModel()->index(1, NodeTableModel::Output), "-5"));
        QVERIFY(!w.nodeModel()->setData(w.nodeModel()->index(1, NodeTableModel::Flags), "sideways"));
        QVERIFY(!doc->removeNodes({"no-such-node"}).isEmpty());
        QCOMPARE(jsonOf(doc->graph()), before);
        QCOMPARE(doc->undoStack()->count(), steps);
    }

    void graphRunsGiveOneIntervalPerComputeAction() {
        MainWindow w;
        openRandom(w, 25, 9);
        w.schedulerPanel()->setBudgetBytes(0);
        for (const GraphSchedulerInfo& s : graphSchedulers()) {
            if (s.name == "checkmate") continue; // a MILP with a time limit: too slow for a GUI test
            w.schedulerPanel()->setCurrentScheduler(s.name);
            auto run = w.runCurrentNow();
            if (!machineLacks(s, w.document()->hardware()).empty()) { // an offload on a one-level machine: n/a
                QVERIFY(run && !run->available && !run->feasible);
                QCOMPARE(run->message, machineLacks(s, w.document()->hardware()));
                continue;
            }
            if (s.lacks && !s.lacks(w.document()->graph()).empty()) { // join-dp on a graph that is no join: n/a
                QVERIFY(run && !run->available && !run->feasible);
                QCOMPARE(run->message, s.lacks(w.document()->graph()));
                continue;
            }
            QVERIFY2(run && run->feasible,
                     qPrintable(QString::fromStdString(s.name + ": " + (run ? run->message : ""))));
            QCOMPARE(run->scheduler, s.name);
            QVERIFY(run->graphPlan() && !run->chainPlan());
            QCOMPARE(int(run->timeline->intervals.size()), computeActions(*run->graphPlan()));
            QCOMPARE(w.timelineView()->intervalCount(), int(run->timeline->intervals.size()));
            // The simulator is the judge: the same plan simulated afresh has the same makespan.
            auto again = simulateGraph(w.document()->graph(), run->graphPlan()->actions);
            QVERIFY(again);
            QCOMPARE(again->totals.makespan_s, run->timeline->totals.makespan_s);
        }
        // Run all compares graph schedulers and fills the comparison.
        w.document()->settings().budgets = "none,75%";
        std::vector<std::string> fast;
        for (const auto& s : graphSchedulers())
            if (s.name != "checkmate") fast.push_back(s.name);
        w.document()->settings().schedulers = fast;
        w.runAllNow();
        QCOMPARE(w.comparisonModel()->rowCount(), int(fast.size() * 2));
    }

    void nodesAreColouredByWhatThePlanDoes() {
        MainWindow w;
        w.setInteractive(false);
        const Graph g = linearGraph(4);
        QVERIFY(w.openFile(writeGraph(g, "linear.ckpt-graph.json")));
        // By hand: node 1's output is freed after node 2 ran and rebuilt for node 2's backward.
        GraphPlan plan;
        plan.scheduler = "by-hand";
        plan.actions = {GraphAction::forward(0), GraphAction::forward(1),  GraphAction::forward(2),
                        GraphAction::forward(3), GraphAction::free(1),     GraphAction::backward(3),
                        GraphAction::forward(1), GraphAction::backward(2), GraphAction::backward(1),
                        GraphAction::backward(0)};
        const QString planPath = m_dir.filePath("by-hand.ckpt-graph-plan.json");
        QVERIFY(saveGraphPlan(planPath.toStdString(), plan, g));
        QVERIFY2(w.openFile(planPath), qPrintable(w.lastError())); // shows the plan
        auto run = w.shownRun();
        QVERIFY(run && run->feasible && run->graphPlan());
        QVERIFY(run->graphPlan()->actions == plan.actions); // the file read back to the same plan
        int recomputeIntervals = 0;
        for (const Interval& iv : run->timeline->intervals)
            if (iv.kind == IntervalKind::Recompute) {
                ++recomputeIntervals;
                QCOMPARE(iv.index, 1);
            }
        QCOMPARE(recomputeIntervals, 1);
        GraphView* view = w.graphView();
        QCOMPARE(view->fate(1), GraphView::Fate::Recomputed);
        QCOMPARE(view->nodeColor(1), GraphView::fateColor(GraphView::Fate::Recomputed));
        for (int v : {0, 2, 3}) {
            QCOMPARE(view->fate(v), GraphView::Fate::Kept);
            QCOMPARE(view->nodeColor(v), GraphView::fateColor(GraphView::Fate::Kept));
        }
        // Drawn with that colour: a pixel inside node 1's box, away from its text.
        w.resize(1400, 900);
        w.showChartTab("graph");
        w.show();
        view->fitToWindow();
        QApplication::processEvents();
        QImage img = view->view()->viewport()->grab().toImage();
        QRectF r = view->nodeRect(1);
        QPoint p = view->view()->mapFromScene(QPointF(r.left() + 4, r.center().y()));
        QCOMPARE(img.pixelColor(p).rgb(), GraphView::fateColor(GraphView::Fate::Recomputed).rgb());
        // The window's cursor on a graph: a click on the Gantt (here its signal) at action 4, "free v1", colours
        // each node by its state then; the timeline marks the action; the node of the action is selected.
        emit w.timelineView()->actionClicked(4, 1);
        QCOMPARE(view->cursor(), 4);
        QCOMPARE(w.timelineView()->markedAction(), 4);
        QCOMPARE(view->nodeState(1), QString("freed (held nowhere)"));
        QCOMPARE(view->nodeState(3), QString("held in level 0"));
        QCOMPARE(view->selectedNodes(), QList<int>{1});
        QVERIFY(view->nodeColor(1) != view->nodeColor(3));
        emit w.timelineView()->actionClicked(6, 1); // "forward v1" again: held
        QCOMPARE(view->nodeState(1), QString("held in level 0"));
        QCOMPARE(view->nodeState(3), QString("backward done"));
        // Without a plan: neutral.
        view->setRun(nullptr);
        QCOMPARE(view->cursor(), -1);
        QCOMPARE(view->fate(1), GraphView::Fate::Neutral);
        // A node freed before its backward and never rebuilt is "freed": store-all with node 1's output dropped
        // early is invalid (node 2's backward needs it), so check the rule on the plan's frees directly.
        Run synthetic = *run;
        auto& synthActions = synthetic.plan->graph()->actions;
        synthActions.insert(synthActions.begin() + 4, GraphAction::free(3));
        auto fates = nodeFates(g, synthetic);
        QCOMPARE(fates[3], GraphView::Fate::Freed);
        // Offloaded: node 0's output goes to a slower level and comes back for node 1's backward.
        Hardware two = *Hardware::make("two", {MemoryLevel{"fast"}, MemoryLevel{"slow", 1LL << 40, 1e9, 1e9, 0}});
        using A = GraphAction;
        GraphPlan off;
        off.actions = {A::forward(0),  A::write(0, 1), A::forward(1), A::free(0),     A::forward(2), A::forward(3),
                       A::backward(3), A::backward(2), A::read(0, 1), A::backward(1), A::backward(0)};
        Run moved = runPlan(off, g, two);
        QVERIFY2(moved.feasible, moved.message.c_str());
        auto movedFates = nodeFates(g, moved);
        QCOMPARE(movedFates[0], GraphView::Fate::Offloaded);
        for (int v : {1, 2, 3})
            QCOMPARE(movedFates[std::size_t(v)], GraphView::Fate::Kept);
    }

    void selectionIsMirrored() {
        MainWindow w;
        auto run = storeAllOnRandom(w);
        QVERIFY(run && run->feasible);
        // The table selects the node in the view.
        w.nodeTable()->selectRow(4);
        QCOMPARE(w.graphView()->selectedNodes(), QList<int>{4});
        // A Gantt click on an interval of node v selects v in the table and the view.
        const Interval& iv = run->timeline->intervals[7];
        emit w.timelineView()->actionClicked(iv.action, iv.index);
        QCOMPARE(w.nodeTable()->currentIndex().row(), iv.index);
        QCOMPARE(w.graphView()->selectedNodes(), QList<int>{iv.index});
        // The view's buttons act on its selection: add a node fed by the selected one, then delete it.
        const int before = w.document()->graph().size();
        QCOMPARE(w.addNodeFromSelection(), QString());
        QCOMPARE(w.document()->graph().size(), before + 1);
        const int added = before; // appended, and selected
        QCOMPARE(w.document()->nodeInputs(added),
                 QStringList{QString::fromStdString(w.document()->nodes()[std::size_t(iv.index)].id)});
        QCOMPARE(w.graphView()->selectedNodes(), QList<int>{added});
        QCOMPARE(w.deleteSelection(), QString());
        QCOMPARE(w.document()->graph().size(), before);
        QVERIFY(!w.connectSelection().isEmpty()); // nothing selected: says to select two
    }

    // One shared cursor and selection (models/focus.h): every view follows it and sets it, and an edit that lays the
    // graph out again leaves nothing selected anywhere, so choosing the same node again selects it everywhere.
    void everyViewFollowsTheSharedFocus() {
        MainWindow w;
        auto run = storeAllOnRandom(w);
        QVERIFY(run && run->feasible);
        Focus* focus = w.focus();
        focus->setNode(3);
        QCOMPARE(w.nodeTable()->currentIndex().row(), 3);
        QCOMPARE(w.graphView()->selectedNodes(), QList<int>{3});
        w.nodeTable()->selectRow(5);
        QCOMPARE(focus->node(), 5);
        QCOMPARE(w.graphView()->selectedNodes(), QList<int>{5});
        emit w.graphView()->nodeSelected(7);
        QCOMPARE(focus->node(), 7);
        QCOMPARE(w.nodeTable()->currentIndex().row(), 7);
        // The graph's cursor: the Gantt and the graph view follow an action set on the focus or asked of the window.
        QVERIFY(w.moveCursor(4));
        QCOMPARE(focus->action(), 4);
        QVERIFY(!w.moveCursor(int(run->graphPlan()->actions.size()))); // no such action: nothing moves
        QCOMPARE(focus->action(), 4);
        // An edit (a node added, then undone): nothing selected; the same node chosen again is selected everywhere.
        QCOMPARE(w.addNodeFromSelection(), QString());
        w.document()->undoStack()->undo();
        QCOMPARE(focus->node(), -1);
        QVERIFY(w.graphView()->selectedNodes().isEmpty());
        w.nodeTable()->selectRow(7);
        QCOMPARE(focus->node(), 7);
        QCOMPARE(w.graphView()->selectedNodes(), QList<int>{7});
    }

    void graphProjectsRoundTrip() {
        MainWindow w;
        openRandom(w, 18, 4);
        w.document()->settings().scheduler = "store-all";
        const QString p = m_dir.filePath("graph.ckpt-project.json");
        QVERIFY(w.saveProjectTo(p));
        auto loaded = loadProject(p.toStdString());
        QVERIFY2(loaded, loaded ? "" : loaded.error().c_str());
        QVERIFY(loaded->graph.has_value());
        QCOMPARE(jsonOf(*loaded->graph), jsonOf(w.document()->graph()));
        QVERIFY(loaded->settings == w.document()->settings());
        MainWindow v;
        v.setInteractive(false);
        QVERIFY2(v.openFile(p), qPrintable(v.lastError()));
        QVERIFY(v.document()->isGraph());
        QCOMPARE(jsonOf(v.document()->graph()), jsonOf(w.document()->graph()));
        // A chain project still loads as a chain.
        Project chainProject{*Chain::uniform("c", 5, Step{1e-3, 2e-3, 100, 300, 0, 0}), Hardware::unbounded(), {}};
        const QString c = m_dir.filePath("chain.ckpt-project.json");
        QVERIFY(saveProject(c.toStdString(), chainProject));
        auto back = loadProject(c.toStdString());
        QVERIFY(back && !back->graph && back->chain.length() == 5);
    }

    void graphPlansExport() {
        MainWindow w;
        openRandom(w, 16, 8);
        w.schedulerPanel()->setCurrentScheduler("store-all");
        w.schedulerPanel()->setBudgetBytes(0);
        auto run = w.runCurrentNow();
        QVERIFY(run && run->feasible);
        const QString json = m_dir.filePath("plan.ckpt-graph-plan.json");
        QCOMPARE(w.exportPlan(json, "json"), QString());
        auto doc = loadJson(json.toStdString());
        QVERIFY(doc && (*doc)["format"] == "ckpt-graph-plan");
        QCOMPARE((*doc)["actions"][0][0].get<std::string>(), std::string("forward"));
        auto back = loadGraphPlan(json.toStdString(), w.document()->graph());
        QVERIFY(back && back->actions == run->graphPlan()->actions);
        const QString csv = m_dir.filePath("plan.csv");
        QCOMPARE(w.exportPlan(csv, "csv"), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count('\n'), qsizetype(run->timeline->intervals.size() + 1));
        const QString trace = m_dir.filePath("plan.trace.json");
        QCOMPARE(w.exportPlan(trace, "trace"), QString());
        QVERIFY(loadJson(trace.toStdString()));
        // A node id the graph does not have is named with its place in the file.
        nlohmann::json bad = *doc;
        bad["actions"][3][1] = "ghost";
        auto refused = graphPlanFromJson(bad, w.document()->graph(), "bad.json");
        QVERIFY(!refused);
        QVERIFY2(refused.error().find("actions[3][1]") != std::string::npos, refused.error().c_str());
    }

    void screenshotOfTheGraphTab() {
        const QString exe = QString(CKPT_BINARY_DIR) + "/app/ckpt-explorer";
        if (!QFileInfo::exists(exe)) QSKIP("ckpt-explorer is not built");
        const QString graph = writeGraph(randomLayeredGraph(40, 5), "shot.ckpt-graph.json");
        const QString out = m_dir.filePath("graph.png");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        p.setProcessEnvironment(env);
        p.start(exe, {"--screenshot", out, "--tab", "graph", graph});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QImage img(out);
        QVERIFY(!img.isNull());
        QVERIFY(img.width() >= 800 && img.height() >= 600);
    }
};

QTEST_MAIN(TestGraphView)
#include "tst_graphview.moc"
