// engine/io: JSON files (round trips, messages with line:column or JSON paths), atomic saves, CSV and Chrome trace.
#include "io/export.h"
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/project_io.h"
#include "sim/simulator.h"
#include "util/files.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace ckpt;
using nlohmann::json;

#define COMPARE_STR(actual, expected) QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

std::string dirPath(const QTemporaryDir& dir, const char* name) {
    return dir.filePath(name).toStdString();
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
}

std::string fileText(const std::string& path) {
    auto r = readTextFile(path);
    return r ? *r : "<" + r.error() + ">";
}

// What loading `text` as a `kind` document says: "ok" or the message.
std::string loadMessage(const std::string& kind, const std::string& text, const std::string& source) {
    auto doc = parseJson(text, source);
    if (!doc) return doc.error();
    if (kind == "chain") {
        auto r = chainFromJson(*doc, source);
        return r ? "ok" : r.error();
    }
    if (kind == "hardware") {
        auto r = hardwareFromJson(*doc, source);
        return r ? "ok" : r.error();
    }
    auto r = planFromJson(*doc, source);
    return r ? "ok" : r.error();
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string f; std::getline(in, f, ',');)
        out.push_back(f);
    if (!line.empty() && line.back() == ',') out.emplace_back();
    return out;
}

Plan everyKindPlan() {
    Plan p;
    p.scheduler = "revolve";
    p.params = {{"slots", "10"}, {"note", "a, \"quoted\" value"}};
    p.budget_bytes = 123456789;
    p.predicted_makespan_s = 0.1 + 0.2; // not a short decimal: checks full precision
    p.actions = {Action::forward(1, Keep::None),
                 Action::forward(2, Keep::State),
                 Action::forward(3, Keep::Tape),
                 Action::write(2, 1),
                 Action::read(2, 1),
                 Action::free(2, 0),
                 Action::backward(3),
                 Action::forward(0, Keep::None),
                 Action::write(2147483647, 32767)};
    return p;
}

void comparePlans(const Plan& a, const Plan& b) {
    COMPARE_STR(a.scheduler, b.scheduler);
    QVERIFY(a.params == b.params);
    QCOMPARE(a.budget_bytes, b.budget_bytes);
    QCOMPARE(a.predicted_makespan_s, b.predicted_makespan_s);
    QCOMPARE(a.actions.size(), b.actions.size());
    for (std::size_t k = 0; k < a.actions.size(); ++k)
        QVERIFY2(a.actions[k] == b.actions[k], toString(a.actions[k]).c_str());
}

// 3 steps; the schedule writes x1 to level 1, reads it back to re-run step 2, and re-runs step 1 from x0.
struct Scenario {
    Chain chain =
        *Chain::make("three", {Step{1, 2, 100, 300, 0, 0}, Step{1, 2, 100, 300, 0, 0}, Step{1, 2, 100, 300, 0, 0}});
    Hardware hw = *Hardware::make("two levels",
                                  {MemoryLevel{"device", 100000, 0, 0, 0}, MemoryLevel{"host", 100000, 1000, 1000, 0}});
    Plan plan;
    Scenario() {
        plan.scheduler = "hand";
        plan.actions = {Action::forward(1, Keep::State),
                        Action::write(1, 1),
                        Action::forward(2, Keep::None),
                        Action::forward(3, Keep::Tape),
                        Action::backward(3),
                        Action::read(1, 1),
                        Action::free(1, 1),
                        Action::forward(2, Keep::Tape),
                        Action::backward(2),
                        Action::forward(1, Keep::Tape),
                        Action::backward(1)};
    }
};

// The text before offset `at` (a token parseJson refused), without the comma it follows and with the arrays and objects
// still open closed: the values the parser had read when it refused.
std::string closedBefore(const std::string& text, std::size_t at) {
    std::string head = text.substr(0, at);
    while (!head.empty() && (head.back() == ',' || head.back() == ' ' || head.back() == '\n'))
        head.pop_back();
    if (!head.empty() && head.back() == ':') head += "null";
    std::string open;
    bool inString = false;
    for (std::size_t i = 0; i < head.size(); ++i) {
        if (inString) {
            if (head[i] == '\\')
                ++i;
            else if (head[i] == '"')
                inString = false;
        } else if (head[i] == '"') {
            inString = true;
        } else if (head[i] == '[' || head[i] == '{') {
            open += head[i] == '[' ? ']' : '}';
        } else if (head[i] == ']' || head[i] == '}') {
            open.pop_back();
        }
    }
    return head + std::string(open.rbegin(), open.rend());
}

// Bytes malloc has handed out and not had back (glibc only; 0 elsewhere).
std::size_t heapInUse() {
#ifdef __GLIBC__
    const auto info = mallinfo2();
    return info.uordblks + info.hblkhd;
#else
    return 0;
#endif
}

std::string repeated(const std::string& item, int count, const std::string& open, const std::string& close) {
    std::string s = open;
    for (int i = 0; i < count; ++i)
        s += (i ? "," : "") + item;
    return s + close;
}

} // namespace

class TestIo : public QObject {
    Q_OBJECT

private slots:
    void chainRoundTripSteps();
    void chainRoundTripUniform();
    void chainUnitsAndDefaults();
    void hardwareRoundTrip();
    void hardwareUnits();
    void planRoundTripEveryKind();
    void planParamsAndErrorIndex();
    void largePlanRoundTrip();
    void numbersReadBack();
    void malformedJson_data();
    void malformedJson();
    void deepestNestingReads();
    void treeBudget_data();
    void treeBudget();
    void treeBudgetEdge();
    void streamedSteps();
    void badFields_data();
    void badFields();
    void files();
    void csvExport();
    void chromeTrace();
    void shippedFilesLoad();
};

