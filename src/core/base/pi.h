/* pi, once: for the angles parameters give in degrees (the emitter's and
 * the jets' directions, the light) and the SPH kernels' constants. C11's
 * <math.h> has no M_PI (POSIX adds it), so gully defines its own here. */
#ifndef GULLY_CORE_BASE_PI_H
#define GULLY_CORE_BASE_PI_H

#define GULLY_PI 3.14159265358979323846

#endif
