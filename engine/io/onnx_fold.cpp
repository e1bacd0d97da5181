// Shape computations folded into constants (onnx_reader.h: inferAndFold). An exporter that keeps a batch or sequence
// dimension open writes the shapes of Reshape, Expand, Slice, Range and friends as small integer computations on
// Shape(x): Shape -> Gather -> Unsqueeze -> Concat, with Div, Mul, Cast and Sqrt mixed in (attention's head split and
// scale, a causal mask sliced to the sequence). libonnx's data propagation follows only some of those operators, and
// where it stops every later shape is unknown. Once the inputs' dimensions are fixed, every such value is a number:
// this file evaluates them on the concrete dimensions, replaces the nodes that compute them by Constant nodes holding
// the result, and runs libonnx's shape inference again, until nothing new folds.
#ifdef CKPT_HAVE_ONNX
#include "io/onnx_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace ckpt::onnxio {

namespace {

using T = onnx::TensorProto;

// The most elements a folded value may have: shape computations are a few numbers; a larger constant is data.
constexpr std::int64_t kMaxFoldElements = 1 << 16;

bool isFloatType(int type) {
    return type == T::FLOAT || type == T::DOUBLE;
}

bool isIntType(int type) {
    switch (type) {
    case T::INT64:
    case T::INT32:
    case T::INT16:
    case T::INT8:
    case T::UINT8:
    case T::UINT16:
    case T::UINT32:
    case T::BOOL:
        return true;
    default:
        return false;
    }
}

// A small tensor whose every element is known: integers (shapes, indices, booleans) in `i`, reals in `f`.
struct Val {
    int type = 0;
    std::vector<std::int64_t> dims;
    std::vector<std::int64_t> i;
    std::vector<double> f;
    bool real() const { return isFloatType(type); }
    std::int64_t size() const { return std::int64_t(real() ? f.size() : i.size()); }
    double at(std::int64_t k) const { return real() ? f[std::size_t(k)] : double(i[std::size_t(k)]); }
};

std::optional<std::int64_t> elements(const std::vector<std::int64_t>& dims) {
    std::int64_t n = 1;
    for (std::int64_t d : dims)
        if (d < 0 || __builtin_mul_overflow(n, d, &n) || n > kMaxFoldElements) return std::nullopt;
    return n;
}

template <class X> bool rawValues(const std::string& raw, std::int64_t n, std::vector<X>& out) {
    if (raw.size() != std::size_t(n) * sizeof(X)) return false;
    out.resize(std::size_t(n));
    if (n) std::memcpy(out.data(), raw.data(), raw.size());
    return true;
}

// A tensor's value, when it holds its data (a shape-only file's weights do not) and is small.
std::optional<Val> fromTensor(const T& t) {
    Val v;
    v.type = t.data_type();
    v.dims.assign(t.dims().begin(), t.dims().end());
    const auto n = elements(v.dims);
    if (!n || t.data_location() == T::EXTERNAL) return std::nullopt;
    const bool raw = t.has_raw_data();
    switch (v.type) {
    case T::INT64:
        if (raw) return rawValues(t.raw_data(), *n, v.i) ? std::optional(v) : std::nullopt;
        if (t.int64_data_size() != *n) return std::nullopt;
        v.i.assign(t.int64_data().begin(), t.int64_data().end());
        return v;
    case T::INT32:
    case T::INT16:
    case T::INT8:
    case T::UINT8:
    case T::UINT16:
    case T::BOOL: {
        if (raw) {
            const std::string& r = t.raw_data();
            const std::size_t width = v.type == T::INT32 ? 4 : v.type == T::INT16 || v.type == T::UINT16 ? 2 : 1;
            if (r.size() != std::size_t(*n) * width) return std::nullopt;
            for (std::int64_t k = 0; k < *n; ++k) {
                const char* p = r.data() + std::size_t(k) * width;
                std::int64_t x = 0;
                if (v.type == T::INT32) {
                    std::int32_t y;
                    std::memcpy(&y, p, 4), x = y;
                } else if (v.type == T::INT16) {
                    std::int16_t y;
                    std::memcpy(&y, p, 2), x = y;
                } else if (v.type == T::UINT16) {
                    std::uint16_t y;
                    std::memcpy(&y, p, 2), x = y;
                } else if (v.type == T::INT8) {
                    x = static_cast<std::int8_t>(*p);
                } else {
                    x = static_cast<unsigned char>(*p);
                }
                v.i.push_back(x);
            }
            return v;
        }
        if (t.int32_data_size() != *n) return std::nullopt;
        v.i.assign(t.int32_data().begin(), t.int32_data().end());
        return v;
    }
    case T::FLOAT:
        if (raw) {
            std::vector<float> x;
            if (!rawValues(t.raw_data(), *n, x)) return std::nullopt;
            v.f.assign(x.begin(), x.end());
            return v;
        }
        if (t.float_data_size() != *n) return std::nullopt;
        v.f.assign(t.float_data().begin(), t.float_data().end());
        return v;
    case T::DOUBLE:
        if (raw) return rawValues(t.raw_data(), *n, v.f) ? std::optional(v) : std::nullopt;
        if (t.double_data_size() != *n) return std::nullopt;
        v.f.assign(t.double_data().begin(), t.double_data().end());
        return v;
    default:
        return std::nullopt;
    }
}

T toTensor(const Val& v) {
    T t;
    t.set_data_type(v.type);
    for (std::int64_t d : v.dims)
        t.add_dims(d);
    switch (v.type) {
    case T::INT64:
        for (std::int64_t x : v.i)
            t.add_int64_data(x);
        break;
    case T::FLOAT:
        for (double x : v.f)
            t.add_float_data(float(x));
        break;
    case T::DOUBLE:
        for (double x : v.f)
            t.add_double_data(x);
        break;
    default: // the other integer types and booleans: int32_data
        for (std::int64_t x : v.i)
            t.add_int32_data(std::int32_t(x));
    }
    return t;
}

std::vector<std::int64_t> stridesOf(const std::vector<std::int64_t>& dims) {
    std::vector<std::int64_t> s(dims.size(), 1);
    for (std::size_t k = dims.size(); k-- > 1;)
        s[k - 1] = s[k] * dims[k];
    return s;
}

// Numpy broadcasting of several shapes.
std::optional<std::vector<std::int64_t>> broadcast(const std::vector<const Val*>& xs) {
    std::size_t rank = 0;
    for (const Val* x : xs)
        rank = std::max(rank, x->dims.size());
    std::vector<std::int64_t> out(rank, 1);
    for (const Val* x : xs)
        for (std::size_t k = 0; k < x->dims.size(); ++k) {
            std::int64_t& o = out[rank - x->dims.size() + k];
            const std::int64_t d = x->dims[k];
            if (d == o || d == 1) continue;
            if (o != 1) return std::nullopt;
            o = d;
        }
    return out;
}

// The flat index into x of the output element at `flat` of a broadcast of shape `out`.
std::int64_t broadcastIndex(const Val& x, const std::vector<std::int64_t>& out, std::int64_t flat) {
    const auto xs = stridesOf(x.dims);
    std::int64_t index = 0;
    for (std::size_t k = out.size(); k-- > 0;) {
        const std::int64_t coord = out[k] ? flat % out[k] : 0;
        flat = out[k] ? flat / out[k] : 0;
        const std::size_t xk = k + x.dims.size();
        if (xk < out.size()) continue; // a dimension x does not have
        const std::size_t j = xk - out.size();
        if (x.dims[j] != 1) index += coord * xs[j];
    }
    return index;
}

std::int64_t attrInt(const onnx::NodeProto& n, const char* name, std::int64_t fallback) {
    for (const auto& a : n.attribute())
        if (a.name() == name && a.type() == onnx::AttributeProto::INT) return a.i();
    return fallback;
}

std::optional<std::vector<std::int64_t>> attrInts(const onnx::NodeProto& n, const char* name) {
    for (const auto& a : n.attribute())
        if (a.name() == name && a.type() == onnx::AttributeProto::INTS)
            return std::vector<std::int64_t>(a.ints().begin(), a.ints().end());
    return std::nullopt;
}

const T* attrTensor(const onnx::NodeProto& n, const char* name) {
    for (const auto& a : n.attribute())
        if (a.name() == name && a.type() == onnx::AttributeProto::TENSOR) return &a.t();
    return nullptr;
}

// An axis in [-rank, rank) as an index, or nullopt.
std::optional<std::size_t> axisOf(std::int64_t axis, std::size_t rank) {
    if (axis < 0) axis += std::int64_t(rank);
    if (axis < 0 || axis >= std::int64_t(rank)) return std::nullopt;
    return std::size_t(axis);
}

std::optional<Val> constantNode(const onnx::NodeProto& n) {
    if (const T* t = attrTensor(n, "value")) return fromTensor(*t);
    for (const auto& a : n.attribute()) {
        Val v;
        if (a.name() == "value_int")
            v.type = T::INT64, v.i = {a.i()};
        else if (a.name() == "value_ints")
            v.type = T::INT64, v.i.assign(a.ints().begin(), a.ints().end()), v.dims = {std::int64_t(v.i.size())};
        else if (a.name() == "value_float")
            v.type = T::FLOAT, v.f = {double(a.f())};
        else if (a.name() == "value_floats")
            v.type = T::FLOAT, v.f.assign(a.floats().begin(), a.floats().end()), v.dims = {std::int64_t(v.f.size())};
        else
            continue;
        return v;
    }
    return std::nullopt;
}

// A value with every element computed by `f(k)` over `dims`, of `type`.
template <class F> std::optional<Val> make(int type, std::vector<std::int64_t> dims, F f) {
    const auto n = elements(dims);
    if (!n) return std::nullopt;
    Val v;
    v.type = type;
    v.dims = std::move(dims);
    for (std::int64_t k = 0; k < *n; ++k) {
        const double x = f(k);
        if (!std::isfinite(x)) return std::nullopt;
        if (isFloatType(type)) {
            v.f.push_back(x);
        } else {
            if (std::fabs(x) > 9.2e18) return std::nullopt;
            v.i.push_back(std::int64_t(x));
        }
    }
    return v;
}

// A value of `dims` whose element k is x's element sourceIndex(k) (or nullopt when that returns -1), copied exactly:
// gathers, slices and broadcasts move elements, they compute none.
template <class F> std::optional<Val> pick(const Val& x, std::vector<std::int64_t> dims, F sourceIndex) {
    const auto n = elements(dims);
    if (!n) return std::nullopt;
    Val v;
    v.type = x.type;
    v.dims = std::move(dims);
    for (std::int64_t k = 0; k < *n; ++k) {
        const std::int64_t from = sourceIndex(k);
        if (from < 0 || from >= x.size()) return std::nullopt;
        if (x.real())
            v.f.push_back(x.f[std::size_t(from)]);
        else
            v.i.push_back(x.i[std::size_t(from)]);
    }
    return v;
}

// x op y in exact 64-bit integer arithmetic; nullopt when it overflows, divides by zero or op is not integer
// arithmetic.
std::optional<std::int64_t> integerBinary(const std::string& op, std::int64_t x, std::int64_t y) {
    if (op == "Add" || op == "Sum") {
        if (__builtin_add_overflow(x, y, &x)) return std::nullopt;
    } else if (op == "Sub") {
        if (__builtin_sub_overflow(x, y, &x)) return std::nullopt;
    } else if (op == "Mul") {
        if (__builtin_mul_overflow(x, y, &x)) return std::nullopt;
    } else if (op == "Div" || op == "Mod") {
        if (y == 0 || (x == std::numeric_limits<std::int64_t>::min() && y == -1)) return std::nullopt;
        x = op == "Div" ? x / y : x % y;
    } else if (op == "Max") {
        x = std::max(x, y);
    } else if (op == "Min") {
        x = std::min(x, y);
    } else {
        return std::nullopt;
    }
    return x;
}

// Exact 64-bit integer arithmetic over integer operands broadcast to `dims`.
std::optional<Val> integerElementwise(const std::string& op, const std::vector<const Val*>& in,
                                      const std::vector<std::int64_t>& dims, int type) {
    const Val& a = *in[0];
    const auto n = elements(dims);
    if (!n) return std::nullopt;
    Val v;
    v.type = type;
    v.dims = dims;
    for (std::int64_t k = 0; k < *n; ++k) {
        std::int64_t x = a.i.empty() ? 0 : a.i[std::size_t(broadcastIndex(a, dims, k))];
        for (std::size_t j = 1; j < in.size(); ++j) {
            if (in[j]->real()) return std::nullopt;
            const std::int64_t y = in[j]->i[std::size_t(broadcastIndex(*in[j], dims, k))];
            const auto r = integerBinary(op, x, y);
            if (!r) return std::nullopt;
            x = *r;
        }
        if (in.size() == 1) {
            if (op == "Neg")
                x = x == std::numeric_limits<std::int64_t>::min() ? x : -x;
            else if (op == "Abs")
                x = x < 0 ? -x : x;
            else if (op != "Floor" && op != "Ceil" && op != "Identity")
                return std::nullopt;
        }
        v.i.push_back(x);
    }
    return v;
}

double realUnary(const std::string& op, double x) {
    if (op == "Neg") return -x;
    if (op == "Abs") return std::fabs(x);
    if (op == "Sqrt") return std::sqrt(x);
    if (op == "Floor") return std::floor(x);
    if (op == "Ceil") return std::ceil(x);
    if (op == "Reciprocal") return 1 / x;
    if (op == "Not") return x == 0;
    return NAN;
}

// x op y in doubles (comparisons and logic give 0 or 1); nullopt when op is none of these.
std::optional<double> realBinary(const std::string& op, double x, double y) {
    if (op == "Add" || op == "Sum")
        x += y;
    else if (op == "Sub")
        x -= y;
    else if (op == "Mul")
        x *= y;
    else if (op == "Div")
        x /= y;
    else if (op == "Pow")
        x = std::pow(x, y);
    else if (op == "Max")
        x = std::max(x, y);
    else if (op == "Min")
        x = std::min(x, y);
    else if (op == "Equal")
        x = x == y;
    else if (op == "Less")
        x = x < y;
    else if (op == "Greater")
        x = x > y;
    else if (op == "LessOrEqual")
        x = x <= y;
    else if (op == "GreaterOrEqual")
        x = x >= y;
    else if (op == "And")
        x = (x != 0) && (y != 0);
    else if (op == "Or")
        x = (x != 0) || (y != 0);
    else
        return std::nullopt;
    return x;
}

// Integer results of integer operands are computed in 64 bits, not through doubles (INT64_MAX is a common Slice end).
std::optional<Val> elementwise(const std::string& op, const std::vector<const Val*>& in) {
    if (in.empty()) return std::nullopt;
    auto dims = broadcast(in);
    if (!dims) return std::nullopt;
    const Val& a = *in[0];
    const bool compare = op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" ||
                         op == "GreaterOrEqual" || op == "And" || op == "Or" || op == "Not";
    if (op == "Where") {
        if (in.size() != 3) return std::nullopt;
        const int type = in[1]->type;
        return make(type, *dims, [&](std::int64_t k) {
            const bool c = in[0]->at(broadcastIndex(*in[0], *dims, k)) != 0;
            const Val& pick = c ? *in[1] : *in[2];
            return pick.at(broadcastIndex(pick, *dims, k));
        });
    }
    const int type = compare ? int(T::BOOL) : a.type;
    if (!isFloatType(type) && !compare) return integerElementwise(op, in, *dims, type);
    return make(type, *dims, [&](std::int64_t k) -> double {
        double x = a.at(broadcastIndex(a, *dims, k));
        if (in.size() == 1) return realUnary(op, x);
        for (std::size_t j = 1; j < in.size(); ++j) {
            const auto r = realBinary(op, x, in[j]->at(broadcastIndex(*in[j], *dims, k)));
            if (!r) return NAN;
            x = *r;
        }
        return x;
    });
}

std::optional<Val> cast(const Val& x, int to) {
    if (!isIntType(to) && !isFloatType(to)) return std::nullopt;
    return make(to, x.dims, [&](std::int64_t k) {
        const double v = x.at(k);
        return to == T::BOOL ? double(v != 0) : isFloatType(to) ? v : std::trunc(v);
    });
}

std::optional<Val> reshaped(const Val& x, std::vector<std::int64_t> dims) {
    Val v = x;
    v.dims = std::move(dims);
    const auto n = elements(v.dims);
    if (!n || *n != x.size()) return std::nullopt;
    return v;
}

std::optional<Val> gather(const Val& data, const Val& idx, std::int64_t axisAttr) {
    const auto axis = axisOf(axisAttr, data.dims.size());
    if (!axis || idx.real()) return std::nullopt;
    std::vector<std::int64_t> dims(data.dims.begin(), data.dims.begin() + std::ptrdiff_t(*axis));
    dims.insert(dims.end(), idx.dims.begin(), idx.dims.end());
    dims.insert(dims.end(), data.dims.begin() + std::ptrdiff_t(*axis) + 1, data.dims.end());
    std::int64_t inner = 1;
    for (std::size_t k = *axis + 1; k < data.dims.size(); ++k)
        inner *= data.dims[k];
    const std::int64_t along = data.dims[*axis];
    const std::int64_t count = idx.size();
    return pick(data, dims, [&](std::int64_t k) -> std::int64_t {
        const std::int64_t in = k % inner, rest = k / inner;
        std::int64_t i = idx.i[std::size_t(rest % count)];
        if (i < 0) i += along;
        if (i < 0 || i >= along) return -1;
        return ((rest / count) * along + i) * inner + in;
    });
}

std::optional<Val> concat(const std::vector<const Val*>& in, std::int64_t axisAttr) {
    if (in.empty()) return std::nullopt;
    const auto axis = axisOf(axisAttr, in[0]->dims.size());
    if (!axis) return std::nullopt;
    std::vector<std::int64_t> dims = in[0]->dims;
    dims[*axis] = 0;
    for (const Val* x : in) {
        if (x->dims.size() != dims.size() || x->real() != in[0]->real()) return std::nullopt;
        for (std::size_t k = 0; k < dims.size(); ++k)
            if (k != *axis && x->dims[k] != dims[k]) return std::nullopt;
        dims[*axis] += x->dims[*axis];
    }
    std::int64_t outer = 1;
    for (std::size_t k = 0; k < *axis; ++k)
        outer *= dims[k];
    Val v;
    v.type = in[0]->type;
    v.dims = dims;
    for (std::int64_t o = 0; o < outer; ++o)
        for (const Val* x : in) {
            const std::int64_t chunk = outer ? x->size() / outer : 0;
            for (std::int64_t c = 0; c < chunk; ++c) {
                const std::int64_t k = o * chunk + c;
                if (x->real())
                    v.f.push_back(x->f[std::size_t(k)]);
                else
                    v.i.push_back(x->i[std::size_t(k)]);
            }
        }
    return v;
}

// Slice over any axes of a small tensor, with ONNX's clamping of starts and ends.
std::optional<Val> slice(const Val& x, const std::vector<std::int64_t>& starts, const std::vector<std::int64_t>& ends,
                         std::vector<std::int64_t> axes, std::vector<std::int64_t> steps) {
    const std::size_t rank = x.dims.size();
    if (axes.empty())
        for (std::size_t k = 0; k < starts.size(); ++k)
            axes.push_back(std::int64_t(k));
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
        return std::nullopt;
    std::vector<std::int64_t> first(rank, 0), step(rank, 1), dims = x.dims;
    for (std::size_t j = 0; j < starts.size(); ++j) {
        const auto axis = axisOf(axes[j], rank);
        if (!axis || steps[j] == 0) return std::nullopt;
        const std::int64_t d = x.dims[*axis], s = steps[j];
        auto clampTo = [&](std::int64_t v, std::int64_t lo, std::int64_t hi) {
            if (v < 0) v = v < -d ? -1 : v + d; // past the front: before the first element
            return std::clamp(v, lo, hi);
        };
        const std::int64_t b = s > 0 ? clampTo(starts[j], 0, d) : clampTo(starts[j], -1, d - 1);
        const std::int64_t e = s > 0 ? clampTo(ends[j], 0, d) : clampTo(ends[j], -1, d - 1);
        const std::int64_t n = s > 0 ? (e > b ? (e - b + s - 1) / s : 0) : (b > e ? (b - e - s - 1) / -s : 0);
        first[*axis] = b, step[*axis] = s, dims[*axis] = n;
    }
    const auto xs = stridesOf(x.dims);
    return pick(x, dims, [&](std::int64_t k) {
        std::int64_t index = 0;
        for (std::size_t a = rank; a-- > 0;) {
            const std::int64_t c = dims[a] ? k % dims[a] : 0;
            k = dims[a] ? k / dims[a] : 0;
            index += (first[a] + c * step[a]) * xs[a];
        }
        return index;
    });
}

// Reshape's output: x with the dims of `shape` (0: x's, unless allowzero; -1: what the others leave).
std::optional<Val> reshape(const onnx::NodeProto& n, const Val& x, const Val* shape) {
    if (!shape || shape->real()) return std::nullopt;
    std::vector<std::int64_t> dims = shape->i;
    const bool allowZero = attrInt(n, "allowzero", 0) != 0;
    std::int64_t known = 1;
    int infer = -1;
    for (std::size_t k = 0; k < dims.size(); ++k) {
        if (dims[k] == 0 && !allowZero) {
            if (k >= x.dims.size()) return std::nullopt;
            dims[k] = x.dims[k];
        }
        if (dims[k] == -1) {
            if (infer >= 0) return std::nullopt;
            infer = int(k);
        } else if (dims[k] < 0) {
            return std::nullopt;
        } else if (__builtin_mul_overflow(known, dims[k], &known)) {
            return std::nullopt;
        }
    }
    if (infer >= 0) {
        if (known == 0 || x.size() % known) return std::nullopt;
        dims[std::size_t(infer)] = x.size() / known;
    }
    return reshaped(x, dims);
}

std::optional<Val> flatten(const onnx::NodeProto& n, const Val& x) {
    const auto axis = axisOf(attrInt(n, "axis", 1), x.dims.size() + 1);
    if (!axis) return std::nullopt;
    std::int64_t outer = 1;
    for (std::size_t k = 0; k < *axis; ++k)
        outer *= x.dims[k];
    return reshaped(x, {outer, outer ? x.size() / outer : 0});
}

std::optional<Val> unsqueeze(const Val& x, const std::vector<std::int64_t>& axes) {
    const std::vector<std::int64_t>& dims = x.dims;
    const std::size_t rank = dims.size() + axes.size();
    std::vector<char> at(rank, 0);
    for (std::int64_t a : axes) {
        auto k = axisOf(a, rank);
        if (!k || at[*k]) return std::nullopt;
        at[*k] = 1;
    }
    std::vector<std::int64_t> out;
    std::size_t j = 0;
    for (std::size_t k = 0; k < rank; ++k)
        out.push_back(at[k] ? 1 : dims[j++]);
    return reshaped(x, out);
}

// Squeeze's output: x without the given axes of size 1, or without every axis of size 1 when none is given.
std::optional<Val> squeeze(const Val& x, const std::vector<std::int64_t>& axes) {
    const std::vector<std::int64_t>& dims = x.dims;
    std::vector<char> drop(dims.size(), 0);
    for (std::int64_t a : axes) {
        auto k = axisOf(a, dims.size());
        if (!k || dims[*k] != 1) return std::nullopt;
        drop[*k] = 1;
    }
    std::vector<std::int64_t> out;
    for (std::size_t k = 0; k < dims.size(); ++k)
        if (!(axes.empty() ? dims[k] == 1 : drop[k])) out.push_back(dims[k]);
    return reshaped(x, out);
}

std::optional<Val> range(const std::vector<const Val*>& in) {
    if (in.size() != 3 || !in[0] || !in[1] || !in[2]) return std::nullopt;
    const double start = in[0]->at(0), limit = in[1]->at(0), delta = in[2]->at(0);
    if (in[0]->size() != 1 || in[1]->size() != 1 || in[2]->size() != 1 || delta == 0) return std::nullopt;
    const double count = std::max(0.0, std::ceil((limit - start) / delta));
    if (count > double(kMaxFoldElements)) return std::nullopt;
    return make(in[0]->type, {std::int64_t(count)}, [&](std::int64_t k) { return start + double(k) * delta; });
}

std::optional<Val> constantOfShape(const onnx::NodeProto& n, const Val& shape) {
    if (shape.real()) return std::nullopt;
    Val fill{T::FLOAT, {}, {}, {0.0}};
    if (const T* t = attrTensor(n, "value")) {
        auto v = fromTensor(*t);
        if (!v || v->size() != 1) return std::nullopt;
        fill = *v;
    }
    return make(fill.type, shape.i, [&](std::int64_t) { return fill.at(0); });
}

std::optional<Val> expand(const Val& x, const Val* to) {
    if (!to || to->real()) return std::nullopt;
    Val shape{T::INT64, to->i, {}, {}};
    shape.i.assign(std::size_t(elements(to->i).value_or(0)), 0);
    auto dims = broadcast({&x, &shape});
    if (!dims) return std::nullopt;
    return pick(x, *dims, [&](std::int64_t k) { return broadcastIndex(x, *dims, k); });
}

// ReduceProd, ReduceSum, ReduceMax and ReduceMin of a vector (the product of some dimensions), to a scalar or a
// one-element vector.
std::optional<Val> reduce(const onnx::NodeProto& n, const Val& x) {
    const std::string& op = n.op_type();
    if (x.dims.size() != 1) return std::nullopt;
    double acc = op == "ReduceProd" ? 1 : op == "ReduceSum" ? 0 : x.size() ? x.at(0) : 0;
    for (std::int64_t k = 0; k < x.size(); ++k) {
        const double v = x.at(k);
        acc = op == "ReduceProd"  ? acc * v
              : op == "ReduceSum" ? acc + v
              : op == "ReduceMax" ? std::max(acc, v)
                                  : std::min(acc, v);
    }
    const bool keep = attrInt(n, "keepdims", 1) != 0;
    return make(x.type, keep ? std::vector<std::int64_t>{1} : std::vector<std::int64_t>{},
                [&](std::int64_t) { return acc; });
}

class Folder {
public:
    explicit Folder(onnx::ModelProto& model) : m_model(model) {
        for (const auto& o : model.opset_import())
            if (isDefaultDomain(o.domain())) m_opset = int(o.version());
    }