void TestIo::chainRoundTripSteps() {
    std::vector<Step> steps = {Step{0.1 + 0.2, 0.0025, 100, 300, 7, 0}, Step{2.5, 5.0, 4096, 1, 0, 9},
                               Step{1e-7, 3e-7, 0, 0, 0, 0}};
    Chain chain = *Chain::make("mixed", steps);
    json j = chainToJson(chain);
    QVERIFY(j.contains("steps"));
    QVERIFY(!j.contains("uniform"));
    QCOMPARE(j["steps"].size(), std::size_t(3));
    QCOMPARE(j["steps"][0]["forward_tmp_bytes"].get<long long>(), 7LL);
    QVERIFY(!j["steps"][0].contains("backward_tmp_bytes")); // zero temporaries are left out
    QVERIFY(!j["steps"][2].contains("forward_tmp_bytes"));

    auto back = chainFromJson(j, "mem");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
    QVERIFY(*back == chain);

    QTemporaryDir dir;
    std::string path = dirPath(dir, "mixed.ckpt-chain.json");
    auto saved = saveChain(path, chain);
    QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().c_str());
    auto loaded = loadChain(path);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().c_str());
    QVERIFY(*loaded == chain);
    QCOMPARE(loaded->step(1).forward, 0.1 + 0.2);
    // One step per line, "format" and "version" first.
    std::string text = fileText(path);
    QVERIFY2(text.rfind("{\n  \"format\": \"ckpt-chain\",\n  \"version\": 1,\n  \"name\": \"mixed\",", 0) == 0,
             text.c_str());
    QVERIFY2(text.find("\n    {\"forward\": 2.5, \"backward\": 5.0, \"state_bytes\": 4096, \"tape_bytes\": 1, "
                       "\"backward_tmp_bytes\": 9}") != std::string::npos,
             text.c_str());
}

void TestIo::chainRoundTripUniform() {
    Chain chain = *Chain::uniform("rnn", 1000, Step{1.5e-5, 3e-5, 131072, 589824, 64, 0});
    json j = chainToJson(chain);
    QVERIFY(!j.contains("steps"));
    QCOMPARE(j["uniform"]["length"].get<int>(), 1000);
    QCOMPARE(j["uniform"]["tape_bytes"].get<long long>(), 589824LL);
    auto back = chainFromJson(j, "mem");
    QVERIFY(back.ok());
    QVERIFY(*back == chain);

    QTemporaryDir dir;
    std::string path = dirPath(dir, "rnn.json");
    QVERIFY(saveChain(path, chain).ok());
    QVERIFY(fileText(path).size() < 300); // the compact form, not 1000 steps
    auto loaded = loadChain(path);
    QVERIFY(loaded.ok());
    QVERIFY(*loaded == chain);

    // A single step is written as a list: "uniform" with length 1 says nothing more.
    Chain one = *Chain::uniform("one", 1, Step{1, 2, 3, 4, 0, 0});
    json j1 = chainToJson(one);
    QVERIFY(j1.contains("steps"));
    QVERIFY(!j1.contains("uniform"));
    QVERIFY(*chainFromJson(j1, "mem") == one);

    // Rotor's paper model and a final state of its own size travel with the chain; the standard model writes
    // neither field.
    Chain paper = *chain.withModel(MemoryModel::RotorPaper, 4096);
    json jp = chainToJson(paper);
    QCOMPARE(jp["memory_model"].get<std::string>(), std::string("rotor-paper"));
    QCOMPARE(jp["final_state_bytes"].get<long long>(), 4096LL);
    auto paperBack = chainFromJson(jp, "mem");
    QVERIFY(paperBack.ok());
    QVERIFY(*paperBack == paper);
    QCOMPARE(paperBack->stateBytes(1000), std::int64_t(4096));
    QCOMPARE(paperBack->stateBytes(999), std::int64_t(131072));
    QVERIFY(!j.contains("memory_model"));
    QVERIFY(!j.contains("final_state_bytes"));
}

void TestIo::chainUnitsAndDefaults() {
    const std::string text = R"({"format": "ckpt-chain", "version": 1, "comment": "ignored", "future_field": [1, 2],
        "steps": [{"forward": "3ms", "backward": "12 us", "state_bytes": "512 KiB", "tape_bytes": "1.5 GiB",
                   "forward_tmp_bytes": 1e6, "backward_tmp_bytes": "3 KB"},
                  {"forward": 2, "backward": 0.5, "state_bytes": 8, "tape_bytes": "16"}]})";
    auto doc = parseJson(text, "runs/lstm.ckpt-chain.json");
    QVERIFY(doc.ok());
    auto chain = chainFromJson(*doc, "runs/lstm.ckpt-chain.json");
    QVERIFY2(chain.ok(), chain.ok() ? "" : chain.error().c_str());
    COMPARE_STR(chain->name(), "lstm"); // no "name": the file name without folder and extension
    QCOMPARE(chain->length(), 2);
    const Step& s = chain->step(1);
    QVERIFY(std::abs(s.forward - 0.003) < 1e-15);
    QVERIFY(std::abs(s.backward - 12e-6) < 1e-18);
    QCOMPARE(s.state_bytes, std::int64_t(524288));
    QCOMPARE(s.tape_bytes, std::int64_t(1610612736));
    QCOMPARE(s.forward_tmp_bytes, std::int64_t(1000000));
    QCOMPARE(s.backward_tmp_bytes, std::int64_t(3000));
    QCOMPARE(chain->step(2).forward, 2.0);
    QCOMPARE(chain->step(2).tape_bytes, std::int64_t(16));

    auto uni = parseJson(R"({"format": "ckpt-chain", "version": 1, "name": "u",
        "uniform": {"length": 4, "forward": "1 ms", "backward": "2ms", "state_bytes": "1 MiB", "tape_bytes": 2048}})",
                         "u.json");
    QVERIFY(uni.ok());
    auto u = chainFromJson(*uni, "u.json");
    QVERIFY2(u.ok(), u.ok() ? "" : u.error().c_str());
    QCOMPARE(u->length(), 4);
    QVERIFY(u->isUniform());
    QCOMPARE(u->step(4).state_bytes, std::int64_t(1048576));
}

