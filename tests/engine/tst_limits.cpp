// What a user opens never crashes or gives a wrong number: headers of every type, byte totals past 64 bits, times
// that would make a makespan infinite, text that is not UTF-8, and files that are not regular files or too large.
#include "io/graph_io.h"
#include "io/graph_plan_io.h"
#include "io/json_io.h"
#include "io/project_io.h"
#include "run/runner.h"
#include "schedulers/fit.h"
#include "schedulers/offload.h"
#include "schedulers/rotor.h"
#include "schedulers/store_all.h"
#include "sim/graph_simulator.h"
#include "sim/memory_ledger.h"
#include "sim/simulator.h"
#include "util/bounds.h"
#include "util/files.h"
#include "util/units.h"
#include "util/utf8.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sys/stat.h>

using namespace ckpt;
using nlohmann::json;

#define VERIFY_CONTAINS(text, part)                                                                                    \
    QVERIFY2(std::string(text).find(part) != std::string::npos,                                                        \
             (std::string(text) + "  [wanted: " + (part) + "]").c_str())

namespace {

constexpr std::int64_t kMax64 = std::numeric_limits<std::int64_t>::max();

// A valid document of each kind, as text, so that a test can break one field.
json validDoc(const std::string& kind) {
    if (kind == "chain")
        return json::parse(R"({"format":"ckpt-chain","version":1,"name":"c",
            "steps":[{"forward":1,"backward":2,"state_bytes":10,"tape_bytes":20}]})");
    if (kind == "hardware")
        return json::parse(R"({"format":"ckpt-hardware","version":1,"name":"h","levels":[{"name":"m"}]})");
    if (kind == "plan") return json::parse(R"({"format":"ckpt-plan","version":1,"actions":[["F",1,"tape"],["B",1]]})");
    if (kind == "graph")
        return json::parse(R"({"format":"ckpt-graph","version":1,"name":"g",
            "nodes":[{"id":"a","forward":1,"output_bytes":10}],"edges":[]})");
    if (kind == "graph plan")
        return json::parse(R"({"format":"ckpt-graph-plan","version":1,"actions":[["forward","a"],["backward","a"]]})");
    json project = json::parse(R"({"format":"ckpt-project","version":1})");
    project["chain"] = validDoc("chain");
    return project;
}

// What reading `doc` as a `kind` document says: "ok" or the message. Nothing may throw.
std::string readAs(const std::string& kind, const json& doc, const std::string& source) {
    auto say = [](const auto& r) { return r ? std::string("ok") : r.error(); };
    if (kind == "chain") return say(chainFromJson(doc, source));
    if (kind == "hardware") return say(hardwareFromJson(doc, source));
    if (kind == "plan") return say(planFromJson(doc, source));
    if (kind == "graph") return say(graphFromJson(doc, source));
    if (kind == "graph plan") {
        Graph g = *graphFromJson(validDoc("graph"), "g.json");
        return say(graphPlanFromJson(doc, g, source));
    }
    return say(projectFromJson(doc, source));
}

std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& text) {
    std::string path = dir.filePath(name).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

} // namespace

