/* Error codes shared by every layer: core returns them, io/cli add detail text. */
#ifndef GULLY_ERROR_H
#define GULLY_ERROR_H

enum gully_err {
	GULLY_OK = 0,
	GULLY_ENOMEM,    /* allocation failed */
	GULLY_EINVAL,    /* an argument or parameter is invalid */
	GULLY_ERANGE,    /* a value is outside its allowed range */
	GULLY_ESIZE,     /* map dimensions outside what gully supports */
	GULLY_EKEY,      /* unknown parameter key */
	GULLY_EIO,       /* read or write failed (errno has more) */
	GULLY_EFORMAT,   /* a file is malformed */
	GULLY_ECORRUPT,  /* a checksum does not match */
	GULLY_EVERSION,  /* a file is of an unsupported version */
	GULLY_ENOTFOUND, /* a named thing does not exist */
	GULLY_ENOTIMPL,  /* not built yet */
	GULLY_ERR_COUNT
};

const char *gully_strerror(int err);

#endif
