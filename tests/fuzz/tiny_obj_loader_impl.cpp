// tinyobjloader's implementation, compiled with the fuzzers' instrumentation so that libFuzzer
// sees coverage inside the OBJ parser and ASan checks its accesses (Debian's libtinyobjloader.so
// is built without either). Same float precision as the tinyobjloader::tinyobjloader target.
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>