void TestIo::hardwareRoundTrip() {
    Hardware hw =
        *Hardware::make("gpu", {MemoryLevel{"HBM", std::int64_t(40) << 30, 1.555e12, 1.555e12, 0},
                                MemoryLevel{"host", std::numeric_limits<std::int64_t>::max(), 25e9, 24e9, 1e-5},
                                MemoryLevel{"NVMe", 2000000000000, 3.5e9, 3e9, 1e-4}});
    json j = hardwareToJson(hw);
    QCOMPARE(j["levels"].size(), std::size_t(3));
    QCOMPARE(j["levels"][0]["capacity_bytes"].get<long long>(), 42949672960LL);
    QVERIFY(!j["levels"][1].contains("capacity_bytes")); // unbounded
    auto back = hardwareFromJson(j, "mem");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
    QVERIFY(*back == hw);
    QVERIFY(back->isUnbounded(1));

    QTemporaryDir dir;
    std::string path = dirPath(dir, "gpu.ckpt-hardware.json");
    QVERIFY(saveHardware(path, hw).ok());
    auto loaded = loadHardware(path);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().c_str());
    QVERIFY(*loaded == hw);
}

void TestIo::hardwareUnits() {
    auto doc = parseJson(R"({"format": "ckpt-hardware", "version": 1, "levels": [
        {"name": "gpu", "capacity_bytes": "16 GiB"},
        {"name": "host", "capacity_bytes": null, "read_bytes_per_s": "25 GB/s", "write_bytes_per_s": "12.5 GB",
         "latency_s": "10us"},
        {"name": "disk", "read_bytes_per_s": 2e9, "write_bytes_per_s": 1500000000}]})",
                         "/tmp/x/a100.ckpt-hardware.json");
    QVERIFY(doc.ok());
    auto hw = hardwareFromJson(*doc, "/tmp/x/a100.ckpt-hardware.json");
    QVERIFY2(hw.ok(), hw.ok() ? "" : hw.error().c_str());
    COMPARE_STR(hw->name(), "a100");
    QCOMPARE(hw->level(0).capacity_bytes, std::int64_t(17179869184));
    QCOMPARE(hw->level(0).read_bytes_per_s, 0.0); // level 0 rates may be left out
    QVERIFY(hw->isUnbounded(1));
    QVERIFY(hw->isUnbounded(2));
    QCOMPARE(hw->level(1).read_bytes_per_s, 25e9);
    QCOMPARE(hw->level(1).write_bytes_per_s, 12.5e9);
    QVERIFY(std::abs(hw->level(1).latency_s - 1e-5) < 1e-18);
    QCOMPARE(hw->level(2).write_bytes_per_s, 1.5e9);
}

void TestIo::planRoundTripEveryKind() {
    Plan plan = everyKindPlan();
    json j = planToJson(plan);
    COMPARE_STR(j["actions"][0].dump(), R"(["F",1,"none"])");
    COMPARE_STR(j["actions"][1].dump(), R"(["F",2,"state"])");
    COMPARE_STR(j["actions"][2].dump(), R"(["F",3,"tape"])");
    COMPARE_STR(j["actions"][3].dump(), R"(["W",2,1])");
    COMPARE_STR(j["actions"][4].dump(), R"(["R",2,1])");
    COMPARE_STR(j["actions"][5].dump(), R"(["D",2,0])");
    COMPARE_STR(j["actions"][6].dump(), R"(["B",3])");
    QVERIFY(!j.contains("chain"));
    auto back = planFromJson(j, "mem");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
    comparePlans(*back, plan);

    QTemporaryDir dir;
    std::string path = dirPath(dir, "p.ckpt-plan.json");
    Chain chain = *Chain::uniform("rnn", 3, Step{1, 2, 3, 4, 0, 0});
    auto saved = savePlan(path, plan, chain);
    QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().c_str());
    std::string text = fileText(path);
    QVERIFY2(text.find("\n    [\"F\", 2, \"state\"],\n    [\"F\", 3, \"tape\"],\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("\"chain\": {\"name\": \"rnn\", \"length\": 3}") != std::string::npos, text.c_str());
    QVERIFY(text.find("\"actions\"") > text.find("\"predicted_makespan_s\"")); // the long list comes last
    auto loaded = loadPlan(path);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().c_str());
    comparePlans(*loaded, plan);
}

void TestIo::planParamsAndErrorIndex() {
    auto doc = parseJson(R"({"format": "ckpt-plan", "version": 1, "params": {"slots": 10, "ratio": 0.5, "on": true},
        "budget_bytes": "2 MiB", "actions": [["F", 1, "tape"], ["B", 1]]})",
                         "p.json");
    QVERIFY(doc.ok());
    auto plan = planFromJson(*doc, "p.json");
    QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
    COMPARE_STR(plan->params.at("slots"), "10");
    COMPARE_STR(plan->params.at("ratio"), "0.5");
    COMPARE_STR(plan->params.at("on"), "true");
    COMPARE_STR(plan->scheduler, "");
    QCOMPARE(plan->budget_bytes, std::int64_t(2097152));
    QCOMPARE(plan->actions.size(), std::size_t(2));

    auto bad =
        parseJson(R"({"format": "ckpt-plan", "version": 1, "actions": [["F", 1, "tape"], ["B", 1], ["B"]]})", "p.json");
    auto r = planFromJson(*bad, "p.json");
    QVERIFY(!r.ok());
    QCOMPARE(r.errorIndex(), 2LL); // the index of the bad action, as the simulator reports it
    COMPARE_STR(r.error(), "p.json: actions[2]: expected [\"B\", step], got [\"B\"]");
}

