#pragma once
// The physical sizes of exported charts live in the engine (util/print_size.h), so that figure specs are read there.
#include "util/print_size.h"
