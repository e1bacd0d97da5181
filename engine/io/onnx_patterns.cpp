// Kernels that exporters write as primitive operators (onnx_reader.h: findFusions). torch.onnx.export writes GELU as
// x * 0.5 * (1 + erf(x / sqrt 2)) (five nodes), SiLU as x * sigmoid(x), LayerNorm before opset 17 as nine nodes
// (mean, subtract, square, mean, add epsilon, square root, divide, scale, shift) and a hand-written softmax as five;
// every framework runs each as one kernel that saves one or two tensors. A fusion is found from its one distinctive
// operator (Erf, Tanh, Sigmoid, ReduceMean, ReduceMax): its entry is an activation a few nodes above, its exit a few
// nodes below, and every node between them, and no other, must lie on a path from the entry to the exit, with every
// value inside read only inside. The operators it holds then say which kernel it is.
#ifdef CKPT_HAVE_ONNX
#include "io/onnx_reader.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace ckpt::onnxio {

namespace {

// Operators a fused kernel may hold; Cast for exports that compute a norm's statistics in fp32.
const std::set<std::string> kInside = {"Add",        "Sub",       "Mul",       "Div",        "Pow",
                                       "Sqrt",       "Erf",       "Tanh",      "Sigmoid",    "Exp",
                                       "ReduceMean", "ReduceMax", "ReduceSum", "Reciprocal", "Cast"};
constexpr int kMaxInside = 12;
constexpr int kReach = 4; // how far from the distinctive operator the entry and the exit may lie

struct Net {
    const onnx::GraphProto& g;
    std::function<bool(const std::string&)> activation;
    std::unordered_map<std::string, int> producer;
    std::unordered_map<std::string, std::vector<int>> readers;
    std::unordered_set<std::string> graphOutputs;

    Net(const onnx::GraphProto& graph, std::function<bool(const std::string&)> isActivation)
        : g(graph), activation(std::move(isActivation)) {
        for (int k = 0; k < g.node_size(); ++k) {
            for (const auto& out : g.node(k).output())
                if (!out.empty()) producer[out] = k;
            for (const auto& in : g.node(k).input())
                if (!in.empty()) readers[in].push_back(k);
        }
        for (const auto& o : g.output())
            graphOutputs.insert(o.name());
    }

    bool inside(int k) const {
        const auto& n = g.node(k);
        return isDefaultDomain(n.domain()) && kInside.count(n.op_type()) && n.output_size() == 1;
    }
    std::vector<std::string> activations(int k) const {
        std::vector<std::string> out;
        for (const auto& in : g.node(k).input())
            if (!in.empty() && activation(in) && std::find(out.begin(), out.end(), in) == out.end()) out.push_back(in);
        return out;
    }
    // The nodes on paths from value x to node e, or empty when that region is not closed (a value read outside, an
    // activation from elsewhere, an operator no fused kernel holds, too many nodes).
    std::vector<int> region(const std::string& x, int e) const {
        std::vector<int> stack{e}, out;
        std::unordered_set<int> seen{e};
        while (!stack.empty()) {
            const int k = stack.back();
            stack.pop_back();
            if (!inside(k)) return {};
            out.push_back(k);
            if (int(out.size()) > kMaxInside) return {};
            for (const std::string& in : activations(k)) {
                if (in == x) continue;
                auto p = producer.find(in);
                if (p == producer.end()) return {}; // a graph input other than x
                if (seen.insert(p->second).second) stack.push_back(p->second);
            }
        }
        bool readsX = false;
        const std::unordered_set<int> set(out.begin(), out.end());
        for (int k : out) {
            for (const auto& in : g.node(k).input())
                readsX = readsX || in == x;
            if (k == e) continue;
            const std::string& v = g.node(k).output(0);
            if (graphOutputs.count(v)) return {};
            for (int r : readers.at(v))
                if (!set.count(r)) return {};
        }
        if (!readsX) return {};
        std::sort(out.begin(), out.end());
        return out;
    }
};

// Which kernel the operators of a closed region make, or "".
std::string kernelOf(const Net& net, const std::vector<int>& nodes) {
    std::map<std::string, int> count;
    for (int k : nodes)
        ++count[net.g.node(k).op_type()];
    auto has = [&](const char* op) { return count.count(op) ? count.at(op) : 0; };
    auto only = [&](std::initializer_list<const char*> ops) {
        int n = 0;
        for (const char* op : ops)
            n += has(op);
        return n == int(nodes.size());
    };
    const int size = int(nodes.size());
    if (has("Erf") == 1 && has("Mul") >= 1 && has("Add") == 1 && only({"Erf", "Mul", "Div", "Add"}) && size >= 4 &&
        size <= 5)
        return "Gelu";
    if (has("Tanh") == 1 && has("Mul") >= 3 && has("Add") == 2 && only({"Tanh", "Mul", "Add", "Pow"}) && size <= 9)
        return "Gelu";
    if (has("Sigmoid") == 1 && has("Mul") == 1 && size == 2) return "Silu";
    if (has("ReduceMean") == 2 && has("Sqrt") == 1 && has("Sub") == 1 &&
        only({"ReduceMean", "Sub", "Pow", "Mul", "Add", "Sqrt", "Div", "Reciprocal", "Cast"}) && size >= 6 &&
        size <= 10)
        return "LayerNormalization";
    if (has("ReduceMax") == 1 && has("Sub") == 1 && has("Exp") == 1 && has("ReduceSum") == 1 &&
        (has("Div") == 1 || (has("Reciprocal") == 1 && has("Mul") == 1)) && size <= 6)
        return "Softmax";
    return "";
}

} // namespace

