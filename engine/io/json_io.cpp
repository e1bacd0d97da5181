// The text side of the JSON files: parsing with line:column messages, and writing a layout people can read and diff
// (small arrays and objects on one line, so a plan has one action per line).
#include "io/json_io.h"

#include "util/files.h"

#include <algorithm>
#include <array>
#include <bit>
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

// A heap block of `n` bytes as glibc's malloc hands it out: the request and an 8-byte header, rounded up to 16 bytes,
// at least 32 (large blocks are mapped whole pages, which differs by less than a page).
constexpr std::size_t heapBytes(std::size_t n) {
    return n == 0 ? 0 : std::max<std::size_t>(32, (n + 8 + 15) / 16 * 16);
}

// What the values of a tree take besides their slots (a json is a type tag and a pointer: 16 bytes): an array or
// object is a pointer to a vector or map of its own, a string to a std::string, which keeps up to 15 characters in
// itself and more in a block of their own; an object's member is a red-black tree node (colour and three links) with
// the key and the value's slot. The counts for a chain of a million steps (711 MiB) and for 100 MB of [{},{},...]
// (2.98 GiB, which the slack of arrays makes 30 bytes per byte) are within 2% of the memory they were measured to take.
constexpr std::size_t kSlotBytes = sizeof(json);
constexpr std::size_t kArrayBytes = heapBytes(sizeof(json::array_t));
constexpr std::size_t kObjectBytes = heapBytes(sizeof(json::object_t));
constexpr std::size_t kMemberBytes = heapBytes(4 * sizeof(void*) + sizeof(json::object_t::value_type));

// The block of a std::string holding `length` characters (none if they fit in the string itself).
std::size_t textBytes(std::size_t length) {
    static const std::size_t inPlace = json::string_t().capacity();
    return length > inPlace ? heapBytes(length + 1) : 0;
}

// json's destructor does not recurse: it moves the root's children into a vector reserved to their number, then takes
// them off from the back, appending the children of each array or object it takes off (the vector doubles as it
// grows). At most `path` values wait in it at once: the largest sum of the children of the arrays and objects along a
// path down from the root.
std::size_t destroyBytes(std::size_t rootSize, std::size_t path) {
    if (rootSize == 0) return 0;
    const auto doublings = std::bit_width((path + rootSize - 1) / rootSize - 1); // the fewest with room for `path`
    const std::size_t capacity = rootSize << doublings;
    return heapBytes(capacity * kSlotBytes) + (doublings > 0 ? heapBytes(capacity / 2 * kSlotBytes) : 0);
}

