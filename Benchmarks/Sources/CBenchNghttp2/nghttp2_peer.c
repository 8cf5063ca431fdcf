// SwiftPM builds a C target from at least one source file; nghttp2 is called from Swift through
// the header, so this file only includes it.
#include "CBenchNghttp2.h"
