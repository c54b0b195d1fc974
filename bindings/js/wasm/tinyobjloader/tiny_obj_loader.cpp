// tinyobjloader's implementation, which its header holds behind this definition.
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>
