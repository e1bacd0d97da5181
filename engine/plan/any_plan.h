#pragma once
// One plan of either kind: a chain's (steps) or a graph's (nodes), with what both share.
#include "plan/graph_action.h"
#include "plan/plan.h"

#include <variant>

namespace ckpt {

class AnyPlan {
public:
    AnyPlan(Plan plan) : m_plan(std::move(plan)) {}      // NOLINT(google-explicit-constructor)
    AnyPlan(GraphPlan plan) : m_plan(std::move(plan)) {} // NOLINT(google-explicit-constructor)

    const Plan* chain() const { return std::get_if<Plan>(&m_plan); }
    const GraphPlan* graph() const { return std::get_if<GraphPlan>(&m_plan); }
    Plan* chain() { return std::get_if<Plan>(&m_plan); }
    GraphPlan* graph() { return std::get_if<GraphPlan>(&m_plan); }

    const std::string& scheduler() const {
        return std::visit([](const auto& p) -> const std::string& { return p.scheduler; }, m_plan);
    }
    const std::map<std::string, std::string>& params() const {
        return std::visit([](const auto& p) -> const std::map<std::string, std::string>& { return p.params; }, m_plan);
    }
    std::size_t actionCount() const {
        return std::visit([](const auto& p) { return p.actions.size(); }, m_plan);
    }
    double predictedMakespan() const {
        return std::visit([](const auto& p) { return p.predicted_makespan_s; }, m_plan);
    }
    std::int64_t budgetBytes() const {
        return std::visit([](const auto& p) { return p.budget_bytes; }, m_plan);
    }
    void setBudgetBytes(std::int64_t budget) {
        std::visit([budget](auto& p) { p.budget_bytes = budget; }, m_plan);
    }

private:
    std::variant<Plan, GraphPlan> m_plan;
};

} // namespace ckpt
