/* cmocka and the few helpers its 1.1 release lacks. */
#ifndef GULLY_TESTUTIL_H
#define GULLY_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

/* cmocka 1.1 compares floats only as float; heights and volumes need doubles. */
#define assert_double_equal(a, b, eps) \
	do { \
		double a_ = (a), b_ = (b); \
		if (!(fabs(a_ - b_) <= (eps))) \
			fail_msg("%s = %.17g, %s = %.17g (tolerance %g)", #a, a_, #b, b_, \
				 (double)(eps)); \
	} while (0)

#endif