class TestLimits : public QObject {
    Q_OBJECT

private slots:
    void headerOfAnyTypeIsAMessage_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("format");
        for (const char* kind : {"chain", "hardware", "plan", "graph", "graph plan", "project"})
            for (const char* format : {"1", "null", "true", "[]", "{}", "\"ckpt-other\""})
                QTest::addRow("%s %s", kind, format) << kind << format;
    }
    void headerOfAnyTypeIsAMessage() {
        QFETCH(QString, kind);
        QFETCH(QString, format);
        json doc = validDoc(kind.toStdString());
        QCOMPARE(readAs(kind.toStdString(), doc, "x.json"), std::string("ok"));
        doc["format"] = json::parse(format.toStdString());
        const std::string message = readAs(kind.toStdString(), doc, "x.json");
        VERIFY_CONTAINS(message, "x.json: ");
        VERIFY_CONTAINS(message, "\"format\"");
        QVERIFY(documentKindOf(doc) == DocumentKind::Unknown);
        // The same through a file, for every loader the program has.
        doc["version"] = 1;
        QTemporaryDir dir;
        std::string path = writeFile(dir, "doc.json", doc.dump());
        Graph g = *graphFromJson(validDoc("graph"), "g.json");
        for (const std::string& got :
             {loadChain(path).errorValue().message, loadHardware(path).errorValue().message,
              loadPlan(path).errorValue().message, loadGraph(path).errorValue().message,
              loadGraphPlan(path, g).errorValue().message, loadProject(path).errorValue().message}) {
            VERIFY_CONTAINS(got, path + ": ");
            VERIFY_CONTAINS(got, "\"format\"");
        }
    }

    void fieldsOfTheWrongTypeNameTheirPath_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("patch"); // a JSON merge patch onto the valid document
        QTest::addColumn<QString>("where");
        QTest::newRow("chain name") << "chain"
                                    << R"({"name": 5})"
                                    << "name: expected a string";
        QTest::newRow("graph name") << "graph"
                                    << R"({"name": [1]})"
                                    << "name: expected a string";
        QTest::newRow("version text") << "chain"
                                      << R"({"version": "1"})"
                                      << "\"version\"";
        QTest::newRow("version huge") << "plan"
                                      << R"({"version": 18446744073709551615})"
                                      << "\"version\"";
        QTest::newRow("project version") << "project"
                                         << R"({"version": null})"
                                         << "\"version\"";
        QTest::newRow("settings") << "project"
                                  << R"({"settings": 3})"
                                  << "settings: expected an object";
        QTest::newRow("settings.scheduler") << "project"
                                            << R"({"settings": {"scheduler": 5}})"
                                            << "settings.scheduler: expected a string";
        QTest::newRow("settings.schedulers") << "project"
                                             << R"({"settings": {"schedulers": ["revolve", 2]}})"
                                             << "settings.schedulers[1]: expected";
        QTest::newRow("settings.params") << "project"
                                         << R"({"settings": {"params": {"revolve": {"slots": 10}}}})"
                                         << "settings.params.revolve.slots: expected a text";
        QTest::newRow("settings.budget_bytes") << "project"
                                               << R"({"settings": {"budget_bytes": -1}})"
                                               << "settings.budget_bytes: expected";
        QTest::newRow("project chain") << "project"
                                       << R"({"chain": {"format": 7}})"
                                       << "chain: expected";
        QTest::newRow("plan params") << "plan"
                                     << R"({"params": {"slots": [1]}})"
                                     << "params.slots: expected";
        QTest::newRow("graph plan params") << "graph plan"
                                           << R"({"params": {"slots": 3}})"
                                           << "params.slots: expected a text";
        QTest::newRow("graph plan level") << "graph plan"
                                          << R"({"actions": [["write", "a", 18446744073709551615]]})"
                                          << "actions[0][2]: expected";
        QTest::newRow("graph flag") << "graph"
                                    << R"({"nodes": [{"id": "a", "forward": 1, "output_bytes": 1,
            "reversible": "yes"}]})"
                                    << "nodes[0].reversible: expected true or false";
        QTest::newRow("graph flops") << "graph"
                                     << R"({"nodes": [{"id": "a", "forward": 1, "output_bytes": 1, "flops": -5}]})"
                                     << "nodes[0].flops: expected a number of operations >= 0";
        QTest::newRow("graph op") << "graph"
                                  << R"({"nodes": [{"id": "a", "forward": 1, "output_bytes": 1, "op": 3}]})"
                                  << "nodes[0].op: expected";
    }
    void fieldsOfTheWrongTypeNameTheirPath() {
        QFETCH(QString, kind);
        QFETCH(QString, patch);
        QFETCH(QString, where);
        json doc = validDoc(kind.toStdString());
        doc.merge_patch(json::parse(patch.toStdString()));
        std::string message = readAs(kind.toStdString(), doc, "x.json");
        VERIFY_CONTAINS(message, "x.json");
        VERIFY_CONTAINS(message, where.toStdString());
    }

    void projectSettingsReadBack() {
        Project p{*Chain::uniform("u", 3, Step{1, 2, 10, 20, 0, 0}), Hardware::unbounded(), {}};
        p.settings.scheduler = "rotor";
        p.settings.schedulers = {"revolve", "rotor"};
        p.settings.params = {{"revolve", {{"slots", "4"}}}};
        p.settings.budget_bytes = 12345;
        auto back = projectFromJson(json::parse(projectToText(p)), "p.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QVERIFY(back->settings == p.settings);
        QVERIFY(back->chain == p.chain);
    }

    void utf8() {
        QVERIFY(isValidUtf8("plain ascii"));
        QVERIFY(isValidUtf8("\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80")); // é, €, an emoji
        for (const char* bad : {"\xFF", "a\x80", "\xC3", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                "\xF8\x88\x80\x80\x80"})
            QVERIFY2(!isValidUtf8(bad), bad);
        QCOMPARE(validUtf8("a\xFF"
                           "b"),
                 std::string("a\xEF\xBF\xBD"
                             "b"));
        QCOMPARE(validUtf8("\xC3\xA9"), std::string("\xC3\xA9"));
        // A file name that is not UTF-8 names the chain: the name must still be writable as JSON.
        json doc = validDoc("chain");
        doc.erase("name");
        auto chain = chainFromJson(doc, "/tmp/r\xE9sum\xE9.ckpt-chain.json");
        QVERIFY(chain.ok());
        QVERIFY(isValidUtf8(chain->name()));
        QCOMPARE(chain->name(), std::string("r\xEF\xBF\xBDsum\xEF\xBF\xBD"));
        QVERIFY(!chainToJson(*chain).dump().empty()); // nlohmann's dump throws on invalid UTF-8
    }

    // The sum of a chain's bytes is bounded on input, so every sum the simulator forms is exact.
    void chainBytesAreBounded() {
        auto huge = Chain::make("huge", {Step{1, 2, 5'000'000'000'000'000'000, 5'000'000'000'000'000'000, 0, 0}});
        QVERIFY(!huge.ok());
        VERIFY_CONTAINS(huge.error(), "step 1: ");
        VERIFY_CONTAINS(huge.error(), "256 PiB");
        // The bound counts x_n (sized as the last step's input) twice: state + tape + state = the bound exactly.
        const std::int64_t x = kMaxTotalBytes / 4, tape = kMaxTotalBytes - 2 * x;
        auto edge = Chain::make("edge", {Step{1, 2, x, tape, 0, 0}});
        QVERIFY2(edge.ok(), edge.ok() ? "" : edge.error().c_str());
        QVERIFY(!Chain::make("over", {Step{1, 2, x, tape + 1, 0, 0}}).ok());
        // The second step takes the total over: the message names it.
        auto two = Chain::make("two", {Step{1, 2, x, tape, 0, 0}, Step{1, 2, 0, x + 1, 0, 0}});
        QVERIFY(!two.ok());
        VERIFY_CONTAINS(two.error(), "step 2: ");
        // Store-all at the bound: x0, x1 and the tape during the forward, exact.
        SimOptions opt;
        auto tl = simulate(*edge, Hardware::unbounded(), storeAllPlan(*edge).actions, opt);
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
        QCOMPARE(tl->totals.peak_bytes[0], 2 * x + tape);
        QCOMPARE(leanestPeak(*edge), 2 * x + tape);
        // From a file: the file and the step are named.
        json doc = validDoc("chain");
        doc["steps"][0]["state_bytes"] = 5'000'000'000'000'000'000;
        doc["steps"][0]["tape_bytes"] = 5'000'000'000'000'000'000;
        auto fromFile = chainFromJson(doc, "big.json");
        QVERIFY(!fromFile.ok());
        VERIFY_CONTAINS(fromFile.error(), "big.json: step 1: ");
        // A uniform chain multiplies one step by its length.
        auto uniform = Chain::uniform("u", 1000, Step{1, 2, kMaxTotalBytes / 1000, 0, 0, 0});
        QVERIFY(!uniform.ok());
        VERIFY_CONTAINS(uniform.error(), "step 1000: ");
    }

    // The programmes that cut memory into slots (rotor, offload-dp, join-dp) count a size of more slots than any table
    // has as kMaxSlotCount: a 1 TB tape among sizes of a few hundred bytes, with slots of 1 B, once overflowed an int
    // and crashed rotor and offload-dp. Now each says what the chain needs.
    void sizesFarOverTheSlotsAreRefusedNotCrashed() {
        QCOMPARE(slotsOf(7, 2), 4);
        QCOMPARE(slotsOf(8, 2), 4);
        QCOMPARE(slotsOf(1'000'000'000'007, 1), kMaxSlotCount);
        QCOMPARE(slotsOf(std::numeric_limits<std::int64_t>::max(), 1), kMaxSlotCount);
        std::vector<Step> steps;
        for (int i = 0; i < 50; ++i)
            steps.push_back(Step{1e-3, 2e-3, 101 + i, i == 5 ? 1'000'000'000'007 : 303 + i, 0, 0});
        const Chain c = *Chain::make("one huge tape", steps);
        const Hardware hw =
            *Hardware::make("two", {MemoryLevel{"fast", std::numeric_limits<std::int64_t>::max(), 0, 0, 0},
                                    MemoryLevel{"host", std::numeric_limits<std::int64_t>::max(), 1e9, 1e9, 0}});
        auto rotor = rotorSolve(c, 2000, 500);
        QVERIFY(!rotor.ok());
        VERIFY_CONTAINS(rotor.error(), "rotor needs at least 1 TB");
        auto offload = offloadDpSolve(c, hw, 1, 2000, 500);
        QVERIFY(!offload.ok());
        VERIFY_CONTAINS(offload.error(), "offload-dp needs at least 1.01 TB (1008064516000 B)"); // offloading the tape
        // With the budget for it, the tape is kept and the plan is store-all's time.
        auto fits = rotorSolve(c, 2'000'000'000'000, 500);
        QVERIFY2(fits.ok(), fits.ok() ? "" : fits.error().c_str());
    }

    void graphBytesAreBounded() {
        auto node = [](const char* id, std::int64_t out, std::int64_t ws) {
            return GraphNode{id, 1, 2, out, ws, true, false, false};
        };
        auto huge = Graph::make("g", {node("a", kMax64 - 5, 0), node("b", 100, 0)}, {{"a", "b"}});
        QVERIFY(!huge.ok());
        VERIFY_CONTAINS(huge.error(), "node 'a': ");
        auto second = Graph::make("g", {node("a", kMaxTotalBytes - 5, 0), node("b", 3, 3)}, {{"a", "b"}});
        QVERIFY(!second.ok());
        VERIFY_CONTAINS(second.error(), "node 'b': ");
        // At the bound the simulator's ledger sums exactly; a chain <-> graph round trip does not refuse (or throw).
        auto edge =
            Graph::make("g", {node("a", kMaxTotalBytes / 2, 0), node("b", kMaxTotalBytes / 2, 0)}, {{"a", "b"}});
        QVERIFY(edge.ok());
        SimOptions opt;
        auto tl = simulateGraph(*edge, graphStoreAll(*edge), opt);
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
        QCOMPARE(tl->totals.peak_bytes[0], graphStoreAllPeak(*edge));
        QVERIFY(tl->totals.peak_bytes[0] >= kMaxTotalBytes);
        Chain c = edge->toChain();
        Graph back = Graph::fromChain(c);
        QCOMPARE(back.size(), 2);
        QVERIFY(leanestPeak(c) > 0);
        QVERIFY(storeAllPeak(c, Hardware::unbounded()) > 0);
    }

    // Past every bound, the ledger refuses a sum it cannot represent rather than wrap it.
    void ledgerRefusesOverflow() {
        MemoryLedger ledger;
        ledger.add(0, 0, 0, MemoryCategory::State, kMax64 - 10);
        ledger.add(1, 0, 1, MemoryCategory::Tape, 5);
        ledger.add(2, 0, 2, MemoryCategory::Tape, 6); // the total would be INT64_MAX + 1
        Timeline tl;
        std::string err;
        std::int64_t reported = 0;
        long long at = ledger.sweep(
            std::numeric_limits<long long>::max(), {0}, true, tl,
            [&](std::int32_t action, int, std::int64_t total, std::int64_t) {
                reported = total;
                return "action " + std::to_string(action);
            },
            err);
        QCOMPARE(at, 2LL);
        QCOMPARE(reported, std::int64_t(-1));
        QCOMPARE(err, std::string("action 2"));
        QCOMPARE(tl.totals.peak_bytes[0], kMax64 - 5); // the peak before the overflow, exact
    }

    void checkedArithmetic() {
        std::int64_t out = 0;
        QVERIFY(checkedAdd(kMax64 - 1, std::int64_t(1), out));
        QCOMPARE(out, kMax64);
        QVERIFY(!checkedAdd(kMax64, std::int64_t(1), out));
        long long ll = std::numeric_limits<long long>::min();
        QVERIFY(!checkedAdd(ll, -1LL, ll));
        QCOMPARE(saturatingSum({kMax64 / 2, kMax64 / 2, 2}), kMax64);
        QCOMPARE(saturatingSum({1, 2, 3}), std::int64_t(6));
    }

    void timesAreBounded() {
        auto bad = Chain::make("c", {Step{1, 2, 1, 1, 0, 0}, Step{1e308, 2, 1, 1, 0, 0}});
        QVERIFY(!bad.ok());
        VERIFY_CONTAINS(bad.error(), "step 2: forward time must be at most 1e9 s");
        VERIFY_CONTAINS(bad.error(), "1e+308");
        QVERIFY(Chain::make("c", {Step{kMaxSeconds, kMaxSeconds, 1, 1, 0, 0}}).ok());
        auto back = Chain::make("c", {Step{1, std::nextafter(kMaxSeconds, 2e9), 1, 1, 0, 0}});
        QVERIFY(!back.ok());
        VERIFY_CONTAINS(back.error(), "step 1: backward time");
        auto node = Graph::make("g", {GraphNode{"n", 1, 1e300, 1, 0, true, false, false}}, {});
        QVERIFY(!node.ok());
        VERIFY_CONTAINS(node.error(), "node 'n': backward time must be at most 1e9 s");
        // From a file, as a number or a duration text.
        json doc = validDoc("chain");
        doc["steps"][0]["forward"] = 1e308;
        VERIFY_CONTAINS(readAs("chain", doc, "t.json"), "t.json: step 1: forward time must be at most 1e9 s");
        doc["steps"][0]["forward"] = "1e308 min";
        VERIFY_CONTAINS(readAs("chain", doc, "t.json"), "t.json: steps[0].forward: duration too large");
        QVERIFY(!parseSeconds("1e308min").ok());
        // The largest times give a finite makespan, so a plan file never gets null and reads back.
        Chain slow = *Chain::uniform("slow", 1000, Step{kMaxSeconds, kMaxSeconds, 1, 1, 0, 0});
        SimOptions opt;
        auto tl = simulate(slow, Hardware::unbounded(), storeAllPlan(slow).actions, opt);
        QVERIFY(tl.ok());
        QCOMPARE(tl->totals.makespan_s, 2000 * kMaxSeconds);
    }

    void hardwareRatesAndLatencyAreBounded_data() {
        QTest::addColumn<double>("read");
        QTest::addColumn<double>("latency");
        QTest::addColumn<QString>("what");
        const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("rate 0") << 0.0 << 0.0 << "read_bytes_per_s must be a finite number >= 1e-9";
        QTest::newRow("rate negative") << -5.0 << 0.0 << "read_bytes_per_s";
        QTest::newRow("rate tiny") << 1e-300 << 0.0 << "read_bytes_per_s";
        QTest::newRow("rate inf") << inf << 0.0 << "read_bytes_per_s";
        QTest::newRow("rate nan") << nan << 0.0 << "read_bytes_per_s";
        QTest::newRow("latency huge") << 1e9 << 1e308 << "latency_s must be at most 1e9 s";
        QTest::newRow("latency inf") << 1e9 << inf << "latency_s must be a finite number >= 0";
        QTest::newRow("latency nan") << 1e9 << nan << "latency_s";
        QTest::newRow("latency negative") << 1e9 << -1.0 << "latency_s";
    }
    void hardwareRatesAndLatencyAreBounded() {
        QFETCH(double, read);
        QFETCH(double, latency);
        QFETCH(QString, what);
        auto hw =
            Hardware::make("h", {MemoryLevel{"dev", 1000, 0, 0, 0}, MemoryLevel{"host", 1000, read, 1e9, latency}});
        QVERIFY(!hw.ok());
        VERIFY_CONTAINS(hw.error(), "level 1 (host): ");
        VERIFY_CONTAINS(hw.error(), what.toStdString());
    }

    void hardwareFromFileNamesTheField() {
        json doc = json::parse(R"({"format":"ckpt-hardware","version":1,"levels":[{"name":"dev"},
            {"name":"host","read_bytes_per_s":1e-10,"write_bytes_per_s":"1 GB/s","latency_s":1e300}]})");
        VERIFY_CONTAINS(readAs("hardware", doc, "h.json"), "h.json: level 1 (host): read_bytes_per_s");
        doc["levels"][1]["read_bytes_per_s"] = 1e9;
        VERIFY_CONTAINS(readAs("hardware", doc, "h.json"), "h.json: level 1 (host): latency_s must be at most 1e9 s");
        doc["levels"][1]["latency_s"] = 1e-4;
        QCOMPARE(readAs("hardware", doc, "h.json"), std::string("ok"));
    }

    // A plan written with an unknown predicted makespan (null) reads back.
    void nullPredictedMakespanReads() {
        json plan = validDoc("plan");
        plan["predicted_makespan_s"] = nullptr;
        QCOMPARE(readAs("plan", plan, "p.json"), std::string("ok"));
        json graphPlan = validDoc("graph plan");
        graphPlan["predicted_makespan_s"] = nullptr;
        QCOMPARE(readAs("graph plan", graphPlan, "p.json"), std::string("ok"));
        plan["predicted_makespan_s"] = "soon";
        VERIFY_CONTAINS(readAs("plan", plan, "p.json"), "p.json: predicted_makespan_s:");
    }

    void budgetPercentagesStayInRange() {
        auto b = parseBudgets("1e300%", [] { return std::int64_t(1000); });
        QVERIFY(b.ok());
        QVERIFY(b->front() > 0);
        QCOMPARE(b->front(), std::int64_t(9.0e18));
        auto small = parseBudgets("50%", [] { return std::int64_t(1000); });
        QCOMPARE(small->front(), std::int64_t(500));
    }

    // Not regular files are refused at once (a FIFO with no writer would block a plain open forever).
    void onlyRegularFilesAreRead() {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("fifo.json").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        auto r = readTextFile(fifo);
        QVERIFY(!r.ok());
        QCOMPARE(r.error(),
                 fifo + ": cannot read (not a regular file: a pipe, a device or a socket never ends or blocks)");
        auto chain = loadChain(fifo);
        QVERIFY(!chain.ok());
        VERIFY_CONTAINS(chain.error(), fifo + ": cannot read (not a regular file");
        if (QFile::exists("/dev/zero"))
            VERIFY_CONTAINS(readTextFile("/dev/zero").error(), "/dev/zero: cannot read (not a regular file");
        auto folder = readTextFile(dir.path().toStdString());
        QVERIFY(!folder.ok());
        QCOMPARE(folder.error(), dir.path().toStdString() + ": cannot read (it is a folder, not a file)");
    }

    void largeFilesAreRefused() {
        QTemporaryDir dir;
        // Sparse: it takes no room on the disk.
        const std::string big = dir.filePath("big.json").toStdString();
        std::ofstream(big).close();
        std::filesystem::resize_file(big, kMaxReadBytes + 1);
        auto r = readTextFile(big);
        QVERIFY(!r.ok());
        QCOMPARE(r.error(), big + ": the file is 268435457 bytes; this program reads files of at most 268435456 bytes "
                                  "(256 MiB; a chain of a million different steps takes 120 to 180 MB)");
        // A file within the limit is read whole.
        std::filesystem::resize_file(big, 1 << 20);
        auto ok = readTextFile(big);
        QVERIFY(ok.ok());
        QCOMPARE(ok->size(), std::size_t(1 << 20));
    }
};

QTEST_GUILESS_MAIN(TestLimits)
#include "tst_limits.moc"
