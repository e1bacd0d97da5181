// The text side of the JSON files: parsing with line:column messages, and writing a layout people can read and diff
// (small arrays and objects on one line, so a plan has one action per line).
#include "io/json_io.h"

#include "io/files.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <new>
#include <vector>

namespace ckpt {

namespace {

using nlohmann::json;

constexpr std::size_t kLineWidth = 120;

// "[json.exception.parse_error.101] parse error at line 2, column 8: syntax error while parsing value - unexpected
// ','; expected '[', '{', or a literal" -> "unexpected ','; expected '[', '{', or a literal". The position is given
// separately and "last read" repeats the text the user is pointed at.
std::string simplify(std::string what) {
    if (what.rfind("[json.exception.", 0) == 0) {
        auto close = what.find("] ");
        if (close != std::string::npos) what.erase(0, close + 2);
    }
    if (what.rfind("parse error", 0) == 0) {
        auto colon = what.find(": ");
        if (colon != std::string::npos) what.erase(0, colon + 2);
    }
    if (what.rfind("syntax error while parsing ", 0) == 0) {
        auto dash = what.find(" - ");
        if (dash != std::string::npos) what.erase(0, dash + 3);
    }
    auto last = what.find("; last read: '");
    if (last != std::string::npos) {
        auto exp = what.rfind("; expected ");
        what.erase(last, exp != std::string::npos && exp > last ? exp - last : std::string::npos);
    }
    return what;
}

// 1-based line and column (in characters, not bytes) of the byte at `offset`.
std::pair<std::size_t, std::size_t> lineColumn(const std::string& text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;
        }
    }
    return {line, column};
}

std::string at(const std::string& source, const std::string& text, std::size_t offset) {
    auto [line, column] = lineColumn(text, offset);
    return source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

// Builds the document as nlohmann's parser does, but refuses to open an array or object deeper than kMaxJsonDepth:
// the parser itself nests without limit, each level of "[[[[..." costs some 50 bytes of memory per byte of file
// (100 MB of "[" ran out of memory at 5 GB), and any code that walks the tree would recurse as deep.
class TreeBuilder {
public:
    explicit TreeBuilder(json& root) : m_root(root) {}

    bool null() { return add(json(nullptr)); }
    bool boolean(bool v) { return add(json(v)); }
    bool number_integer(json::number_integer_t v) { return add(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return add(json(v)); }
    bool number_float(json::number_float_t v, const json::string_t&) { return add(json(v)); }
    // Strings and keys are copied, not moved: the lexer's buffer has the capacity of the longest text read so far,
    // and a short key copied fits in the string itself.
    bool string(json::string_t& v) { return add(json(v)); }
    bool binary(json::binary_t& v) { return add(json::binary(std::move(v))); }
    bool start_object(std::size_t) { return open(json::value_t::object); }
    bool start_array(std::size_t) { return open(json::value_t::array); }
    bool key(const json::string_t& k) {
        // A repeated key keeps its last value, as json::parse does.
        m_member = &m_open.back()->get_ref<json::object_t&>()[k];
        return true;
    }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t position, const std::string&, const json::exception& e) {
        m_position = position;
        m_id = e.id;
        m_what = e.what();
        return false;
    }

    bool tooDeep() const { return m_tooDeep; }
    int errorId() const { return m_id; }
    const std::string& what() const { return m_what; }
    std::size_t errorPosition() const { return m_position; }

private:
    // Where the next value goes: the root, the end of the open array, or the member whose key came last. The open
    // containers stay where they are: nothing is added to a parent while its last child is open.
    json* place(json&& v) {
        if (m_open.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        json& parent = *m_open.back();
        if (parent.is_array()) {
            auto& a = parent.get_ref<json::array_t&>();
            a.push_back(std::move(v));
            return &a.back();
        }
        *m_member = std::move(v);
        return m_member;
    }
    bool add(json&& v) {
        place(std::move(v));
        return true;
    }
    bool open(json::value_t type) {
        if (m_open.size() >= kMaxJsonDepth) {
            m_tooDeep = true;
            return false;
        }
        m_open.push_back(place(json(type)));
        return true;
    }
    bool close() {
        m_open.pop_back();
        return true;
    }

    json& m_root;
    std::vector<json*> m_open;
    json* m_member = nullptr;
    bool m_tooDeep = false;
    int m_id = 0;
    std::string m_what;
    std::size_t m_position = 0;
};

// The offset of the bracket that opens nesting level `level` (1: the outermost). Only asked once the parser has read
// up to that bracket without an error, so a plain scan that skips strings is exact.
std::size_t openingOfLevel(const std::string& text, std::size_t level) {
    std::size_t depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth == level) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return text.size();
}

// Members that lead an object when written, in this order; the others follow in name order, and the long lists
// come last.
int keyRank(const std::string& key) {
    if (key == "steps" || key == "uniform" || key == "levels" || key == "actions") return 100;
    static const std::array<const char*, 16> order = {"format",         "version",           "name",
                                                      "comment",        "scheduler",         "length",
                                                      "forward",        "backward",          "state_bytes",
                                                      "tape_bytes",     "forward_tmp_bytes", "backward_tmp_bytes",
                                                      "capacity_bytes", "read_bytes_per_s",  "write_bytes_per_s",
                                                      "latency_s"};
    for (std::size_t i = 0; i < order.size(); ++i)
        if (key == order[i]) return static_cast<int>(i);
    return static_cast<int>(order.size());
}

bool plainAscii(const std::string& s) {
    for (char c : s)
        if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F)
            return false;
    return true;
}

