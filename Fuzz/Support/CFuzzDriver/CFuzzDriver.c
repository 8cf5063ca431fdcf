// Empty: CFuzzDriver is its header; SwiftPM wants one source file per C target.
#include "CFuzzDriver.h"
