// Chen, Xu, Zhang, Guestrin, "Training Deep Nets with Sublinear Memory Cost" (2016), for graphs: segments cut at
// articulation points, the segment outputs kept, each segment recomputed once before its backward (model B).
// chen-sqrt cuts about every sqrt(n) nodes; chen-greedy is the paper's memory-greedy cut (a new segment once the
// outputs since the last cut exceed b), with b searched over a grid for the fastest plan within the budget.
#include "schedulers/chen.h"

#include "model/graph_shape.h"

#include "schedulers/fit.h"
#include "schedulers/graph_fit.h"

#include <algorithm>
#include <cmath>

namespace ckpt {

namespace {

struct Candidate {
    SegmentPlan plan;
    std::int64_t peak = 0;
    int segments = 0;
};

Candidate evaluate(const Graph& g, const std::vector<int>& cuts) {
    Candidate c;
    c.plan = segmentPlan(g, segmentsAt(g, cuts));
    c.peak = graphPlanPeak(g, c.plan.actions);
    c.segments = int(cuts.size()) + 1;
    return c;
}

GraphPlan toPlan(Candidate c) {
    GraphPlan p;
    p.actions = std::move(c.plan.actions);
    p.predicted_makespan_s = c.plan.makespan_s;
    p.params["segments_used"] = std::to_string(c.segments);
    return p;
}

// Cuts at the separators, a new segment once `bytes` of outputs have accumulated since the last cut.
std::vector<int> greedyCuts(const Graph& g, const std::vector<int>& separators, double bytes) {
    std::vector<char> isSep(std::size_t(g.size()), 0);
    for (int s : separators)
        isSep[std::size_t(s)] = 1;
    std::vector<int> cuts;
    double temp = 0;
    for (int v : g.topologicalOrder()) {
        temp += double(g.node(v).output_bytes);
        if (isSep[std::size_t(v)] && temp > bytes) cuts.push_back(v), temp = 0;
    }
    return cuts;
}

std::vector<ParamSpec> segmentParam() {
    return {{.name = "segments",
             .description = "segments to aim for (0: sqrt of the node count); cuts fall on articulation points only",
             .type = ParamType::Int,
             .default_value = "0",
             .min = 0,
             .max = 1e6}};
}

} // namespace

GraphSchedulerInfo chenSqrtScheduler() {
    GraphSchedulerInfo s;
    s.name = "chen-sqrt";
    s.description = "Segments of about sqrt(n) nodes cut at articulation points, each recomputed once";
    s.paper = "Chen et al. 2016, Training Deep Nets with Sublinear Memory Cost";
    s.optimality = Optimality::Heuristic;
    s.params = segmentParam();
    s.solve = [](const Graph& g, const Hardware& hw, const Params& p,
                 const GraphSolveContext& ctx) -> Result<GraphPlan> {
        long long want = p.integer("segments");
        if (want <= 0) want = std::max(1LL, (long long)std::llround(std::sqrt(double(g.size()))));
        // Every ceil(n / want) nodes, the next separator ends a segment.
        const double every = std::ceil(double(g.size()) / double(want));
        std::vector<int> separators = graphSeparators(g), cuts;
        std::vector<char> isSep(std::size_t(g.size()), 0);
        for (int v : separators)
            isSep[std::size_t(v)] = 1;
        int since = 0;
        for (int v : g.topologicalOrder())
            if (++since >= every && isSep[std::size_t(v)] && (long long)cuts.size() + 1 < want)
                cuts.push_back(v), since = 0;
        Candidate c = evaluate(g, cuts);
        std::int64_t limit = levelZeroLimit(hw, ctx.budget);
        if (limit > 0 && c.peak > limit) return needsBudget("chen-sqrt", c.peak, limit);
        return toPlan(std::move(c));
    };
    return s;
}

GraphSchedulerInfo chenGreedyScheduler() {
    GraphSchedulerInfo s;
    s.name = "chen-greedy";
    s.description = "Memory-greedy segments at articulation points, the threshold searched for the fastest fit";
    s.paper = "Chen et al. 2016, Training Deep Nets with Sublinear Memory Cost";
    s.optimality = Optimality::Heuristic;
    s.params = {{.name = "grid",
                 .description = "thresholds tried between the smallest output and all outputs",
                 .type = ParamType::Int,
                 .default_value = "64",
                 .min = 2,
                 .max = 4096}};
    s.solve = [](const Graph& g, const Hardware& hw, const Params& p,
                 const GraphSolveContext& ctx) -> Result<GraphPlan> {
        const std::int64_t limit = levelZeroLimit(hw, ctx.budget);
        const std::vector<int> separators = graphSeparators(g);
        double total = 0, smallest = 1e300;
        for (const GraphNode& n : g.nodes())
            total += double(n.output_bytes),
                smallest = std::min(smallest, double(std::max<std::int64_t>(1, n.output_bytes)));
        const int grid = int(p.integer("grid"));
        // A geometric grid from the smallest output to the sum of all (one segment), plus every separator cut. A
        // segmentation's time is known without simulating it; its peak is not. So the plans are simulated fastest
        // first, and the first that fits (with its ties in time, for the lowest peak) ends the search: each
        // simulation costs O(n log n), and a grid of them on 1e5 nodes took seconds each.
        struct Option {
            std::vector<int> cuts;
            double makespan;
        };
        std::vector<Option> options;
        for (int k = 0; k <= grid; ++k) {
            if (ctx.cancelled())
                return fail("chen-greedy: cancelled after " + std::to_string(k) + " of " + std::to_string(grid + 1) +
                            " thresholds");
            double b = k == grid ? total : smallest * std::pow(total / smallest, double(k) / grid);
            std::vector<int> cuts = k == 0 ? separators : greedyCuts(g, separators, b);
            if (std::any_of(options.begin(), options.end(), [&](const Option& o) { return o.cuts == cuts; })) continue;
            const double makespan = segmentPlan(g, segmentsAt(g, cuts)).makespan_s;
            options.push_back({std::move(cuts), makespan});
        }
        std::stable_sort(options.begin(), options.end(),
                         [](const Option& a, const Option& b) { return a.makespan < b.makespan; });
        std::optional<Candidate> best;
        std::int64_t leanest = -1;
        for (std::size_t k = 0; k < options.size(); ++k) {
            if (best && options[k].makespan > best->plan.makespan_s) break;
            if (ctx.cancelled())
                return fail("chen-greedy: cancelled after simulating " + std::to_string(k) + " of " +
                            std::to_string(options.size()) + " segmentations");
            Candidate c = evaluate(g, options[k].cuts);
            if (leanest < 0 || c.peak < leanest) leanest = c.peak;
            if (limit > 0 && c.peak > limit) continue;
            if (!best || c.plan.makespan_s < best->plan.makespan_s ||
                (c.plan.makespan_s == best->plan.makespan_s && c.peak < best->peak))
                best = std::move(c);
        }
        if (!best) return needsBudget("chen-greedy", leanest, limit);
        return toPlan(std::move(*best));
    };
    return s;
}

} // namespace ckpt