void writeString(const std::string& s, std::string& out) {
    if (plainAscii(s)) {
        out += '"';
        out += s;
        out += '"';
    } else {
        out += json(s).dump(-1, ' ', false, json::error_handler_t::replace);
    }
}

void writeScalar(const json& v, std::string& out) {
    char buf[64];
    switch (v.type()) {
    case json::value_t::string:
        writeString(v.get_ref<const std::string&>(), out);
        return;
    case json::value_t::number_integer: {
        auto r = std::to_chars(buf, buf + sizeof buf, v.get<std::int64_t>());
        out.append(buf, r.ptr);
        return;
    }
    case json::value_t::number_unsigned: {
        auto r = std::to_chars(buf, buf + sizeof buf, v.get<std::uint64_t>());
        out.append(buf, r.ptr);
        return;
    }
    case json::value_t::number_float: {
        double d = v.get<double>();
        if (!std::isfinite(d)) {
            out += "null"; // as nlohmann writes it: JSON has no NaN or infinity
            return;
        }
        // The shortest digits that read back to the same double; plain decimals ("0.0005", not "5e-04") unless the
        // exponent is far out.
        double a = std::fabs(d);
        auto format = a == 0 || (a >= 1e-5 && a < 1e16) ? std::chars_format::fixed : std::chars_format::scientific;
        auto r = std::to_chars(buf, buf + sizeof buf, d, format);
        out.append(buf, r.ptr);
        if (std::find_if(buf, r.ptr, [](char c) { return c == '.' || c == 'e'; }) == r.ptr) out += ".0";
        return;
    }
    default:
        out += v.dump(-1, ' ', false, json::error_handler_t::replace);
        return;
    }
}

std::vector<std::pair<const std::string*, const json*>> orderedMembers(const json& obj) {
    std::vector<std::pair<const std::string*, const json*>> m;
    m.reserve(obj.size());
    for (auto it = obj.begin(); it != obj.end(); ++it)
        m.emplace_back(&it.key(), &it.value());
    std::stable_sort(m.begin(), m.end(),
                     [](const auto& a, const auto& b) { return keyRank(*a.first) < keyRank(*b.first); });
    return m;
}

// Width of `v` on one line, or something > limit as soon as it is known not to fit.
std::size_t oneLineWidth(const json& v, std::size_t limit) {
    if (v.is_object() || v.is_array()) {
        std::size_t w = 2;
        for (auto it = v.begin(); it != v.end() && w <= limit; ++it) {
            if (it != v.begin()) w += 2;
            if (v.is_object()) w += it.key().size() + 4;
            w += oneLineWidth(it.value(), limit - std::min(w, limit));
        }
        return w;
    }
    if (v.is_string()) return v.get_ref<const std::string&>().size() + 2;
    std::string s;
    writeScalar(v, s);
    return s.size();
}

