#pragma once
// JSON files of the program (see README "File formats"). Every document has "format" and "version".
// Errors name the file, then either line:column (malformed JSON) or the JSON path of the bad field
// (e.g. "steps[3].forward"), and say what was expected: "lstm.json: steps[3].forward: expected a number >= 0, got -1".
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"
#include "util/result.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ckpt {

// `source` is the name used in messages (usually the file path).
Result<Chain> chainFromJson(const nlohmann::json& doc, const std::string& source);
Result<Hardware> hardwareFromJson(const nlohmann::json& doc, const std::string& source);
Result<Plan> planFromJson(const nlohmann::json& doc, const std::string& source);

nlohmann::json chainToJson(const Chain& chain); // uniform chains use the compact "uniform" form
nlohmann::json hardwareToJson(const Hardware& hw);
nlohmann::json planToJson(const Plan& plan);

// Parses text; a syntax error gives "source:line:column: what was expected".
Result<nlohmann::json> parseJson(const std::string& text, const std::string& source);

Result<Chain> loadChain(const std::string& path);
Result<Hardware> loadHardware(const std::string& path);
Result<Plan> loadPlan(const std::string& path);

} // namespace ckpt
