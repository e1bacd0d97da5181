#pragma once
// The policies frameworks ship, as graph schedulers that the same simulator judges as the papers' ones:
//   full-ac            checkpoint every k-th block: Megatron-LM's --recompute-granularity full (uniform and block
//                      methods), PyTorch's torch.utils.checkpoint per block
//   selective-ac       Megatron-LM's --recompute-granularity selective: the core attention (QK^T, softmax, its
//                      dropout) recomputed, everything else kept (Korthikanti et al. 2022)
//   memory-budget      PyTorch's compiler with activation_memory_budget: a knapsack over which matmul outputs to keep
//   min-cut            PyTorch's default partitioner (min_cut_rematerialization_partition)
//   jax-policy         jax.checkpoint per block with one of its policies (jax.checkpoint_policies)
//   deepspeed-offload  DeepSpeed's activation checkpointing with cpu_checkpointing: checkpoints on level 1
// Each decides which outputs the forward keeps (some written to level 1); the backward rebuilds the rest where they
// are needed (savedSetSchedule). They read the nodes' `op`, `block` and `flops` (model/graph.h).
#include "schedulers/graph_registry.h"

#include <string>
#include <vector>

namespace ckpt {

// The kinds of operation the policies tell apart, from GraphNode::op (case-insensitive) and the graph's shape.
enum class OpKind {
    Input,        // no inputs: the graph's data (PyTorch's primals); always kept
    Dot,          // matmul, convolution, attention: what PyTorch bans from recomputation and JAX calls dots
    Random,       // a dropout mask: PyTorch never recomputes random ops
    Recomputable, // pointwise, normalisation, softmax, views, reductions, embeddings
    Other,        // an operator none of the lists names (banned by PyTorch's allowlist)
};
OpKind opKind(const Graph& graph, int v);
// A dot with batch dimensions (JAX's dot_general with batch dims): a batched matmul between two activations, as
// attention's QK^T and its product with the values; a projection by weights has none.
bool dotWithBatchDims(const Graph& graph, int v);

// What a policy keeps: `keep` in level 0 from its forward until no backward needs it, `offload` written to level 1
// after its forward and read back where a backward needs it. Every other output is freed once its forward consumers
// ran.
// `rerun[v]` >= 0 puts v in a group that the backward reruns whole, as torch.utils.checkpoint and Megatron do: when
// the backward first reaches a node of the group (or needs one of its outputs), every member not held is computed
// again in topological order, even one whose output no backward needs (its copy is dropped at once). Without it
// (empty, or -1), only what a backward needs is rebuilt, as JAX's partial evaluation does.
struct SavedSet {
    std::vector<char> keep;
    std::vector<char> offload;
    std::vector<int> rerun;
};

// The outputs a policy must keep when only `saveable` ones may be kept: those a backward needs, and those the
// recomputation of a needed unsaveable one reads (its inputs, through the unsaveable ones it recomputes first).
std::vector<char> savedFrontier(const Graph& graph, const std::vector<char>& saveable);

// Forward in topological order (writing `offload` to level 1), keeping `keep`; then backward in reverse topological
// order, each preceded by what it needs: read back from level 1, or recomputed from what is held (its inputs first,
// recursively). An output goes as soon as no later backward needs it and nothing that a later backward needs and is
// missing would be rebuilt from it.
GraphSchedule savedSetSchedule(const Graph& graph, const SavedSet& saved);

// The outputs of least total bytes whose keeping lets every output a backward needs be kept or recomputed without
// recomputing a `banned` node (inputs count as banned): PyTorch's min-cut partition, as a maximum flow.
std::vector<char> minCutSaved(const Graph& graph, const std::vector<char>& banned);

// The 0/1 knapsack of PyTorch's memory budget: which items to keep (true) for the most runtime within `capacity`.
// "greedy": by runtime per byte; "dp": exact on sizes quantised to 10^-4 of the capacity scale, as PyTorch's
// dp_knapsack; "ilp": exact, by branch and bound (at most `nodeLimit` nodes, then the best found, `proven` false).
struct KnapsackResult {
    std::vector<char> keep;
    bool proven = true;
};
KnapsackResult solveKnapsack(const std::vector<double>& size, const std::vector<double>& runtime, double capacity,
                             const std::string& solver, long long nodeLimit = 1000000);

GraphSchedulerInfo fullAcScheduler();
GraphSchedulerInfo selectiveAcScheduler();
GraphSchedulerInfo memoryBudgetScheduler();
GraphSchedulerInfo minCutScheduler();
GraphSchedulerInfo jaxPolicyScheduler();
GraphSchedulerInfo deepspeedOffloadScheduler();

} // namespace ckpt
