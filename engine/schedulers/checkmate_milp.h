#pragma once
// The parts of checkmate (Jain et al., MLSys 2020) that checkmate.cpp and checkmate_milp.cpp share: the fixed stage
// order, the plan of a stage assignment (frees as early as the stage allows), and the MILP over it solved with CBC.
#include "model/graph.h"
#include "plan/graph_action.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ckpt::checkmate {

// Checkmate's fixed order of the combined graph, in topological positions p = 0..n-1 (node order[p]):
// stage t < n runs the forward of position t for the first time and may recompute positions < t before it;
// stage t >= n runs the backward of position last(t) = 2n-1-t and may recompute positions <= last(t) before it.
// Within a stage, computations run in position order. A backward is never recomputed.
class Stages {
public:
    explicit Stages(const Graph& graph);
    const Graph& graph;
    int n = 0, T = 0; // T = 2n stages
    std::vector<int> order, pos;
    std::vector<std::vector<int>> inputs, consumers; // in positions

    int last(int t) const { return t < n ? t : 2 * n - 1 - t; }
    bool forced(int t, int p) const { return t < n && p == t; }
    // Dead outputs (every consumer reversed, and reversed itself or not needed by its own backward) are released by
    // the simulator and never needed again: they are neither kept nor recomputed.
    bool canCompute(int t, int p) const { return p <= last(t) && (forced(t, p) || t < m_deadFrom[std::size_t(p)]); }
    // Held at the start of stage t (t == T: after the last stage, nothing).
    bool canHold(int t, int p) const { return t < T && p <= last(t) && p < t && t < m_deadFrom[std::size_t(p)]; }
    bool needed(int t, int p) const; // by the backward of stage t
    std::int64_t bytes(int p) const { return graph.node(order[std::size_t(p)]).output_bytes; }
    std::int64_t workspace(int p) const { return graph.node(order[std::size_t(p)]).workspace_bytes; }
    double forward(int p) const { return graph.node(order[std::size_t(p)]).forward; }
    // Gradients alive while stage t recomputes: every unreversed node with a reversed consumer.
    std::int64_t grads(int t) const { return m_grads[std::size_t(t)]; }
    // What the backward of stage t adds on top of grads(t) and the outputs: its workspace, the loss gradient of a
    // sink, the gradients of its inputs that no earlier backward created.
    std::int64_t backwardExtra(int t) const { return m_extra[std::size_t(t)]; }
    int deadFrom(int p) const { return m_deadFrom[std::size_t(p)]; }

private:
    std::vector<int> m_deadFrom;
    std::vector<std::int64_t> m_grads, m_extra;
};

using StageSets = std::vector<std::vector<char>>; // [stage][position]

// The MILP's size before it is built (it grows as n^2 and more): milpBinaries counts the binaries R and S in O(n), a
// lower bound on everything else; countMilp runs the build without storing anything (time proportional to the model)
// and estimates the bytes that building, solving and rounding it take.
// Past this many columns a model is large: CBC gets a MIP start's objective as its cutoff rather than the start (see
// solveMilp), and checkmate searches windows of the plan rather than the whole MILP (checkmate.cpp).
constexpr long long kLargeModelColumns = 20000;
struct MilpSize {
    long long binaries = 0, columns = 0, rows = 0, nonzeros = 0;
    double bytes = 0;
};
long long milpBinaries(const Stages& stages);
MilpSize countMilp(const Stages& stages, std::int64_t limit, const std::atomic<bool>* cancel);

// compute[t][p]: stage t computes position p; keep[t][p]: p is held at the start of stage t (keep has T + 1 rows).
// The inputs of each computation must be held or computed earlier in the stage, as the MILP's constraints say.
// Every output goes right after its last use in the stage unless kept for the next one.
struct StagePlan {
    GraphSchedule actions;
    double makespan_s = 0;
};
StagePlan buildPlan(const Stages& stages, const StageSets& compute, const StageSets& keep);

struct SolvedLp; // an LP relaxation as solved, with its basis (checkmate_milp.cpp)

// A neighbourhood of a schedule that fits, for a large neighbourhood search: the stages first..last choose what they
// compute, and what they hold from first + 1 on; every other stage computes and holds what the schedule says. The
// model has the window's stages only (what it holds at `first` and at last + 1 is fixed), its objective their forwards.
struct Window {
    int first = 0, last = -1;
    const StageSets* compute = nullptr;
    const StageSets* keep = nullptr;
};

struct MilpOptions {
    std::int64_t limit = 0; // bytes, > 0
    bool relax = false;     // solve the LP relaxation only
    double seconds = 60;
    double limit_seconds = 0; // the user's time limit, as messages name it (0: `seconds`, what is left of it)
    long long nodes = 0;      // > 0: CBC stops after this many branch-and-bound nodes (deterministic, unlike seconds)
    long long iterations = 0; // > 0: the LP relaxation stops after this many simplex iterations
    double margin_bytes = 0;  // the memory rows stop this far under the limit (CBC's tolerances, see checkmate.cpp)
    const std::atomic<bool>* cancel = nullptr;
    bool basis_cache = true; // relax: start from (and keep) the last basis of the same model at another budget
    // A known schedule (compute, keep) handed to CBC as its first incumbent (a MIP start), or with relax, whose basis
    // starts the LP when no basis of the same model is cached; empty: none.
    const StageSets* start_compute = nullptr;
    const StageSets* start_keep = nullptr;
    // MONeT (Shah et al. 2021): per position, its implementations, the node's own first (names unused). A position with
    // several gets a binary per implementation (exactly one chosen); its forwards cost the chosen one's time, its
    // computations and its backward hold the chosen one's workspace, and the objective adds the chosen backward's
    // seconds.
    const std::vector<std::vector<NodeImplementation>>* implementations = nullptr;
    // The MILP (relax = false) starts from this LP relaxation as solved, when it was built with the same limit and
    // margin and no implementations: CBC's root then needs no simplex iteration, where it solved the whole LP again
    // (50 s on ResNet-50).
    std::shared_ptr<const SolvedLp> solved_lp;
    // The MILP of this window of the schedule only; the solution keeps the schedule outside it. Not with relax or
    // implementations (the outcome is Failed).
    const Window* window = nullptr;
};

struct MilpOutcome {
    // Stopped: a limit (time, nodes, iterations) ended the solve before a proof; `stopped_by` names it.
    enum class Status { Optimal, Incumbent, Infeasible, Stopped, Cancelled, Failed };
    Status status = Status::Failed;
    std::string stopped_by;
    long long binaries = 0;                      // the model's binary columns as built
    StageSets compute, keep;                     // the solution rounded to 0/1 (MILP)
    std::vector<std::vector<double>> keep_value; // S[t][p] as solved (fractional for the LP)
    double objective_s = 0;                      // forward seconds of the solution (LP: its relaxed objective)
    double bound_s = 0;                          // the solver's lower bound on the forward seconds
    std::vector<int> implementation;             // per position, the chosen one (with implementations)
    std::shared_ptr<const SolvedLp> lp;          // the LP relaxation solved to optimality (relax only), for reuse
    long long iterations = 0;                    // the LP's simplex iterations (relax only)
    bool warm = false;       // the LP started from the basis of the same model at another budget (relax only)
    bool from_start = false; // the LP started from the basis of start_compute and start_keep (relax only)
};
MilpOutcome solveMilp(const Stages& stages, const MilpOptions& options);

} // namespace ckpt::checkmate