    // One pass over the graph: every node whose outputs can now be computed becomes a Constant node. Returns how many.
    int pass() {
        auto& g = *m_model.mutable_graph();
        m_dims.clear();
        for (const auto* list : {&g.input(), &g.value_info(), &g.output()})
            for (const auto& v : *list)
                if (auto d = fixedDims(v.type())) m_dims[v.name()] = *d;
        for (const auto& t : g.initializer()) {
            m_dims[t.name()] = {t.dims().begin(), t.dims().end()};
            if (auto v = fromTensor(t)) m_values[t.name()] = std::move(*v);
        }
        int folded = 0;
        for (auto& n : *g.mutable_node()) {
            if (!isDefaultDomain(n.domain())) continue;
            if (n.op_type() == "Constant") {
                if (n.output_size() == 1 && !m_values.count(n.output(0)))
                    if (auto v = constantNode(n)) m_values[n.output(0)] = std::move(*v);
                continue;
            }
            if (n.output_size() != 1 || n.output(0).empty()) continue;
            auto v = evaluate(n);
            if (!v) continue;
            m_values[n.output(0)] = *v;
            onnx::NodeProto c;
            c.set_name(n.name());
            c.set_op_type("Constant");
            c.add_output(n.output(0));
            auto* a = c.add_attribute();
            a->set_name("value");
            a->set_type(onnx::AttributeProto::TENSOR);
            *a->mutable_t() = toTensor(*v);
            n = std::move(c);
            ++folded;
        }
        return folded;
    }

