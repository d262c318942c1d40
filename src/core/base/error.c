#include "core/base/error.h"

static const char *const messages[GULLY_ERR_COUNT] = {
	[GULLY_OK] = "success",
	[GULLY_ENOMEM] = "out of memory",
	[GULLY_EINVAL] = "invalid argument",
	[GULLY_ERANGE] = "value out of range",
	[GULLY_ESIZE] = "unsupported map size",
	[GULLY_EKEY] = "unknown parameter",
	[GULLY_EIO] = "input/output error",
	[GULLY_EFORMAT] = "malformed file",
	[GULLY_ECORRUPT] = "checksum mismatch",
	[GULLY_EVERSION] = "unsupported version",
	[GULLY_ENOTFOUND] = "not found",
	[GULLY_ENOTIMPL] = "not implemented yet",
};

const char *gully_strerror(int err)
{
	if (err < 0 || err >= GULLY_ERR_COUNT || !messages[err])
		return "unknown error";
	return messages[err];
}