void writeOneLine(const json& v, std::string& out) {
    if (v.is_object()) {
        out += '{';
        bool first = true;
        for (const auto& [key, value] : orderedMembers(v)) {
            if (!first) out += ", ";
            first = false;
            writeString(*key, out);
            out += ": ";
            writeOneLine(*value, out);
        }
        out += '}';
    } else if (v.is_array()) {
        out += '[';
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            writeOneLine(v[i], out);
        }
        out += ']';
    } else {
        writeScalar(v, out);
    }
}

void writePretty(const json& v, std::string& out, std::size_t indent, std::size_t used) {
    bool container = v.is_object() || v.is_array();
    std::size_t room = kLineWidth > used ? kLineWidth - used : 0;
    if (!container || v.empty() || oneLineWidth(v, room) <= room) {
        writeOneLine(v, out);
        return;
    }
    const std::string pad(indent + 2, ' ');
    if (v.is_object()) {
        out += "{\n";
        bool first = true;
        for (const auto& [key, value] : orderedMembers(v)) {
            if (!first) out += ",\n";
            first = false;
            out += pad;
            writeString(*key, out);
            out += ": ";
            writePretty(*value, out, indent + 2, indent + 2 + key->size() + 4);
        }
    } else {
        out += "[\n";
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += ",\n";
            out += pad;
            writePretty(v[i], out, indent + 2, indent + 2);
        }
    }
    out += '\n';
    out.append(indent, ' ');
    out += v.is_object() ? '}' : ']';
}

} // namespace

Result<nlohmann::json> parseJson(const std::string& text, const std::string& source) {
    try {
        if (text.find_first_not_of(" \t\r\n") == std::string::npos)
            return fail(at(source, text, text.size()) + "no JSON value (the text is empty)");
        json doc;
        TreeBuilder builder(doc);
        if (json::sax_parse(text, &builder)) return doc;
        if (builder.tooDeep())
            return fail(at(source, text, openingOfLevel(text, kMaxJsonDepth + 1)) + "nested " +
                        std::to_string(kMaxJsonDepth + 1) + " levels deep; this program reads arrays and objects " +
                        "nested at most " + std::to_string(kMaxJsonDepth) + " levels deep");
        const std::string what = simplify(builder.what());
        if (builder.errorId() == 406) {
            // A number too large for a double ("number overflow parsing '1e400'"): point at its first occurrence,
            // not at the character after it.
            auto open = what.find('\'');
            auto close = what.rfind('\'');
            if (open != std::string::npos && close > open) {
                auto pos = text.find(what.substr(open + 1, close - open - 1));
                if (pos != std::string::npos) return fail(at(source, text, pos) + what);
            }
            return fail(source + ": " + what);
        }
        // The position counts the bytes read, the failing one included.
        const std::size_t read = builder.errorPosition();
        return fail(at(source, text, read > 0 ? read - 1 : 0) + what);
    } catch (const std::bad_alloc&) {
        return fail(source + ": not enough memory to read its " + std::to_string(text.size()) + " bytes of JSON");
    } catch (const std::exception& e) {
        return fail(source + ": " + simplify(e.what()));
    }
}

std::string jsonToText(const nlohmann::json& doc) {
    std::string out;
    writePretty(doc, out, 0, 0);
    out += '\n';
    return out;
}

Result<nlohmann::json> loadJson(const std::string& path) {
    auto text = readTextFile(path);
    if (!text) return text.errorValue();
    return parseJson(*text, path);
}

Result<bool> saveJson(const std::string& path, const nlohmann::json& doc) {
    try {
        return writeTextFileAtomic(path, jsonToText(doc));
    } catch (const std::exception& e) {
        return fail(path + ": " + e.what());
    }
}

} // namespace ckpt