void TestIo::largePlanRoundTrip() {
    Plan plan;
    plan.scheduler = "big";
    const int n = 500000;
    plan.actions.reserve(n);
    for (int k = 0; k < n; ++k) {
        switch (k % 5) {
        case 0:
            plan.actions.push_back(Action::forward(k, Keep(k % 3)));
            break;
        case 1:
            plan.actions.push_back(Action::backward(k));
            break;
        case 2:
            plan.actions.push_back(Action::write(k, k % 4));
            break;
        case 3:
            plan.actions.push_back(Action::read(k, 1));
            break;
        default:
            plan.actions.push_back(Action::free(k, 2));
            break;
        }
    }
    QTemporaryDir dir;
    std::string path = dirPath(dir, "big.json");
    QElapsedTimer timer;
    timer.start();
    auto saved = savePlan(path, plan);
    qint64 writeMs = timer.restart();
    auto loaded = loadPlan(path);
    qint64 readMs = timer.elapsed();
    qInfo("500000 actions: write %lld ms, read %lld ms, %zu bytes", writeMs, readMs, fileText(path).size());
    QVERIFY(saved.ok());
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().c_str());
    QVERIFY(loaded->actions == plan.actions);
}

void TestIo::numbersReadBack() {
    const std::vector<double> values = {0.1 + 0.2, 1e-7,     5e-4, 1.555e12, 1e300, 4.9e-324,      123456789.123,
                                        1e16,      9.999e15, -2.5, 0.0,      1.0,   1.34381568e-05};
    json doc = json::array();
    for (double v : values)
        doc.push_back(v);
    std::string text = jsonToText(doc);
    QVERIFY2(text.find("0.0005,") != std::string::npos, text.c_str()); // a plain decimal, not "5e-04"
    QVERIFY2(text.find("1555000000000.0,") != std::string::npos, text.c_str());
    auto back = parseJson(text, "numbers");
    QVERIFY(back.ok());
    QCOMPARE(back->size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        QVERIFY((*back)[i].is_number_float()); // 1.0 stays a float ("1.0"), as nlohmann writes it
        QCOMPARE((*back)[i].get<double>(), values[i]);
    }
}

void TestIo::malformedJson_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("trailing comma") << QByteArray("{\n  \"format\": \"ckpt-chain\",\n  \"version\": 1,\n"
                                                  "  \"steps\": [1, 2,]\n}\n")
                                    << "bad.json:4:18: unexpected ']'; expected '[', '{', or a literal";
    QTest::newRow("unterminated") << QByteArray("{\"a\": 1") << "bad.json:1:8: unexpected end of input; expected '}'";
    QTest::newRow("empty") << QByteArray("") << "bad.json:1:1: no JSON value (the text is empty)";
    QTest::newRow("blank lines") << QByteArray("\n  \n") << "bad.json:3:1: no JSON value (the text is empty)";
    // Columns count characters: "é" is two bytes but one column.
    QTest::newRow("unquoted key") << QByteArray("{\"name\": \"\xc3\xa9\", x: 1}")
                                  << "bad.json:1:15: invalid literal; expected string literal";
    QTest::newRow("bad literal") << QByteArray("[1,\n\n   tru]") << "bad.json:3:7: invalid literal";
    QTest::newRow("number overflow") << QByteArray("{\"version\": 1,\n \"x\": 1e400}")
                                     << "bad.json:2:7: number overflow parsing '1e400'";
    // Nesting deeper than kMaxJsonDepth (256) is refused at the bracket that opens level 257, before the rest is read:
    // 100 MB of "[" used to take 5 GB and end in "std::bad_alloc". Brackets in strings do not count; objects do.
    const QString tooDeep =
        "nested 257 levels deep; this program reads arrays and objects nested at most 256 levels deep";
    QTest::newRow("nested too deep") << QByteArray(257, '[') << "bad.json:1:257: " + tooDeep;
    QTest::newRow("a megabyte of [") << QByteArray(1 << 20, '[') << "bad.json:1:257: " + tooDeep;
    QTest::newRow("nested objects") << QByteArray("{\"s\": \"[{[{\",\n \"a\": ") + QByteArray("{\"a\": [").repeated(200)
                                    << "bad.json:2:902: " + tooDeep;
    QTest::newRow("syntax error first") << QByteArray("[1 ") + QByteArray(300, '[')
                                        << "bad.json:1:4: unexpected '['; expected ']'";
}

void TestIo::malformedJson() {
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QTemporaryDir dir;
    std::string path = dirPath(dir, "bad.json");
    writeFile(path, text.toStdString());
    auto r = loadChain(path);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error()), QString::fromStdString(path).replace("bad.json", "") + message);
}

// kMaxJsonDepth levels still read, whatever the mix of arrays and objects.
void TestIo::deepestNestingReads() {
    std::string text;
    for (std::size_t level = 0; level < kMaxJsonDepth; ++level)
        text += level % 2 ? "[" : "{\"a\": ";
    text += "7";
    for (std::size_t level = kMaxJsonDepth; level-- > 0;)
        text += level % 2 ? "]" : "}";
    auto doc = parseJson(text, "deep.json");
    QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().c_str());
    std::size_t depth = 0;
    const json* v = &*doc;
    for (; v->is_object() || v->is_array(); ++depth)
        v = v->is_object() ? &(*v)["a"] : &(*v)[0];
    QCOMPARE(depth, kMaxJsonDepth);
    QCOMPARE(v->get<int>(), 7);
}

// parseJson refuses the value that would take the tree past its budget, before making it, and says where. 100 MB of
// [{},{},...] took 3.1 GB (the default budget is 1 GiB); here the budget is 1 MiB and the texts at most 1 MB.
void TestIo::treeBudget_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<char>("refusedAt"); // the first character of the token refused
    QTest::addColumn<bool>("filled");    // by the values before that token (not by the one refused)
    QTest::newRow("empty objects") << QByteArray::fromStdString(repeated("{}", 20000, "[", "]")) << '{' << true;
    QTest::newRow("empty arrays") << QByteArray::fromStdString(repeated("[]", 30000, "[", "]")) << '[' << true;
    QTest::newRow("zeros") << QByteArray::fromStdString(repeated("0", 40000, "[", "]")) << '0' << true;
    QTest::newRow("nested zeros") << QByteArray::fromStdString(repeated("0", 40000, "[[", "]]")) << '0' << true;
    QTest::newRow("empty strings") << QByteArray::fromStdString(repeated("\"\"", 30000, "[", "]")) << '"' << true;
    QTest::newRow("strings past 15 characters")
        << QByteArray::fromStdString(repeated("\"" + std::string(40, 'x') + "\"", 10000, "[", "]")) << '"' << true;
    QTest::newRow("one long string") << QByteArray::fromStdString("[\"" + std::string(1 << 20, 'x') + "\"]") << '"'
                                     << false;
    std::string keys = "{";
    for (int i = 0; i < 20000; ++i)
        keys += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": 0";
    QTest::newRow("keys") << QByteArray::fromStdString(keys + "}") << '"' << true;
    // Refused at a key: a new member is made when its key is read.
    QTest::newRow("members") << QByteArray::fromStdString(repeated(R"({"a": 0})", 20000, "[", "]")) << '"' << true;
}