std::string sizeText(std::size_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

// Builds the document as nlohmann's parser does, but refuses to open an array or object deeper than kMaxJsonDepth:
// the parser itself nests without limit, each level of "[[[[..." costs some 50 bytes of memory per byte of file
// (100 MB of "[" ran out of memory at 5 GB), and any code that walks the tree would recurse as deep.
// It also counts the bytes the tree takes and refuses a value that would take it past `maxBytes`. The count takes the
// peaks in: an array's old and new slots while it grows (it grows here, by doubling as push_back would, so the count
// is exact), the lexer's buffer of the longest string, and the vector json's destructor fills when the tree goes.
//
// With a JsonArraySink, the elements of its array are handed over as each is read and left as null: their bytes are
// counted while they are read and uncounted once handed over.
class TreeBuilder {
public:
    TreeBuilder(json& root, std::size_t maxBytes, JsonArraySink* sink)
        : m_root(root), m_sink(sink), m_maxBytes(maxBytes) {}

    bool null() { return room(0) && put(json(nullptr)); }
    bool boolean(bool v) { return room(0) && put(json(v)); }
    bool number_integer(json::number_integer_t v) { return room(0) && put(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return room(0) && put(json(v)); }
    bool number_float(json::number_float_t v, const json::string_t&) { return room(0) && put(json(v)); }
    // Strings and keys are copied, not moved: the lexer's buffer has the capacity of the longest text read so far,
    // and a short key copied fits in the string itself.
    bool string(json::string_t& v) {
        lexerBuffer(v);
        if (m_sink && m_open.size() == 1 && m_keyIsFormat) m_formatMatches = v == m_sink->format;
        return room(heapBytes(sizeof(json::string_t)) + textBytes(v.size())) && put(json(v));
    }
    bool binary(json::binary_t& v) {
        return room(heapBytes(sizeof(json::binary_t)) + heapBytes(v.size())) && put(json::binary(std::move(v)));
    }
    bool start_object(std::size_t) { return room(kObjectBytes) && open(json::value_t::object); }
    bool start_array(std::size_t) { return room(kArrayBytes) && open(json::value_t::array); }
    bool key(json::string_t& k) {
        ++m_tokens;
        lexerBuffer(k);
        if (m_sink && m_open.size() == 1) {
            m_keyIsFormat = k == "format";
            // A repeated member replaces the array handed over before, whether or not it is handed over itself.
            if (k == m_sink->member) m_sink->streamed = false;
            m_armed = m_formatMatches && k == m_sink->member;
        }
        auto& members = m_open.back()->get_ref<json::object_t&>();
        auto it = members.lower_bound(k);
        // A repeated key keeps its last value, as json::parse does (the one it replaces stays counted).
        if (it == members.end() || it->first != k) {
            if (!fits(kMemberBytes + textBytes(k.size()), 0, true)) return false;
            it = members.emplace_hint(it, k, json());
        }
        m_member = &it->second;
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
    // Refused for memory: the index of the token (string, number, literal or bracket) that would have gone past.
    bool tooLarge() const { return m_tooLarge; }
    std::size_t refusedToken() const { return m_tokens - 1; }
    int errorId() const { return m_id; }
    const std::string& what() const { return m_what; }
    std::size_t errorPosition() const { return m_position; }

private:
    // Room for one more value taking `bytes` besides its slot: in the open array (grown here if full), in the member
    // key() made, or as the root. False past the budget.
    bool room(std::size_t bytes) {
        ++m_tokens;
        json::array_t* array =
            m_open.empty() || !m_open.back()->is_array() ? nullptr : &m_open.back()->get_ref<json::array_t&>();
        std::size_t grown = 0, old = 0;
        if (array && array->size() == array->capacity()) {
            grown = array->empty() ? 1 : 2 * array->capacity();
            old = heapBytes(array->capacity() * kSlotBytes);
            bytes += heapBytes(grown * kSlotBytes) - old;
        }
        if (!fits(bytes, old, array != nullptr)) return false;
        if (grown) array->reserve(grown);
        return true;
    }
    // Whether the tree can take `bytes` more (and `transient` more while an array moves its slots), with one more
    // child in the innermost open array or object if `child`; if so, counts them.
    bool fits(std::size_t bytes, std::size_t transient, bool child) {
        const std::size_t path = m_path + (child ? 1 : 0);
        const std::size_t rootSize = m_rootSize + (child && m_open.size() == 1 ? 1 : 0);
        const std::size_t longestPath = std::max(m_longestPath, path);
        const std::size_t tree = m_bytes + bytes;
        const std::size_t peak = tree + std::max(transient, destroyBytes(rootSize, longestPath)) + m_lexerBytes;
        if (peak > m_maxBytes) {
            m_tooLarge = true;
            return false;
        }
        m_bytes = tree;
        m_path = path;
        m_rootSize = rootSize;
        m_longestPath = longestPath;
        return true;
    }
    void lexerBuffer(const json::string_t& s) { m_lexerBytes = std::max(m_lexerBytes, textBytes(s.capacity())); }

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
    bool put(json&& v) {
        if (m_open.size() == 1) m_armed = false;
        json* placed = place(std::move(v));
        if (!m_open.empty() && m_open.back() == m_sinkArray) handOver(*placed);
        return true;
    }
    bool open(json::value_t type) {
        if (m_open.size() >= kMaxJsonDepth) {
            m_tooDeep = true;
            return false;
        }
        const bool element = !m_open.empty() && m_open.back() == m_sinkArray;
        const bool sinkArray = m_armed && m_open.size() == 1 && type == json::value_t::array;
        if (m_open.size() == 1) m_armed = false;
        m_open.push_back(place(json(type)));
        if (element) m_elementStart = m_bytes - (type == json::value_t::array ? kArrayBytes : kObjectBytes);
        if (sinkArray) {
            m_sinkArray = m_open.back();
            m_sinkIndex = 0;
            m_sink->streamed = true;
        }
        return true;
    }
    bool close() {
        ++m_tokens;
        m_path -= m_open.back()->size();
        if (m_open.back() == m_sinkArray) m_sinkArray = nullptr;
        m_open.pop_back();
        if (!m_open.empty() && m_open.back() == m_sinkArray) {
            handOver(m_sinkArray->back());
            m_bytes = m_elementStart;
        }
        return true;
    }
    void handOver(json& element) {
        m_sink->take(m_sinkIndex++, element);
        element = nullptr;
    }

    json& m_root;
    std::vector<json*> m_open;
    json* m_member = nullptr;

    JsonArraySink* m_sink;
    bool m_keyIsFormat = false;     // the root member being read is "format"
    bool m_formatMatches = false;   // the root's "format" read so far is the sink's
    bool m_armed = false;           // the root member being read is the sink's
    json* m_sinkArray = nullptr;    // the sink's array while it is open
    std::size_t m_sinkIndex = 0;    // of its next element
    std::size_t m_elementStart = 0; // m_bytes before its open element

    bool m_tooDeep = false;
    int m_id = 0;
    std::string m_what;
    std::size_t m_position = 0;

    const std::size_t m_maxBytes;
    bool m_tooLarge = false;
    std::size_t m_tokens = 0;      // read so far
    std::size_t m_bytes = 0;       // of the tree
    std::size_t m_lexerBytes = 0;  // of the lexer's buffer, as large as the longest string or key read
    std::size_t m_rootSize = 0;    // children of the root
    std::size_t m_path = 0;        // the sum of the children of the open arrays and objects
    std::size_t m_longestPath = 0; // the largest m_path yet, at most what json's destructor holds at once
};

// Frees a tree from its leaves up, holding only the path to them: json's destructor would first move the children of
// the root, then of each array or object below, into a vector (what TreeBuilder counts for a tree it returns).
void dismantle(json& root) {
    const auto filled = [](const json& v) { return (v.is_array() || v.is_object()) && !v.empty(); };
    std::vector<json*> path{&root};
    while (!path.empty()) {
        json& v = *path.back();
        if (!filled(v)) {
            path.pop_back();
        } else if (v.is_array()) {
            auto& a = v.get_ref<json::array_t&>();
            if (filled(a.back()))
                path.push_back(&a.back());
            else
                a.pop_back();
        } else {
            auto& o = v.get_ref<json::object_t&>();
            const auto last = std::prev(o.end());
            if (filled(last->second))
                path.push_back(&last->second);
            else
                o.erase(last);
        }
    }
}

// The offset of token `index` (0: the first) in text read without error up to it: each string (key or value),
// number, literal and bracket is one token; commas, colons and white space are none.
std::size_t offsetOfToken(const std::string& text, std::size_t index) {
    const auto separator = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ':';
    };
    std::size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0; // a byte order mark, which the parser skips
    for (std::size_t n = 0; i < text.size();) {
        const char c = text[i];
        if (separator(c)) {
            ++i;
            continue;
        }
        if (n++ == index) return i;
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
            ++i;
        } else if (c == '[' || c == ']' || c == '{' || c == '}') {
            ++i;
        } else {
            while (i < text.size() && !separator(text[i]) && text[i] != ']' && text[i] != '}')
                ++i;
        }
    }
    return text.size();
}

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

Result<nlohmann::json> parseJson(const std::string& text, const std::string& source, std::size_t maxTreeBytes,
                                 JsonArraySink* sink) {
    try {
        if (text.find_first_not_of(" \t\r\n") == std::string::npos)
            return fail(at(source, text, text.size()) + "no JSON value (the text is empty)");
        json doc;
        if (sink) sink->streamed = false;
        TreeBuilder builder(doc, maxTreeBytes, sink);
        if (json::sax_parse(text, &builder)) return doc;
        dismantle(doc);
        if (builder.tooLarge())
            return overLimit(at(source, text, offsetOfToken(text, builder.refusedToken())) +
                             "the values read up to here would take more than " + sizeText(maxTreeBytes) +
                             " in memory; this program reads JSON that takes at most " + sizeText(maxTreeBytes));
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

Result<nlohmann::json> loadJson(const std::string& path, JsonArraySink* sink) {
    auto text = readTextFile(path);
    if (!text) return text.errorValue();
    return parseJson(*text, path, kMaxJsonTreeBytes, sink);
}

Result<bool> saveJson(const std::string& path, const nlohmann::json& doc) {
    try {
        return writeTextFileAtomic(path, jsonToText(doc));
    } catch (const std::exception& e) {
        return fail(path + ": " + e.what());
    }
}

} // namespace ckpt
