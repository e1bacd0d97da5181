#include "plan/branch_order.h"

namespace ckpt {

std::vector<int> branchReversalRank(const Graph& g, const JoinShape& shape, const GraphSchedule& schedule) {
    std::vector<int> branchOf(std::size_t(g.size()), -1), rank(shape.branches.size(), 0);
    for (std::size_t i = 0; i < shape.branches.size(); ++i)
        for (int v : shape.branches[i])
            branchOf[std::size_t(v)] = int(i);
    int next = 0;
    for (const GraphAction& a : schedule)
        if (a.kind == GraphActionKind::Backward && a.node >= 0 && a.node < g.size()) {
            const int b = branchOf[std::size_t(a.node)];
            if (b >= 0 && rank[std::size_t(b)] == 0) rank[std::size_t(b)] = ++next;
        }
    return rank;
}

} // namespace ckpt