    bool known(const std::string& name) const { return m_values.count(name) > 0; }

private:
    static std::optional<std::vector<std::int64_t>> fixedDims(const onnx::TypeProto& type) {
        if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return std::nullopt;
        std::vector<std::int64_t> dims;
        for (const auto& d : type.tensor_type().shape().dim()) {
            if (!d.has_dim_value() || d.dim_value() < 0) return std::nullopt;
            dims.push_back(d.dim_value());
        }
        return dims;
    }

    const Val* value(const onnx::NodeProto& n, int k) const {
        if (k >= n.input_size() || n.input(k).empty()) return nullptr;
        auto it = m_values.find(n.input(k));
        return it == m_values.end() ? nullptr : &it->second;
    }

    // An optional integer list input (Slice's axes, Unsqueeze's axes at opset 13), or an attribute before that.
    std::optional<std::vector<std::int64_t>> ints(const onnx::NodeProto& n, int k, const char* attr) const {
        if (k < n.input_size() && !n.input(k).empty()) {
            const Val* v = value(n, k);
            if (!v || v->real()) return std::nullopt;
            return v->i;
        }
        if (auto a = attrInts(n, attr)) return a;
        return std::vector<std::int64_t>{};
    }

    // Shape (or its part from start to end) and Size of a value whose dims are known.
    std::optional<Val> shapeOf(const onnx::NodeProto& n) const {
        const std::string& op = n.op_type();
        if (n.input_size() < 1) return std::nullopt;
        auto it = m_dims.find(n.input(0));
        if (it == m_dims.end()) return std::nullopt;
        const auto& d = it->second;
        if (op == "Size") {
            std::int64_t p = 1;
            for (std::int64_t x : d)
                if (__builtin_mul_overflow(p, x, &p)) return std::nullopt;
            return Val{T::INT64, {}, {p}, {}};
        }
        const std::int64_t r = std::int64_t(d.size());
        std::int64_t b = attrInt(n, "start", 0), e = attrInt(n, "end", r);
        b = std::clamp(b < 0 ? b + r : b, std::int64_t(0), r);
        e = std::clamp(e < 0 ? e + r : e, std::int64_t(0), r);
        std::vector<std::int64_t> part(d.begin() + b, d.begin() + std::max(b, e));
        return Val{T::INT64, {std::int64_t(part.size())}, part, {}};
    }

