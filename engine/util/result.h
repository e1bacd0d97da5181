#pragma once
// A value or an error message: the engine reports failures as values and never throws across its boundary.
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace ckpt {

struct Error {
    std::string message;
    long long index = -1;    // where the error is, when it has a place (e.g. the first bad action of a schedule)
    bool infeasible = false; // the input is fine but no plan meets the budget (the message names what would)
    bool too_large = false;  // refused before the work, its estimate over a documented limit (the message gives both)
};

template <typename T> class Result {
public:
    Result(T value) : m_v(std::move(value)) {}
    Result(Error error) : m_v(std::move(error)) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { return std::get<0>(m_v); }
    const T& value() const& { return std::get<0>(m_v); }
    T&& value() && { return std::get<0>(std::move(m_v)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const std::string& error() const { return std::get<1>(m_v).message; }
    long long errorIndex() const { return std::get<1>(m_v).index; }
    const Error& errorValue() const { return std::get<1>(m_v); }

private:
    std::variant<T, Error> m_v;
};

inline Error fail(std::string message, long long index = -1) {
    return Error{std::move(message), index, false};
}
inline Error infeasible(std::string message) {
    return Error{std::move(message), -1, true};
}
inline Error overLimit(std::string message) {
    return Error{std::move(message), -1, false, true};
}

} // namespace ckpt
