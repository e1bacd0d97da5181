#pragma once
// What the user asks about: a chain or a graph. Every front-end path (run, compare, budgets, exports, node fates)
// takes a Problem, so the choice between the two kinds is made once, here and in the engine functions that take it.
#include "model/chain.h"
#include "model/graph.h"

#include <optional>
#include <string>
#include <variant>

namespace ckpt {

class Problem {
public:
    Problem(Chain chain); // NOLINT(google-explicit-constructor): a chain or a graph is a problem
    Problem(Graph graph); // NOLINT(google-explicit-constructor)

    bool isGraph() const { return std::holds_alternative<Graph>(m_problem); }
    // The graph, or nullptr for a chain.
    const Graph* graph() const { return std::get_if<Graph>(&m_problem); }
    // The problem's chain, or the one a graph that is a chain converts to (Graph::toChain: step i is the i-th node in
    // topological order); nullptr for any other graph.
    const Chain* chain() const;
    // The chain a chain scheduler runs on: chain(), or for a graph that is no chain the chain of its segments between
    // articulation points (model/segment_chain.h: step i runs segment i); nullptr for a graph that none splits.
    const Chain* schedulingChain() const { return m_graphChain ? &*m_graphChain : chain(); }
    // Whether schedulingChain() is a graph's segments (a graph that is no chain).
    bool chainIsSegments() const { return m_segments; }

    const std::string& name() const;
    int size() const; // steps or nodes
    // Store-all's time: every forward and every backward once, the baseline of every overhead ratio.
    double baselineMakespan() const;

private:
    std::variant<Chain, Graph> m_problem;
    std::optional<Chain> m_graphChain; // for a graph that is a chain, or the chain of its segments
    bool m_segments = false;
};

} // namespace ckpt