void TestIo::treeBudget() {
    QFETCH(QByteArray, text);
    QFETCH(char, refusedAt);
    QFETCH(bool, filled);
    constexpr std::size_t budget = 1 << 20;
    const std::string t = text.toStdString();
    auto r = parseJson(t, "t.json", budget);
    QVERIFY(!r.ok());
    QVERIFY(r.errorValue().too_large);
    std::smatch m;
    QVERIFY2(
        std::regex_match(r.error(), m,
                         std::regex("t\\.json:1:([0-9]+): the values read up to here would take more than 1 MiB in "
                                    "memory; this program reads JSON that takes at most 1 MiB")),
        r.error().c_str());
    const std::size_t offset = std::stoul(m[1]) - 1; // the texts are ASCII: a column is a byte
    QVERIFY(offset < t.size());
    QCOMPARE(t[offset], refusedAt);

    // What had been read fits: the same text cut before the refused token reads within the budget, and takes no more
    // of the heap than it (nor, if it filled the budget, less than a quarter: the count is not far off).
    const std::string before = closedBefore(t, offset);
    const std::size_t heapBefore = heapInUse();
    auto cut = parseJson(before, "cut.json", budget);
    QVERIFY2(cut.ok(), cut.ok() ? "" : cut.error().c_str());
    const std::size_t taken = heapInUse() - heapBefore;
    if (heapBefore > 0) {
        QVERIFY2(taken <= budget, std::to_string(taken).c_str());
        if (filled) QVERIFY2(taken >= budget / 4, std::to_string(taken).c_str());
    }
    auto whole = parseJson(t, "t.json"); // the default budget, 1 GiB
    QVERIFY2(whole.ok(), whole.ok() ? "" : whole.error().c_str());
}

// Where the budget ends: the count is exact, so one value more is refused (the numbers hold for 64-bit builds).
void TestIo::treeBudgetEdge() {
    constexpr std::size_t budget = 1 << 20;
    const std::string message =
        "the values read up to here would take more than 1 MiB in memory; this program reads JSON that takes at most "
        "1 MiB";
    // An array of n zeros takes its vector (32 bytes), 16 bytes per slot of capacity (32768 here) and 16 bytes of
    // malloc's, and json's destructor a vector of n slots, again with 16 bytes of malloc's: 32 + 524304 + 16 n + 16
    // bytes, exactly 1 MiB for n = 32764.
    QVERIFY(parseJson(repeated("0", 32764, "[", "]"), "t.json", budget).ok());
    auto flat = parseJson(repeated("0", 32765, "[", "]"), "t.json", budget);
    QVERIFY(!flat.ok());
    COMPARE_STR(flat.error(), "t.json:1:65530: " + message);
    // In an object, the destructor's vector starts with the one member and doubles to hold the array's n slots (and
    // its half while it moves them): past the budget once it needs 32768 slots, at n = 16384.
    QVERIFY(parseJson(repeated("0", 16383, "{\"a\":\n[", "]}"), "t.json", budget).ok());
    auto nested = parseJson(repeated("0", 16384, "{\"a\":\n[", "]}"), "t.json", budget);
    QVERIFY(!nested.ok());
    COMPARE_STR(nested.error(), "t.json:2:32768: " + message);
}

// A chain's steps read as they are parsed (JsonArraySink) give the chain the tree gives, and take the memory of the
// steps rather than of a tree: a text whose tree is over the budget reads within it.
void TestIo::streamedSteps() {
    const Chain chain = *Chain::make("r", [] {
        std::vector<Step> steps;
        for (int i = 0; i < 3000; ++i)
            steps.push_back(Step{0.25 * (i % 7 + 1), 0.5 * (i % 5 + 1), 100 + i, 3 * i, i % 3, i % 4});
        return steps;
    }());
    const std::string text = jsonToText(chainToJson(chain));
    auto streamed = chainFromText(text, "r.json");
    QVERIFY2(streamed.ok(), streamed.ok() ? "" : streamed.error().c_str());
    QVERIFY(*streamed == chain);
    auto problem = problemFromText(text, "r.json");
    QVERIFY(problem.ok() && !problem->isGraph() && *problem->chain() == chain);

    // With "format" written last, the steps cannot be told to be a chain's while they are read: the tree reads them.
    json late = chainToJson(chain);
    const std::string format = late["format"];
    late.erase("format");
    std::string lateText = late.dump();
    lateText.insert(lateText.size() - 1, ",\"format\":\"" + format + "\"");
    auto fromLate = chainFromText(lateText, "r.json");
    QVERIFY2(fromLate.ok(), fromLate.ok() ? "" : fromLate.error().c_str());
    QVERIFY(*fromLate == chain);

    // The tree of 3000 steps of six members takes some 2 MiB; handed over one by one, they fit in 256 KiB.
    constexpr std::size_t budget = 256 << 10;
    auto tree = parseJson(text, "r.json", budget);
    QVERIFY(!tree.ok() && tree.errorValue().too_large);
    std::vector<std::size_t> seen;
    JsonArraySink sink{"ckpt-chain", "steps", [&](std::size_t k, const json& step) {
                           QCOMPARE(step["state_bytes"].get<long long>(), 100LL + (long long)k);
                           seen.push_back(k);
                       }};
    auto parsed = parseJson(text, "r.json", budget, &sink);
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
    QVERIFY(sink.streamed);
    QCOMPARE(seen.size(), std::size_t(3000));
    for (std::size_t k = 0; k < seen.size(); ++k)
        QCOMPARE(seen[k], k);
    QCOMPARE((*parsed)["steps"].size(), std::size_t(3000)); // left as nulls
    QVERIFY((*parsed)["steps"][17].is_null());
    // Another format's array of the same name stays in the tree.
    JsonArraySink other{"ckpt-graph", "steps", [&](std::size_t, const json&) { QFAIL("taken"); }};
    auto kept = parseJson(text, "r.json", kMaxJsonTreeBytes, &other);
    QVERIFY(kept.ok() && !other.streamed);
    QCOMPARE((*kept)["steps"][17]["state_bytes"].get<long long>(), 117LL);
}

