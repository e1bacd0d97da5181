#include "io/onnx_costs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

namespace ckpt {

namespace {

enum class Formula { PerOutput, PerInput, Conv, ConvTranspose, Gemm, MatMul, Einsum, Pool, Recurrent };
// What the backward reads besides the output gradient. Indices: the indices input when it is an activation (Gather
// scatters the gradient back through them), else nothing.
// Products of two operands: x * y keeps what the other operand's gradient needs, so x * c with a constant c keeps
// nothing of x (Operands: its inputs only when two are activations); x / y keeps them when the divisor is one
// (Divisor); Where keeps its condition (Condition).
enum class Needs { None, Inputs, Output, Both, Indices, Operands, Divisor, Condition };

struct Rule {
    Formula formula;
    double per = 0; // FLOPs per output (PerOutput) or input (PerInput) element; Pool: added to the kernel size
    Needs needs;
};

// Backward rules: a product (conv, matmul) needs its inputs for the weight gradient; relu, sigmoid, tanh, exp, sqrt,
// reciprocal and softmax get their derivative from the output alone; a normalisation re-derives its statistics from its
// input; max-pool and max-type reductions re-derive the argmax from input and output; add, sub, copies, average pools
// and sums pass the gradient on; comparisons and rounding have none.
const std::unordered_map<std::string, Rule>& rules() {
    static const std::unordered_map<std::string, Rule> table = [] {
        std::unordered_map<std::string, Rule> t;
        auto per = [&](std::initializer_list<const char*> ops, double flops, Needs needs) {
            for (const char* op : ops)
                t[op] = Rule{Formula::PerOutput, flops, needs};
        };
        auto reduce = [&](std::initializer_list<const char*> ops, Needs needs) {
            for (const char* op : ops)
                t[op] = Rule{Formula::PerInput, 1, needs};
        };
        for (const char* op : {"Conv", "ConvInteger", "QLinearConv"})
            t[op] = Rule{Formula::Conv, 0, Needs::Inputs};
        t["ConvTranspose"] = Rule{Formula::ConvTranspose, 0, Needs::Inputs};
        t["Gemm"] = Rule{Formula::Gemm, 0, Needs::Inputs};
        for (const char* op : {"MatMul", "MatMulInteger", "QLinearMatMul"})
            t[op] = Rule{Formula::MatMul, 0, Needs::Inputs};
        t["Einsum"] = Rule{Formula::Einsum, 0, Needs::Inputs};
        for (const char* op : {"LSTM", "GRU", "RNN"})
            t[op] = Rule{Formula::Recurrent, 0, Needs::Both};
        // MaxPool's backward reads its input and the indices of the maxima (a tensor the importer adds beside it).
        t["MaxPool"] = Rule{Formula::Pool, -1, Needs::Inputs};
        t["AveragePool"] = Rule{Formula::Pool, 0, Needs::Inputs};
        t["LpPool"] = Rule{Formula::Pool, 0, Needs::Both};
        per({"Relu", "Exp", "Sqrt", "Reciprocal"}, 1, Needs::Output);
        per({"Sigmoid", "Tanh"}, 4, Needs::Output);
        per({"Softmax", "LogSoftmax", "Hardmax"}, 5, Needs::Output);
        per({"BatchNormalization", "LayerNormalization", "InstanceNormalization", "GroupNormalization",
             "MeanVarianceNormalization", "LpNormalization"},
            8, Needs::Inputs);
        per({"Mul"}, 1, Needs::Operands);
        per({"Div"}, 1, Needs::Divisor);
        per({"Where"}, 1, Needs::Condition);
        per({"Pow", "Log", "Erf", "Abs",  "Max",  "Min",  "Clip", "Mod",  "LeakyRelu", "PRelu", "ThresholdedRelu",
             "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh",     "Acosh", "Atanh"},
            1, Needs::Inputs);
        per({"Elu", "Celu", "Selu", "Softplus", "Softsign", "HardSigmoid", "HardSwish", "Shrink", "Mish", "Gelu",
             "Silu"},
            4, Needs::Inputs);
        per({"Add",   "Sub",      "Neg",     "Sum",         "Mean",
             "Cast",  "CastLike", "Floor",   "Ceil",        "Round",
             "Sign",  "Not",      "And",     "Or",          "Xor",
             "Equal", "Less",     "Greater", "LessOrEqual", "GreaterOrEqual",
             "IsNaN", "IsInf",    "BitShift"},
            1, Needs::None);
        // Copies: 1 per output element, as the examples' concat.
        per({"Transpose",
             "Concat",
             "Split",
             "Slice",
             "Expand",
             "Tile",
             "Pad",
             "Resize",
             "Upsample",
             "DepthToSpace",
             "SpaceToDepth",
             "Trilu",
             "ReverseSequence",
             "CumSum",
             "OneHot",
             "Compress",
             "EyeLike",
             "NonZero",
             "ConstantOfShape",
             "Range",
             "QuantizeLinear",
             "DequantizeLinear",
             "Bernoulli",
             "ArgMax",
             "ArgMin"},
            1, Needs::None);
        per({"Gather", "GatherElements", "GatherND"}, 1, Needs::Indices);
        per({"ScatterElements", "ScatterND", "TopK"}, 1, Needs::Both);
        reduce({"ReduceMean", "ReduceSum"}, Needs::None);
        // As PyTorch's adaptive average pooling, which keeps its input (for its size).
        reduce({"GlobalAveragePool"}, Needs::Inputs);
        // In a training export (the importer decides): its mask is a node of its own.
        per({"Dropout"}, 1, Needs::None);
        reduce({"ReduceMax", "ReduceMin", "ReduceProd", "ReduceL2", "ReduceLogSumExp", "GlobalMaxPool", "GlobalLpPool"},
               Needs::Both);
        reduce({"ReduceL1", "ReduceSumSquare", "ReduceLogSum"}, Needs::Inputs);
        return t;
    }();
    return table;
}

double product(const std::vector<std::int64_t>& dims, std::size_t from = 0) {
    double p = 1;
    for (std::size_t k = from; k < dims.size(); ++k)
        p *= double(dims[k]);
    return p;
}

std::int64_t attr(const OnnxOp& op, const char* name, std::int64_t fallback) {
    auto it = op.ints.find(name);
    return it == op.ints.end() || it->second.empty() ? fallback : it->second.front();
}

const OnnxTensor* input(const OnnxOp& op, std::size_t k) {
    return k < op.inputs.size() && op.inputs[k].present ? &op.inputs[k] : nullptr;
}

double outputElements(const OnnxOp& op) {
    return op.outputs.empty() || !op.outputs.front().present ? 0 : product(op.outputs.front().dims);
}

// Two FLOPs per multiply-add over every combination of the equation's letters ("bij,bjk->bik": b*i*j*k); with
// "..." (or a shape that does not fit) the output elements times the contracted letters.
double einsumFlops(const OnnxOp& op) {
    const std::string& eq = op.equation;
    const auto arrow = eq.find("->");
    const std::string lhs = eq.substr(0, arrow);
    std::map<char, std::int64_t> size;
    std::size_t operand = 0, letter = 0;
    bool ellipsis = eq.find("...") != std::string::npos;
    for (char c : lhs) {
        if (c == ',') {
            ++operand, letter = 0;
        } else if (std::isalpha(static_cast<unsigned char>(c))) {
            const OnnxTensor* t = input(op, operand);
            if (!t || letter >= t->dims.size())
                ellipsis = true;
            else
                size[c] = t->dims[letter];
            ++letter;
        }
    }
    const double operands = double(std::count(lhs.begin(), lhs.end(), ',') + 1);
    const double madds = operands > 1 ? 2 * (operands - 1) : 1;
    if (ellipsis || size.empty()) return madds * outputElements(op);
    double all = 1;
    for (const auto& [c, n] : size)
        all *= double(n);
    return madds * all;
}

// Every output the network uses (a Split's parts, TopK's values and indices).
double allOutputElements(const OnnxOp& op) {
    double n = 0;
    for (const OnnxTensor& t : op.outputs)
        if (t.present) n += product(t.dims);
    return n;
}

double formulaFlops(const Rule& rule, const OnnxOp& op) {
    const double out = outputElements(op);
    const OnnxTensor* x = input(op, 0);
    const OnnxTensor* w = input(op, 1);
    const double in = x ? product(x->dims) : 0;
    switch (rule.formula) {
    case Formula::PerOutput:
        return rule.per * allOutputElements(op);
    case Formula::PerInput:
        return rule.per * in;
    case Formula::Conv: // weight (Cout, Cin/group, k...): every output element is Cin/group * k... multiply-adds
        return w ? 2 * out * product(w->dims, 1) + (input(op, 2) ? out : 0) : 0;
    case Formula::ConvTranspose: // weight (Cin, Cout/group, k...): every input element scatters into Cout/group * k...
        return w ? 2 * in * product(w->dims, 1) + (input(op, 2) ? out : 0) : 0;
    case Formula::Gemm: { // A (M, K) or transposed
        if (!x || x->dims.size() != 2) return 0;
        const double k = double(attr(op, "transA", 0) ? x->dims[0] : x->dims[1]);
        return 2 * out * k + (input(op, 2) ? out : 0);
    }
    case Formula::MatMul: // (..., M, K) x (..., K, N): K multiply-adds per output element
        return x && !x->dims.empty() ? 2 * out * double(x->dims.back()) : 0;
    case Formula::Einsum:
        return einsumFlops(op);
    case Formula::Pool: {
        auto it = op.ints.find("kernel_shape");
        const double k = it == op.ints.end() ? 1 : product(it->second);
        return out * std::max(0.0, k + rule.per);
    }
    case Formula::Recurrent: { // X (S, B, I), W (directions, gates*H, I), R (directions, gates*H, H)
        const OnnxTensor* r = input(op, 2);
        if (!x || !w || !r || x->dims.size() != 3 || w->dims.size() != 3 || r->dims.size() != 3) return 0;
        const double steps = double(x->dims[attr(op, "layout", 0) ? 1 : 0]);
        const double batch = double(x->dims[attr(op, "layout", 0) ? 0 : 1]);
        return 2 * steps * batch * double(w->dims[0]) * double(w->dims[1]) * double(w->dims[2] + r->dims[2]);
    }
    }
    return 0;
}

} // namespace

OnnxOpKind onnxOpKind(const std::string& op) {
    static const std::unordered_map<std::string, OnnxOpKind> special = {
        {"Reshape", OnnxOpKind::View},
        {"Flatten", OnnxOpKind::View},
        {"Squeeze", OnnxOpKind::View},
        {"Unsqueeze", OnnxOpKind::View},
        {"Identity", OnnxOpKind::View},
        {"Dropout", OnnxOpKind::View},
        {"Shape", OnnxOpKind::ShapeOnly},
        {"Size", OnnxOpKind::ShapeOnly},
        {"Constant", OnnxOpKind::ShapeOnly},
        // Random numbers of another tensor's shape (stochastic depth's noise): they read its shape, not its values,
        // and need no gradient.
        {"RandomNormalLike", OnnxOpKind::ShapeOnly},
        {"RandomUniformLike", OnnxOpKind::ShapeOnly},
        {"Loop", OnnxOpKind::ControlFlow},
        {"If", OnnxOpKind::ControlFlow},
        {"Scan", OnnxOpKind::ControlFlow},
        {"SequenceMap", OnnxOpKind::ControlFlow},
    };
    if (auto it = special.find(op); it != special.end()) return it->second;
    return rules().count(op) ? OnnxOpKind::Compute : OnnxOpKind::Unknown;
}

OnnxOpCost onnxOpCost(const OnnxOp& op) {
    OnnxOpCost cost;
    auto it = rules().find(op.type);
    if (it == rules().end()) return cost;
    const Rule& rule = it->second;
    cost.flops = formulaFlops(rule, op);
    for (const OnnxTensor& t : op.inputs)
        if (t.present) cost.bytes_moved += double(t.bytes);
    for (const OnnxTensor& t : op.outputs)
        if (t.present) cost.bytes_moved += double(t.bytes);
    switch (rule.needs) {
    case Needs::None:
        cost.needs_inputs = false;
        break;
    case Needs::Inputs:
        break;
    case Needs::Output:
        cost.needs_inputs = false, cost.needs_output = true;
        break;
    case Needs::Both:
        cost.needs_output = true;
        break;
    case Needs::Indices:
    case Needs::Divisor:
        cost.needs_inputs = op.inputs.size() > 1 && op.inputs[1].activation;
        break;
    case Needs::Operands:
        cost.needs_inputs =
            std::count_if(op.inputs.begin(), op.inputs.end(), [](const OnnxTensor& t) { return t.activation; }) >= 2;
        break;
    case Needs::Condition:
        cost.needs_inputs = !op.inputs.empty() && op.inputs[0].activation;
        break;
    }
    // The recurrent cells keep every step's gate activations for their backward: directions * gates*H per step and
    // batch row.
    if (rule.formula == Formula::Recurrent) {
        const OnnxTensor* x = input(op, 0);
        const OnnxTensor* w = input(op, 1);
        if (x && w && x->dims.size() == 3 && w->dims.size() == 3) {
            const double bytes =
                double(x->dims[0]) * double(x->dims[1]) * double(w->dims[0]) * double(w->dims[1]) * op.element_bytes;
            // Past 2^62 the graph's own bound refuses it; the cast stays defined.
            cost.workspace_bytes = bytes < 0x1p62 ? std::int64_t(bytes) : std::int64_t(1) << 62;
        }
    }
    return cost;
}

std::string onnxOpProblem(const OnnxOp& op) {
    auto it = rules().find(op.type);
    if (it == rules().end()) return "";
    auto flag = [&](const char* name) -> std::string {
        const std::int64_t v = attr(op, name, 0);
        if (v == 0 || v == 1) return "";
        return std::string("attribute ") + name + " is " + std::to_string(v) + "; it must be 0 or 1";
    };
    const Formula formula = it->second.formula;
    if (formula == Formula::Gemm) {
        const std::string a = flag("transA");
        return a.empty() ? flag("transB") : a;
    }
    if (formula == Formula::Recurrent) return flag("layout");
    if (formula != Formula::Conv && formula != Formula::ConvTranspose) return "";
    const std::int64_t group = attr(op, "group", 1);
    if (group < 1) return "attribute group is " + std::to_string(group) + "; it must be >= 1";
    const OnnxTensor* x = input(op, 0);
    const OnnxTensor* w = input(op, op.type == "QLinearConv" ? 3 : 1);
    // Of another rank, libonnx's shape inference says what is wrong.
    if (!x || !w || x->dims.size() < 2 || w->dims.size() != x->dims.size()) return "";
    const std::int64_t channels = x->dims[1];
    const std::string has = "its input has " + std::to_string(channels) + " channels, but ";
    if (formula == Formula::Conv) {
        std::int64_t expected = 0;
        if (__builtin_mul_overflow(w->dims[1], group, &expected))
            return has + "group " + std::to_string(group) + " times its weights' " + std::to_string(w->dims[1]) +
                   " channels per group is more than 2^63";
        if (channels != expected)
            return has + "group " + std::to_string(group) + " times its weights' " + std::to_string(w->dims[1]) +
                   " channels per group is " + std::to_string(expected);
        if (w->dims[0] % group != 0)
            return "group " + std::to_string(group) + " does not divide its weights' " + std::to_string(w->dims[0]) +
                   " filters";
        return "";
    }
    if (channels != w->dims[0]) return has + "its weights' first dimension is " + std::to_string(w->dims[0]);
    if (channels % group != 0)
        return "group " + std::to_string(group) + " does not divide its input's " + std::to_string(channels) +
               " channels";
    return "";
}

} // namespace ckpt