std::vector<Fusion> findFusions(const onnx::GraphProto& g, const std::function<bool(const std::string&)>& activation) {
    const Net net(g, activation);
    std::vector<Fusion> found;
    std::vector<char> taken(std::size_t(g.node_size()), 0);
    for (int a = 0; a < g.node_size(); ++a) {
        const std::string& op = g.node(a).op_type();
        if (taken[std::size_t(a)] || !net.inside(a) ||
            (op != "Erf" && op != "Tanh" && op != "Sigmoid" && op != "ReduceMean" && op != "ReduceMax"))
            continue;
        // Entries: activations up to kReach nodes above the anchor; exits: the anchor and the fusable nodes that read
        // from it, directly or not.
        std::vector<std::string> entries;
        std::vector<int> frontier{a};
        for (int d = 0; d < kReach && !frontier.empty(); ++d) {
            std::vector<int> next;
            for (int k : frontier)
                for (const std::string& in : net.activations(k)) {
                    if (std::find(entries.begin(), entries.end(), in) == entries.end()) entries.push_back(in);
                    auto p = net.producer.find(in);
                    if (p != net.producer.end() && net.inside(p->second)) next.push_back(p->second);
                }
            frontier = std::move(next);
        }
        std::vector<int> exits{a};
        for (std::size_t k = 0; k < exits.size() && exits.size() < std::size_t(2 * kMaxInside); ++k) {
            auto it = net.readers.find(g.node(exits[k]).output(0));
            if (it == net.readers.end()) continue;
            for (int r : it->second)
                if (r > a && net.inside(r) && std::find(exits.begin(), exits.end(), r) == exits.end())
                    exits.push_back(r);
        }
        Fusion best;
        for (const std::string& x : entries)
            for (int e : exits) {
                std::vector<int> r = net.region(x, e);
                if (r.size() <= best.nodes.size()) continue;
                bool free = true;
                for (int k : r)
                    free = free && !taken[std::size_t(k)];
                const std::string kernel = free ? kernelOf(net, r) : "";
                if (!kernel.empty()) best = Fusion{kernel, x, e, std::move(r)};
            }
        if (best.nodes.empty()) continue;
        for (int k : best.nodes)
            taken[std::size_t(k)] = 1;
        found.push_back(std::move(best));
    }
    std::sort(found.begin(), found.end(), [](const Fusion& p, const Fusion& q) { return p.exit < q.exit; });
    return found;
}

} // namespace ckpt::onnxio
#endif