void TestIo::badFields_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    const QString chain = R"({"format": "ckpt-chain", "version": 1, )";
    const QString hw = R"({"format": "ckpt-hardware", "version": 1, )";
    const QString plan = R"({"format": "ckpt-plan", "version": 1, )";
    const QString ok = R"({"forward": 1, "backward": 2, "state_bytes": 3, "tape_bytes": 4})";

    QTest::newRow("negative size") << "chain"
                                   << chain + R"("steps": [)" + ok +
                                          R"(, {"forward": 1, "backward": 2, "state_bytes": -1, "tape_bytes": 4}]})"
                                   << "c.json: steps[1].state_bytes: expected an integer >= 0, got -1";
    QTest::newRow("negative time")
        << "chain" << chain + R"("steps": [{"forward": -1, "backward": 2, "state_bytes": 3, "tape_bytes": 4}]})"
        << "c.json: steps[0].forward: expected a number >= 0, got -1";
    QTest::newRow("nan time")
        << "chain" << chain + R"("steps": [{"forward": 1, "backward": "nan", "state_bytes": 3, "tape_bytes": 4}]})"
        << "c.json: steps[0].backward: expected a duration such as 0.5, 3ms or 12us, got 'nan'";
    QTest::newRow("fractional size")
        << "chain" << chain + R"("steps": [{"forward": 1, "backward": 2, "state_bytes": 3, "tape_bytes": 4.5}]})"
        << "c.json: steps[0].tape_bytes: expected an integer >= 0, got 4.5";
    QTest::newRow("unknown memory model")
        << "chain" << chain + R"("memory_model": "paper", "steps": [)" + ok + "]}"
        << "c.json: memory_model: expected \"standard\" or \"rotor-paper\", got \"paper\"";
    QTest::newRow("negative final state") << "chain" << chain + R"("final_state_bytes": -5, "steps": [)" + ok + "]}"
                                          << "c.json: final_state_bytes: expected an integer >= 0, got -5";
    QTest::newRow("missing field") << "chain"
                                   << chain + R"("steps": [)" + ok + "," + ok +
                                          R"(, {"forward": 1, "backward": 2, "state_bytes": 3}]})"
                                   << "c.json: steps[2]: missing \"tape_bytes\"";
    QTest::newRow("wrong type")
        << "chain" << chain + R"("steps": [{"forward": 1, "backward": 2, "state_bytes": true, "tape_bytes": 4}]})"
        << "c.json: steps[0].state_bytes: expected an integer >= 0 or a size such as \"512 KiB\", got true";
    QTest::newRow("unknown unit")
        << "chain"
        << chain + R"("steps": [{"forward": "3 fortnights", "backward": 2, "state_bytes": 1, "tape_bytes": 4}]})"
        << "c.json: steps[0].forward: unknown time unit 'fortnights' in '3 fortnights' (use s, ms, us, ns)";
    QTest::newRow("step not an object") << "chain" << chain + R"("steps": [)" + ok + R"(, [1, 2]]})"
                                        << "c.json: steps[1]: expected an object, got [1,2]";
    QTest::newRow("name not a string") << "chain" << chain + R"("name": 5, "steps": [)" + ok + "]}"
                                       << "c.json: name: expected a string, got 5";
    QTest::newRow("wrong format") << "chain"
                                  << R"({"format": "ckpt-hardware", "version": 1})"
                                  << "c.json: expected \"format\": \"ckpt-chain\", got \"ckpt-hardware\"";
    QTest::newRow("missing format") << "chain"
                                    << R"({"version": 1})"
                                    << "c.json: missing \"format\" (expected \"format\": \"ckpt-chain\")";
    QTest::newRow("not an object") << "chain"
                                   << "[1, 2]"
                                   << "c.json: expected a JSON object with \"format\": \"ckpt-chain\", got [1,2]";
    QTest::newRow("version 2") << "chain"
                               << R"({"format": "ckpt-chain", "version": 2})"
                               << "c.json: unsupported \"version\": 2 (this program reads ckpt-chain version 1)";
    QTest::newRow("no version") << "chain"
                                << R"({"format": "ckpt-chain"})"
                                << "c.json: missing \"version\" (this program reads ckpt-chain version 1)";
    QTest::newRow("no steps") << "chain" << chain + R"("name": "x"})"
                              << "c.json: missing \"steps\" (or \"uniform\" for a chain of equal steps)";
    QTest::newRow("both forms") << "chain" << chain + R"("steps": [], "uniform": {}})"
                                << "c.json: give either \"steps\" or \"uniform\", not both";
    QTest::newRow("empty steps") << "chain" << chain + R"("steps": []})"
                                 << "c.json: a chain needs at least one step";
    QTest::newRow("steps repeated: the last kept")
        << "chain"
        << chain + R"("steps": [{"forward": -1, "backward": 2, "state_bytes": 3, "tape_bytes": 4}], "steps": [)" + ok +
               "]}"
        << "ok";
    QTest::newRow("steps repeated: not an array") << "chain" << chain + R"("steps": [)" + ok + R"(], "steps": 5})"
                                                  << "c.json: steps: expected an array of steps, got 5";
    QTest::newRow("steps repeated under another format")
        << "chain"
        << R"({"format": "ckpt-chain", "version": 1, "steps": [{"forward": -1}], "format": "ckpt-graph",
              "steps": [{"forward": 1, "backward": 2, "state_bytes": 3, "tape_bytes": 4}], "format": "ckpt-chain"})"
        << "ok";
    QTest::newRow("format after the steps")
        << "chain"
        << R"({"version": 1, "steps": [{"forward": 1, "backward": 2, "state_bytes": -3, "tape_bytes": 4}],
              "format": "ckpt-chain"})"
        << "c.json: steps[0].state_bytes: expected an integer >= 0, got -3";
    QTest::newRow("a bad header before bad steps")
        << "chain"
        << R"({"format": "ckpt-chain", "version": 2, "steps": [{"forward": -1}]})"
        << "c.json: unsupported \"version\": 2 (this program reads ckpt-chain version 1)";
    QTest::newRow("uniform length")
        << "chain"
        << chain + R"("uniform": {"length": 0, "forward": 1, "backward": 2, "state_bytes": 3, "tape_bytes": 4}})"
        << "c.json: uniform.length: expected an integer from 1 to 50000000, got 0";

    QTest::newRow("hw missing rate") << "hardware"
                                     << hw + R"("levels": [{"name": "gpu"}, {"name": "host", "write_bytes_per_s": 1}]})"
                                     << "h.json: levels[1]: missing \"read_bytes_per_s\"";
    QTest::newRow("hw zero capacity")
        << "hardware" << hw + R"("levels": [{"name": "gpu", "capacity_bytes": 0}]})"
        << "h.json: levels[0].capacity_bytes: expected a size > 0 (or null: unbounded), got 0";
    QTest::newRow("hw zero rate") << "hardware"
                                  << hw + R"("levels": [{}, {"read_bytes_per_s": 0, "write_bytes_per_s": 1}]})"
                                  << "h.json: levels[1].read_bytes_per_s: expected a number > 0, got 0";
    QTest::newRow("hw no levels") << "hardware" << hw + R"("levels": []})"
                                  << "h.json: levels: expected an array of memory levels, level 0 first, got []";

    QTest::newRow("plan short F")
        << "plan" << plan + R"("actions": [["F", 1, "none"], ["F", 1]]})"
        << "p.json: actions[1]: expected [\"F\", step, \"none\"|\"state\"|\"tape\"], got [\"F\",1]";
    QTest::newRow("plan bad keep")
        << "plan" << plan + R"("actions": [["F", 1, "all"]]})"
        << "p.json: actions[0]: expected [\"F\", step, \"none\"|\"state\"|\"tape\"], got [\"F\",1,\"all\"]";
    QTest::newRow("plan negative step") << "plan" << plan + R"("actions": [["F", 1, "tape"], ["B", -3]]})"
                                        << "p.json: actions[1][1]: expected a step from 0 to 2147483647, got -3";
    QTest::newRow("plan fractional level") << "plan" << plan + R"("actions": [["W", 2, 1.5]]})"
                                           << "p.json: actions[0]: expected [\"W\", state, level], got [\"W\",2,1.5]";
    QTest::newRow("plan level range") << "plan" << plan + R"("actions": [["D", 2, 40000]]})"
                                      << "p.json: actions[0][2]: expected a level from 0 to 32767, got 40000";
    QTest::newRow("plan unknown code") << "plan" << plan + R"("actions": [["X", 1]]})"
                                       << "p.json: actions[0]: expected an action such as [\"F\", step, "
                                          "\"none\"|\"state\"|\"tape\"], [\"B\", step], "
                                          "[\"W\"|\"R\"|\"D\", state, level] or [\"WT\"|\"RT\"|\"DT\", step, level], "
                                          "got [\"X\",1]";
    QTest::newRow("plan tape write shape") << "plan" << plan + R"("actions": [["WT", 2]]})"
                                           << "p.json: actions[0]: expected [\"WT\", step, level], got [\"WT\",2]";
    QTest::newRow("plan no actions") << "plan" << plan + R"("scheduler": "revolve"})"
                                     << "p.json: missing \"actions\"";
    QTest::newRow("plan budget") << "plan" << plan + R"("budget_bytes": -5, "actions": []})"
                                 << "p.json: budget_bytes: expected an integer >= 0, got -5";
    QTest::newRow("plan param") << "plan" << plan + R"("params": {"slots": [1]}, "actions": []})"
                                << "p.json: params.slots: expected a string or a number, got [1]";
}