    // Slice: starts, ends and axes are attributes before opset 10, inputs (with steps) since.
    std::optional<Val> sliceOf(const onnx::NodeProto& n, const Val& x) const {
        if (m_opset < 10) {
            auto s = attrInts(n, "starts"), e = attrInts(n, "ends");
            if (!s || !e) return std::nullopt;
            return slice(x, *s, *e, attrInts(n, "axes").value_or(std::vector<std::int64_t>{}), {});
        }
        auto s = ints(n, 1, ""), e = ints(n, 2, ""), a = ints(n, 3, ""), st = ints(n, 4, "");
        if (!s || !e || !a || !st) return std::nullopt;
        return slice(x, *s, *e, *a, *st);
    }

    std::optional<Val> evaluate(const onnx::NodeProto& n) const {
        const std::string& op = n.op_type();
        if (op == "Shape" || op == "Size") return shapeOf(n);
        std::vector<const Val*> in;
        for (int k = 0; k < n.input_size(); ++k) {
            const Val* v = value(n, k);
            if (!v && !n.input(k).empty()) {
                // Only a few optional inputs may stay unknown: none do here.
                return std::nullopt;
            }
            in.push_back(v);
        }
        if (in.empty() && op != "Range") return std::nullopt;
        auto first = [&]() -> const Val* { return in.empty() ? nullptr : in[0]; };
        if (!first() && op != "Range") return std::nullopt;
        if (op == "Identity" || op == "Dropout") return *first();
        if (op == "Cast") return cast(*first(), int(attrInt(n, "to", 0)));
        if (op == "Reshape") return in.size() < 2 ? std::nullopt : reshape(n, *first(), in[1]);
        if (op == "Flatten") return flatten(n, *first());
        if (op == "Unsqueeze" || op == "Squeeze") {
            auto axes = ints(n, 1, "axes");
            if (!axes) return std::nullopt;
            return op == "Unsqueeze" ? unsqueeze(*first(), *axes) : squeeze(*first(), *axes);
        }
        if (op == "Concat") return concat(in, attrInt(n, "axis", 0));
        if (op == "Gather")
            return in.size() == 2 && in[1] ? gather(*in[0], *in[1], attrInt(n, "axis", 0)) : std::nullopt;
        if (op == "Slice") return sliceOf(n, *first());
        if (op == "Range") return range(in);
        if (op == "ConstantOfShape") return constantOfShape(n, *first());
        if (op == "Expand") return in.size() != 2 ? std::nullopt : expand(*first(), in[1]);
        if (op == "ReduceProd" || op == "ReduceSum" || op == "ReduceMax" || op == "ReduceMin")
            return reduce(n, *first());
        static const char* const kElementwise[] = {
            "Add", "Sub",  "Mul",   "Div",  "Mod",        "Pow",   "Max",  "Min",     "Sum",         "Neg",
            "Abs", "Sqrt", "Floor", "Ceil", "Reciprocal", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
            "And", "Or",   "Not",   "Where"};
        for (const char* e : kElementwise)
            if (op == e) {
                for (const Val* v : in)
                    if (!v) return std::nullopt;
                return elementwise(op, in);
            }
        return std::nullopt;
    }

    onnx::ModelProto& m_model;
    int m_opset = 0;
    std::unordered_map<std::string, std::vector<std::int64_t>> m_dims;
    std::unordered_map<std::string, Val> m_values;
};

} // namespace

std::optional<double> tensorScalar(const onnx::TensorProto& t) {
    auto v = fromTensor(t);
    if (!v || v->size() < 1) return std::nullopt;
    return v->at(0);
}

std::string inferAndFold(onnx::ModelProto& model, int& foldedNodes) {
    std::string message = inferShapes(model);
    Folder folder(model);
    foldedNodes = 0;
    // Each pass folds what the shapes of the last inference allow; a chain of k alternations (a shape from a
    // Reshape whose own shape was folded) needs k passes. Real exports need two or three.
    for (int round = 0; round < 64; ++round) {
        const int folded = folder.pass();
        if (folded == 0) break;
        foldedNodes += folded;
        auto& g = *model.mutable_graph();
        g.clear_value_info();
        for (auto& out : *g.mutable_output())
            if (out.type().has_tensor_type()) out.mutable_type()->mutable_tensor_type()->clear_shape();
        message = inferShapes(model);
    }
    return message;
}

} // namespace ckpt::onnxio
#endif
