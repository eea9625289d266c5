/* glrmask's version, for C and C++ (the CMake project reads it from here). */
#ifndef GLRMASK_VERSION_H_
#define GLRMASK_VERSION_H_

#define GLRMASK_VERSION_MAJOR 0
#define GLRMASK_VERSION_MINOR 2
#define GLRMASK_VERSION_PATCH 0
#define GLRMASK_VERSION_STRING "0.2.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH, for #if comparisons. */
#define GLRMASK_VERSION \
  (GLRMASK_VERSION_MAJOR * 10000 + GLRMASK_VERSION_MINOR * 100 + GLRMASK_VERSION_PATCH)

#endif /* GLRMASK_VERSION_H_ */