void TestIo::badFields() {
    QFETCH(QString, kind);
    QFETCH(QString, text);
    QFETCH(QString, message);
    std::string source = kind == "chain" ? "c.json" : kind == "hardware" ? "h.json" : "p.json";
    QCOMPARE(QString::fromStdString(loadMessage(kind.toStdString(), text.toStdString(), source)), message);
    if (kind == "chain") {
        // Read as loadChain and the command line read files: the steps as they are parsed, the same messages.
        auto c = chainFromText(text.toStdString(), source);
        QCOMPARE(QString::fromStdString(c ? "ok" : c.error()), message);
        auto p = problemFromText(text.toStdString(), source);
        QCOMPARE(QString::fromStdString(p ? "ok" : p.error()), message);
    }
}

void TestIo::files() {
    auto missing = loadChain("/nonexistent-ckpt/x.json");
    QVERIFY(!missing.ok());
    COMPARE_STR(missing.error(), "/nonexistent-ckpt/x.json: cannot open (No such file or directory)");

    QTemporaryDir dir;
    auto folder = readTextFile(dir.path().toStdString());
    QVERIFY(!folder.ok());
    COMPARE_STR(folder.error(), dir.path().toStdString() + ": cannot read (it is a folder, not a file)");

    std::string path = dirPath(dir, "a.txt");
    QVERIFY(writeTextFileAtomic(path, "first").ok());
    QVERIFY(writeTextFileAtomic(path, std::string("second\0with nul", 15)).ok());
    COMPARE_STR(fileText(path), std::string("second\0with nul", 15));
    QVERIFY(!QFile::exists(QString::fromStdString(path + ".tmp")));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);

    std::string noFolder = dirPath(dir, "no/such/folder/a.json");
    auto bad = writeTextFileAtomic(noFolder, "x");
    QVERIFY(!bad.ok());
    COMPARE_STR(bad.error(), noFolder + ": cannot write (No such file or directory)");
    auto badSave = saveChain(noFolder, *Chain::uniform("c", 2, Step{1, 1, 1, 1, 0, 0}));
    QVERIFY(!badSave.ok());
}

