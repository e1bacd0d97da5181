#pragma once
// Dynamic-programme tables kept between solves. The explorer's budget slider re-solves the same chain many times, and
// a table depends on the chain (and the scheduler's discretisation) but not on the budget, which only picks the entry
// read. A table is kept under the exact inputs it was computed from, so an edited chain can never read a stale one:
// its inputs differ, it misses, and the old table ages out. Thread-safe (the explorer solves in worker threads);
// bounded in entries and bytes; tables are immutable and shared, so an evicted one stays valid for its readers.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace ckpt {

struct TableCacheStats {
    long long hits = 0;
    long long misses = 0;
    long long evictions = 0; // tables dropped to stay within the bounds (not those replaced by a larger one)
    std::size_t tables = 0;
    std::size_t bytes = 0;
    std::size_t max_tables = 0; // the bounds
    std::size_t max_bytes = 0;
};

// Key: the inputs a table is computed from (operator==). Table: has `std::size_t bytes() const`.
template <typename Key, typename Table> class TableCache {
public:
    TableCache(std::size_t maxTables, std::size_t maxBytes) : m_maxTables(maxTables), m_maxBytes(maxBytes) {}

    // The kept table for `key` if `fits(table)` (a hit), else nothing (a miss); `smaller`, if given, receives the
    // kept table that did not fit, so that the caller can grow it rather than build one just large enough again.
    template <typename Fits>
    std::shared_ptr<const Table> find(const Key& key, Fits&& fits, std::shared_ptr<const Table>* smaller = nullptr) {
        std::lock_guard lock(m_mutex);
        for (Entry& e : m_entries)
            if (e.key == key) {
                if (fits(*e.table)) {
                    e.used = ++m_clock;
                    ++m_stats.hits;
                    return e.table;
                }
                if (smaller) *smaller = e.table;
                break;
            }
        ++m_stats.misses;
        return nullptr;
    }

    // Keeps `table` as the one for `key` (replacing the one kept before), then drops the least recently used tables
    // while over the bounds. A table larger than the byte bound is not kept.
    void keep(const Key& key, std::shared_ptr<const Table> table) {
        const std::size_t bytes = table->bytes();
        std::lock_guard lock(m_mutex);
        std::erase_if(m_entries, [&](const Entry& e) { return e.key == key; });
        if (bytes > m_maxBytes) return;
        m_entries.push_back(Entry{key, std::move(table), bytes, ++m_clock});
        auto total = [&] {
            std::size_t sum = 0;
            for (const Entry& e : m_entries)
                sum += e.bytes;
            return sum;
        };
        while (m_entries.size() > m_maxTables || total() > m_maxBytes) {
            m_entries.erase(std::min_element(m_entries.begin(), m_entries.end(),
                                             [](const Entry& a, const Entry& b) { return a.used < b.used; }));
            ++m_stats.evictions;
        }
    }

    TableCacheStats stats() const {
        std::lock_guard lock(m_mutex);
        TableCacheStats s = m_stats;
        s.tables = m_entries.size();
        s.max_tables = m_maxTables;
        s.max_bytes = m_maxBytes;
        for (const Entry& e : m_entries)
            s.bytes += e.bytes;
        return s;
    }

    void clear() {
        std::lock_guard lock(m_mutex);
        m_entries.clear();
        m_stats = {};
    }

private:
    struct Entry {
        Key key;
        std::shared_ptr<const Table> table;
        std::size_t bytes = 0;
        std::uint64_t used = 0;
    };
    const std::size_t m_maxTables, m_maxBytes;
    mutable std::mutex m_mutex;
    std::vector<Entry> m_entries;
    std::uint64_t m_clock = 0;
    TableCacheStats m_stats;
};

// The slots to build a table with when `need` is asked: exactly `need` on a first build; after a kept table of `kept`
// slots proved too small (the slider moving up), twice that, within `most`, so that a sweep builds O(log) tables.
inline int grownSlots(int need, int kept, int most) {
    return kept > 0 ? std::max(need, std::min(most, 2 * kept)) : need;
}

} // namespace ckpt
