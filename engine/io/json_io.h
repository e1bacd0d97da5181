#pragma once
// JSON files of the program. Every document has "format" and "version" (1); unknown members are ignored.
//   ckpt-chain:    "name", optional "comment", and either "steps": [{"forward", "backward", "state_bytes",
//                  "tape_bytes", optional "forward_tmp_bytes", "backward_tmp_bytes"}, ...] or "uniform": {"length", and
//                  the same fields}. Times are seconds or strings such as "3ms"; sizes are integers or "512 KiB".
//   ckpt-hardware: "name", "levels": [{"name", "capacity_bytes" (absent or null: unbounded), "read_bytes_per_s",
//                  "write_bytes_per_s" (numbers or "25 GB/s"; optional on level 0), "latency_s", and on level 0 only
//                  an optional "flops_per_s", its compute speed (default kDefaultFlopsPerSecond)}], level 0 first.
//   ckpt-plan:     "scheduler", "params" {name: text}, "budget_bytes", "predicted_makespan_s", "chain" {"name",
//                  "length"} (informational), "actions": [["F", step, "none"|"state"|"tape"], ["B", step],
//                  ["W"|"R"|"D", state, level], ...] (D frees). Only "actions" is required.
// Errors name the file, then either line:column (malformed JSON) or the JSON path of the bad field
// (e.g. "steps[3].forward"), and say what was expected: "lstm.json: steps[3].forward: expected a number >= 0, got -1".
// No function here throws; the ...ToJson functions can only fail as any allocation does.
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"
#include "util/result.h"

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace ckpt {

// `source` is the name used in messages (usually the file path). A missing "name" defaults to the file name without
// its folder and extension. Unknown members are ignored.
Result<Chain> chainFromJson(const nlohmann::json& doc, const std::string& source);
Result<Hardware> hardwareFromJson(const nlohmann::json& doc, const std::string& source);
Result<Plan> planFromJson(const nlohmann::json& doc, const std::string& source);

nlohmann::json chainToJson(const Chain& chain); // uniform chains use the compact "uniform" form
nlohmann::json hardwareToJson(const Hardware& hw);
nlohmann::json planToJson(const Plan& plan);

// Adds "chain": {"name", "length"} to the plan: informational, so a reader can see what the plan was made for.
nlohmann::json planToJson(const Plan& plan, const Chain& chain);

// The deepest nesting of arrays and objects parseJson reads. Files of the program nest at most 6 levels; the
// limit keeps "[[[[..." from taking tens of bytes of memory per byte of file and any walk of the tree from recursing
// without end.
constexpr std::size_t kMaxJsonDepth = 256;

// The most memory the tree parseJson builds may take, counted as glibc's malloc lays it out (with the peaks of growing
// an array and of freeing the tree): a file of at most 256 MiB may hold some 30 bytes of tree per byte of text (100 MB
// of [{},{},...] took 3.1 GB), while a chain of a million steps takes 711 MiB (and 120 to 180 MB of text).
constexpr std::size_t kMaxJsonTreeBytes = std::size_t{1} << 30;

// Takes the elements of one large array out of the tree while parseJson reads them: the array that is member `member`
// of a root object whose "format" is `format`, written before it (as this program writes its files). Each element goes
// to `take` with its index once it is read, and is left in the tree as null. A chain's steps then take the memory of
// the steps (48 bytes each), not of a tree of their members (some 600 bytes each). `streamed` tells whether the
// array was handed over (not when "format" comes after it, or differs, or the member is no array); a member repeated
// hands over again from index 0.
struct JsonArraySink {
    std::string format;
    std::string member;
    std::function<void(std::size_t index, const nlohmann::json& element)> take;
    bool streamed = false;
};

// Parses text; a syntax error gives "source:line:column: what was expected", and so does nesting deeper than
// kMaxJsonDepth ("source:1:257: nested 257 levels deep; ...") and a value that would take the tree past maxTreeBytes
// ("source:1:30198986: the values read up to here would take more than 1024 MiB in memory; ..."), which is refused
// before it is made. Tests pass a smaller maxTreeBytes.
Result<nlohmann::json> parseJson(const std::string& text, const std::string& source,
                                 std::size_t maxTreeBytes = kMaxJsonTreeBytes, JsonArraySink* sink = nullptr);
// Two-space indents, but an array or object that fits in the line stays on one line (a plan: one action per line);
// "format" and "version" come first. Numbers read back to the same values.
std::string jsonToText(const nlohmann::json& doc);

// Read and parse a file; messages start with the path.
Result<nlohmann::json> loadJson(const std::string& path, JsonArraySink* sink = nullptr);
Result<Chain> loadChain(const std::string& path);
// What loadChain reads from a file's text: chainFromJson(parseJson(text)) in what it accepts and says, but its steps
// are read as they are parsed (JsonArraySink), not kept as a tree: a tenth of the memory on a long chain.
Result<Chain> chainFromText(const std::string& text, const std::string& source);
Result<Hardware> loadHardware(const std::string& path);
Result<Plan> loadPlan(const std::string& path);

// Atomic saves (see writeTextFileAtomic) in the jsonToText layout.
Result<bool> saveJson(const std::string& path, const nlohmann::json& doc);
Result<bool> saveChain(const std::string& path, const Chain& chain);
Result<bool> saveHardware(const std::string& path, const Hardware& hw);
Result<bool> savePlan(const std::string& path, const Plan& plan);
Result<bool> savePlan(const std::string& path, const Plan& plan, const Chain& chain);

} // namespace ckpt