void TestIo::csvExport() {
    Scenario s;
    auto tl = simulate(s.chain, s.hw, s.plan.actions);
    QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
    QCOMPARE(tl->intervals.size(), std::size_t(10)); // every action but the free

    std::string csv = timelineToCsv(s.plan, *tl);
    auto rows = lines(csv);
    QCOMPARE(rows.size(), tl->intervals.size() + 1);
    COMPARE_STR(rows[0], "index,action,kind,step_or_state,keep,level,lane,start_s,end_s,bytes");
    // The write of x1 starts when step 1 ends (1 s) and moves 100 bytes at 1000 B/s.
    COMPARE_STR(rows[2], "1,W1@1,write,1,,1,host,1,1.1,100");
    auto first = fields(rows[1]);
    QCOMPARE(first.size(), std::size_t(10));
    COMPARE_STR(first[1], "F1/state");
    COMPARE_STR(first[4], "state");
    COMPARE_STR(first[6], "compute");
    auto last = fields(rows.back());
    COMPARE_STR(last[1], "B1");
    COMPARE_STR(last[2], "backward");
    QCOMPARE(std::stod(last[8]), tl->totals.makespan_s);
    int recomputes = 0;
    for (std::size_t r = 1; r < rows.size(); ++r)
        recomputes += fields(rows[r])[2] == "recompute";
    QCOMPARE(recomputes, 2);
}

void TestIo::chromeTrace() {
    Scenario s;
    auto tl = simulate(s.chain, s.hw, s.plan.actions);
    QVERIFY(tl.ok());
    std::string text = timelineToChromeTrace(s.plan, *tl);
    auto doc = parseJson(text, "trace.json");
    QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().c_str());
    COMPARE_STR((*doc)["displayTimeUnit"].get<std::string>(), "ms");
    std::map<int, std::string> threads;
    std::size_t complete = 0, counters = 0;
    const json* write = nullptr;
    const json* recompute = nullptr;
    for (const json& e : (*doc)["traceEvents"]) {
        std::string ph = e["ph"].get<std::string>();
        if (ph == "M" && e["name"] == "thread_name")
            threads[e["tid"].get<int>()] = e["args"]["name"].get<std::string>();
        if (ph == "X") {
            ++complete;
            if (e["name"] == "W1\u2192L1") write = &e;
            if (e["cat"] == "recompute" && e["args"]["step"] == 1) recompute = &e;
        }
        if (ph == "C") ++counters;
    }
    QCOMPARE(complete, tl->intervals.size());
    QCOMPARE(threads.size(), std::size_t(2));
    COMPARE_STR(threads[0], "compute");
    COMPARE_STR(threads[1], "host");
    std::size_t samples = 0;
    for (const auto& curve : tl->memory)
        samples += curve.size();
    QVERIFY(samples > 0);
    QCOMPARE(counters, samples);

    QVERIFY(write);
    QCOMPARE((*write)["tid"].get<int>(), 1);
    QCOMPARE((*write)["ts"].get<double>(), 1e6); // microseconds
    QCOMPARE((*write)["dur"].get<double>(), 1e5);
    QCOMPARE((*write)["args"]["state"].get<int>(), 1);
    QCOMPARE((*write)["args"]["bytes"].get<int>(), 100);
    QCOMPARE((*write)["args"]["action"].get<int>(), 1);
    QVERIFY(recompute);
    COMPARE_STR((*recompute)["name"].get<std::string>(), "R1");
    QCOMPARE((*recompute)["args"]["action"].get<int>(), 9);
}

void TestIo::shippedFilesLoad() {
    int count = 0;
    for (const char* folder : {"/examples", "/resources/hardware"}) {
        QDir dir(QStringLiteral(CKPT_SOURCE_DIR) + folder);
        for (const QString& name : dir.entryList({"*.json"}, QDir::Files)) {
            std::string path = dir.filePath(name).toStdString();
            auto doc = loadJson(path);
            QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().c_str());
            std::string format = (*doc)["format"].get<std::string>();
            if (format == "ckpt-chain") {
                auto c = chainFromJson(*doc, path);
                QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
                COMPARE_STR(c->name(), (*doc)["name"].get<std::string>());
                QVERIFY(*chainFromJson(chainToJson(*c), "again") == *c);
            } else if (format == "ckpt-graph") {
                auto g = graphFromJson(*doc, path);
                QVERIFY2(g.ok(), g.ok() ? "" : g.error().c_str());
                QCOMPARE(g->size(), int((*doc)["nodes"].size()));
                auto again = graphFromJson(graphToJson(*g), "again");
                QVERIFY(again.ok() && again->nodes() == g->nodes() && again->edges() == g->edges());
            } else {
                auto h = hardwareFromJson(*doc, path);
                QVERIFY2(h.ok(), h.ok() ? "" : h.error().c_str());
                QCOMPARE(h->levelCount(), int((*doc)["levels"].size()));
                QVERIFY(*hardwareFromJson(hardwareToJson(*h), "again") == *h);
            }
            ++count;
        }
    }
    if (count == 0) QSKIP("no example or preset files in this checkout");
}

QTEST_APPLESS_MAIN(TestIo)
#include "tst_io.moc"
