// Units as typed: what formatBytes/formatSeconds show parses back to the value (exactly for values people type), in
// the units they were typed in, without digits that say nothing.
#include "util/units.h"

#include <QtTest>
#include <cmath>
#include <random>

using namespace ckpt;

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void decimalValuesShowInDecimalUnits() {
        QCOMPARE(formatBytes(1e9), std::string("1 GB"));
        QCOMPARE(formatBytes(1.5e9), std::string("1.5 GB"));
        QCOMPARE(formatBytes(250e6), std::string("250 MB"));
        QCOMPARE(formatBytes(2e3), std::string("2 KB"));
        QCOMPARE(formatBytes(12.34e12), std::string("12.34 TB"));
        // Near-exact (1e-9 relative): a rate of 1e9 + 0.5 B/s (a computed one) is still 1 GB/s.
        QCOMPARE(formatBytes(1e9 + 0.5), std::string("1 GB"));
        QCOMPARE(formatBytes(1e9 + 100), std::string("953.67 MiB"));
    }

    void binaryValuesKeepBinaryUnits() {
        QCOMPARE(formatBytes(1073741824.0), std::string("1 GiB"));
        QCOMPARE(formatBytes(128.0 * 1048576), std::string("128 MiB"));
        QCOMPARE(formatBytes(1536), std::string("1.5 KiB"));
        QCOMPARE(formatBytes(1024), std::string("1 KiB"));
        // Both a binary and a decimal multiple (1000 KiB = 1.024 MB): the binary one, as before.
        QCOMPARE(formatBytes(1024000), std::string("1000 KiB"));
        QCOMPARE(formatBytes(0), std::string("0 B"));
        QCOMPARE(formatBytes(1000), std::string("1000 B"));
        QCOMPARE(formatBytes(-2048), std::string("-2 KiB"));
    }

    void otherValuesKeepTwoBinaryDecimals() {
        QCOMPARE(formatBytes(12345678), std::string("11.77 MiB"));
        QCOMPARE(formatBytes(1853), std::string("1.81 KiB"));
        QCOMPARE(formatBytes(1e9 + 5e6 + 1234), std::string("958.44 MiB")); // not 1.005 GB: three decimals
    }

    void secondsDropZerosOfExactValues() {
        QCOMPARE(formatSeconds(0.003), std::string("3 ms"));
        QCOMPARE(formatSeconds(0.0032), std::string("3.2 ms"));
        QCOMPARE(formatSeconds(1.344e-5), std::string("13.44 \u00b5s"));
        QCOMPARE(formatSeconds(40.316650598999999), std::string("40.317 s"));
        QCOMPARE(formatSeconds(60), std::string("60 s"));
        QCOMPARE(formatSeconds(12 * 0.001), std::string("12 ms")); // 0.012000000000000002
        QCOMPARE(formatSeconds(0), std::string("0 s"));
    }

    // What people type (a mantissa of up to three significant digits in any unit) is shown so that typing the shown
    // text back gives the very same number of bytes.
    void typedSizesRoundTripExactly() {
        const char* units[] = {"B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"};
        int checked = 0;
        for (int mantissa = 1; mantissa <= 999; ++mantissa)
            for (int shift : {0, 1, 2})
                for (const char* unit : units) {
                    const double m = mantissa / std::pow(10.0, shift);
                    if (mantissa % 10 == 0 && shift > 0) continue; // the same as a shorter mantissa
                    const std::string typed = std::to_string(m) + " " + unit;
                    auto bytes = parseBytes(typed);
                    QVERIFY2(bytes.ok(), typed.c_str());
                    if (std::string(unit) == "B" && shift > 0) continue; // fractions of a byte round
                    const std::string shown = formatBytes(double(*bytes));
                    auto back = parseBytes(shown);
                    QVERIFY2(back.ok(), shown.c_str());
                    QVERIFY2(*back == *bytes, (typed + " -> " + shown).c_str());
                    ++checked;
                }
        QVERIFY(checked > 20000);
    }

    // Any number of bytes: the shown text parses back to within half its last digit, and what it parses to is shown
    // as the same number (typing back what a cell shows changes nothing more; "2.50 KiB", rounded, becomes the exact
    // "2.5 KiB").
    void anySizeRoundTripsToItsShownPrecision() {
        std::mt19937_64 rng(11);
        for (int i = 0; i < 50000; ++i) {
            const int digits = int(rng() % 16) + 1;
            const std::int64_t v = std::int64_t(rng() % std::uint64_t(std::pow(10.0, digits)));
            const std::string shown = formatBytes(double(v));
            auto back = parseBytes(shown);
            QVERIFY2(back.ok(), shown.c_str());
            // Two decimals of the unit shown: at most half a hundredth of it, plus the byte parseBytes rounds.
            const double unit = double(*parseBytes("1" + shown.substr(shown.find(' '))));
            QVERIFY2(std::abs(double(*back - v)) <= 0.005 * unit + 0.5, (std::to_string(v) + " -> " + shown).c_str());
            QVERIFY2(*parseBytes(formatBytes(double(*back))) == *back, (std::to_string(v) + " -> " + shown).c_str());
        }
    }

    void typedTimesRoundTrip() {
        for (const char* unit : {"ns", "us", "ms", "s"})
            for (int mantissa = 1; mantissa <= 999; ++mantissa) {
                const std::string typed = std::to_string(mantissa) + unit;
                const double secs = *parseSeconds(typed);
                const std::string shown = formatSeconds(secs);
                auto back = parseSeconds(shown);
                QVERIFY2(back.ok(), shown.c_str());
                QVERIFY2(std::abs(*back - secs) <= 1e-12 * secs, (typed + " -> " + shown).c_str());
                QVERIFY2(shown.find(".0") == std::string::npos, (typed + " -> " + shown).c_str());
            }
    }

    void parametersReadLikeNumbers() {
        QCOMPARE(formatParamValue("lp_bound_s", "0.022338518142246359"), std::string("22.34 ms"));
        QCOMPARE(formatParamValue("time_limit", "40.316650598999999"), std::string("40.317 s"));
        QCOMPARE(formatParamValue("lp_rounding_budget_factor", "0.90000000000000002"), std::string("0.9"));
        QCOMPARE(formatParamValue("unit_bytes", "1048576"), std::string("1 MiB"));
        QCOMPARE(formatParamValue("slots", "217"), std::string("217"));
        QCOMPARE(formatParamValue("node_limit", "123456789"), std::string("123456789"));
        QCOMPARE(formatParamValue("optimal", "no: the time limit of 34.83 s was reached"),
                 std::string("no: the time limit of 34.83 s was reached"));
        QCOMPARE(formatParams({{"slots", "3"}, {"lp_bound_s", "1.5"}}), std::string("lp_bound_s=1.5 s  slots=3"));
    }
};

QTEST_MAIN(TestUnits)
#include "tst_units.moc"
