#pragma once
// Human units for bytes and seconds: parsing what users type and printing what they read.
#include "util/result.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace ckpt {

// "4096", "4096B", "1.5 KiB", "64MiB", "2 GiB", "1e6", "3 KB" (SI) -> bytes.
Result<std::int64_t> parseBytes(std::string_view text);
// "0.5", "3ms", "12 us", "1.5 s" -> seconds.
Result<double> parseSeconds(std::string_view text);

// Trailing zeros of an exact value say nothing ("128 MiB", "1.5 KiB", "3 ms") and are dropped, except in the columns
// of a table, where every row keeps the same decimals ("128.00 MiB").
enum class Zeros { Drop, Keep };

// Binary units with two decimals ("1.53 MiB"); a value typed in decimal units, an exact multiple of 1000 that is not
// one of 1024, in those ("1 GB" for 1e9, not "953.67 MiB").
std::string formatBytes(double bytes, Zeros zeros = Zeros::Drop);
// One unit family for every size of a message or a table, so that "13.24 MB" never stands beside "12.50 MiB": decimal
// when the size it is about (the budget the user typed) reads in decimal units by the rule above, binary otherwise.
enum class ByteUnits { Binary, Decimal };
ByteUnits unitsOf(double reference);
std::string formatBytes(double bytes, ByteUnits units, Zeros zeros = Zeros::Drop);
std::string formatSeconds(double secs, Zeros zeros = Zeros::Drop); // "3.25 ms", "3 ms"

// At most `significant` significant digits ("0.02234", "40.32").
std::string formatNumber(double value, int significant = 4);
// A scheduler parameter as people read it: seconds (a key ending in _s, or time_limit) and bytes (ending in _bytes)
// in their units, other fractional numbers to four significant digits; integers and words as they are.
std::string formatParamValue(std::string_view key, std::string_view value);
// "key=value  key=value" in key order, each value through formatParamValue. Two spaces apart by default, as values
// may hold one ("22.34 ms"); in HTML, where spaces collapse, pass "\u00a0 ".
std::string formatParams(const std::map<std::string, std::string>& params, std::string_view separator = "  ");

} // namespace ckpt
