#pragma once
// A portable spelling of "always inline" for the search's innermost calls. The engine's speed
// depends on the relaxation, heap and neighbour reads being inlined into one loop; compilers
// that do not know the request simply get ordinary inline functions. "Never inline" keeps a rare
// branch (a navigation mesh's off-mesh links) out of such a loop, so that the loop stays within
// the compiler's inlining budget.

#if defined(__GNUC__) || defined(__clang__)
/// Before a function declaration (after any [[...]] attributes).
#define WAYFINDER_FORCE_INLINE __attribute__((always_inline))
/// After a lambda's parameter list.
#define WAYFINDER_FORCE_INLINE_LAMBDA __attribute__((always_inline))
/// Before a function declaration (after any [[...]] attributes).
#define WAYFINDER_NEVER_INLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define WAYFINDER_FORCE_INLINE [[msvc::forceinline]]
#define WAYFINDER_FORCE_INLINE_LAMBDA
#else
#define WAYFINDER_FORCE_INLINE
#define WAYFINDER_FORCE_INLINE_LAMBDA
#define WAYFINDER_NEVER_INLINE
#endif
