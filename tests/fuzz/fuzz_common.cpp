#include "fuzz_target.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ckpt::fuzz {

void check(bool ok, const std::string& what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
    std::abort();
}

void checkError(const std::string& message, const std::string& source) {
    check(message.rfind(source, 0) == 0, "the message does not start with the file's name: " + message);
}

bool tooLargeByDesign(const nlohmann::json& doc) {
    if (!doc.is_object()) return false;
    auto u = doc.find("uniform");
    if (u == doc.end() || !u->is_object()) return false;
    auto n = u->find("length");
    return n != u->end() && n->is_number() && n->get<double>() > 1e6;
}

Chain fixedChain() {
    std::vector<Step> steps;
    for (int i = 1; i <= 6; ++i)
        steps.push_back(Step{1e-3 * i, 2e-3 * i, 1000 * i, 3000 + 500 * i, i % 2 ? 100 : 0, i % 3 ? 0 : 200});
    return *Chain::make("fixed", std::move(steps));
}

Hardware fixedHardware() {
    return *Hardware::make("fixed",
                           {MemoryLevel{"device", 40'000, 0, 0, 0}, MemoryLevel{"host", 1'000'000, 1e6, 1e6, 1e-5},
                            MemoryLevel{"disk", std::numeric_limits<std::int64_t>::max(), 1e5, 5e4, 1e-3}});
}

Graph fixedGraph() {
    std::vector<GraphNode> nodes = {
        {"a", 1e-3, 2e-3, 1000, 0, true, false, false}, {"b", 2e-3, 4e-3, 2000, 500, true, false, false},
        {"c", 1e-3, 2e-3, 1500, 0, true, true, false},  {"d", 3e-3, 6e-3, 1000, 0, true, false, false},
        {"e", 1e-3, 1e-3, 1000, 0, false, true, true},  {"f", 1e-3, 2e-3, 100, 0, true, false, false}};
    std::vector<GraphEdge> edges = {{"a", "b"}, {"a", "c"}, {"b", "d"}, {"c", "d"}, {"d", "e"}, {"e", "f"}, {"a", "f"}};
    nodes[1].alternatives = {{"fast", 1e-3, 2e-3, 4000}}; // a plan may run b as "fast"
    return *Graph::make("fixed", std::move(nodes), std::move(edges));
}

void checkTimeline(const Timeline& tl, double minimumCompute, const std::string& what) {
    const Totals& t = tl.totals;
    check(std::isfinite(t.makespan_s) && t.makespan_s >= 0, what + ": makespan " + std::to_string(t.makespan_s));
    check(std::isfinite(t.compute_s) && t.compute_s >= 0, what + ": compute time " + std::to_string(t.compute_s));
    // The compute lane runs one action at a time, so the makespan holds all of it (up to rounding).
    check(t.makespan_s >= minimumCompute * (1 - 1e-9),
          what + ": makespan " + std::to_string(t.makespan_s) + " below its compute " + std::to_string(minimumCompute));
    check(t.bytes_written >= 0 && t.bytes_read >= 0, what + ": negative bytes moved");
    for (std::int64_t p : t.peak_bytes)
        check(p >= 0, what + ": negative peak " + std::to_string(p));
    for (const Interval& iv : tl.intervals)
        check(std::isfinite(iv.start) && std::isfinite(iv.end) && iv.end >= iv.start && iv.bytes >= 0,
              what + ": an interval with bad times or bytes");
}

} // namespace ckpt::fuzz
