#include "model/problem.h"

#include "model/segment_chain.h"

namespace ckpt {

Problem::Problem(Chain chain) : m_problem(std::move(chain)) {}

Problem::Problem(Graph graph) : m_problem(std::move(graph)) {
    const Graph& g = std::get<Graph>(m_problem);
    if (g.isChain()) {
        m_graphChain = g.toChain();
    } else if (auto c = segmentChain(g)) {
        m_graphChain = std::move(*c);
        m_segments = true;
    }
}

const Chain* Problem::chain() const {
    if (const Chain* c = std::get_if<Chain>(&m_problem)) return c;
    return m_graphChain && !m_segments ? &*m_graphChain : nullptr;
}

const std::string& Problem::name() const {
    return std::visit([](const auto& p) -> const std::string& { return p.name(); }, m_problem);
}

int Problem::size() const {
    if (const Graph* g = graph()) return g->size();
    return std::get<Chain>(m_problem).length();
}

double Problem::baselineMakespan() const {
    return std::visit([](const auto& p) { return p.totalForward() + p.totalBackward(); }, m_problem);
}

} // namespace ckpt
