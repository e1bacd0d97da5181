#include "focus.h"

#include <algorithm>

void Focus::setAction(int action) {
    action = std::max(action, -1);
    if (action == m_action) return;
    m_action = action;
    emit actionChanged(action);
}

void Focus::setNode(int node) {
    node = std::max(node, -1);
    if (node == m_node) return;
    m_node = node;
    emit nodeChanged(node);
}

void Focus::resetAction(int action) {
    m_action = action;
}
