#!/bin/sh
# Builds the libFuzzer targets with clang (not part of `make check`, which
# replays the seed corpus with gcc instead) and optionally runs one.
#
#   sh tests/fuzz/build-fuzzers.sh                 build into build-fuzz/
#   sh tests/fuzz/build-fuzzers.sh run preset 600  fuzz the preset loader 10 min
#   sh tests/fuzz/build-fuzzers.sh run snapshot 600
#   sh tests/fuzz/build-fuzzers.sh run resume 600     snapshots through to a stepped process
#   sh tests/fuzz/build-fuzzers.sh run heightmap 600  .pgm/.r16/.f32/.png, resampled as hardness
#
# Needs clang (Debian: apt-get install clang). Runs use a copy of the seed
# corpus in build-fuzz/corpus-NAME, so new inputs never land in the tree.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build-fuzz
mkdir -p "$out"
CC=${CC:-clang}
command -v "$CC" >/dev/null || { echo "build-fuzzers: $CC not found" >&2; exit 1; }

# preset.c includes config.h for the package name and version.
version=$(sed -n 's/^AC_INIT(\[gully\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
printf '#define PACKAGE_NAME "gully"\n#define PACKAGE_VERSION "%s"\n' "$version" >"$out/config.h"

flags="-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -fsanitize=fuzzer,address,undefined
-fno-sanitize-recover=undefined -I$top/src -I$out $(pkg-config --cflags libcyaml yaml-0.1)"
libs="$(pkg-config --libs libcyaml yaml-0.1 libpng zlib) -lm"
core=$(find "$top/src/core" -name '*.c' | sort)

build() { # name, io sources
	name=$1
	shift
	echo "build-fuzzers: fuzz_$name"
	# shellcheck disable=SC2086
	$CC $flags -I"$top/tests/fuzz" -o "$out/fuzz_$name" "$top/tests/fuzz/fuzz_$name.c" $core "$@" $libs
}

build preset "$top/src/io/fileio.c" "$top"/src/io/preset*.c
if [ -f "$top/src/io/snapshot.c" ]; then
	build snapshot "$top/src/io/fileio.c" "$top"/src/io/snapshot*.c
else
	echo "build-fuzzers: no src/io/snapshot.c yet; fuzz_snapshot not built" >&2
fi

build resume "$top/src/io/fileio.c" "$top"/src/io/snapshot*.c \
	"$top/tests/fuzz/snapfix.c"
build heightmap "$top/src/io/fileio.c" "$top/src/io/image.c" "$top/src/io/image_import.c"

if [ "${1:-}" = run ]; then
	name=${2:?which target}
	secs=${3:-600}
	mkdir -p "$out/corpus-$name"
	cp -n "$top/tests/fuzz/corpus/$name"/* "$out/corpus-$name/" 2>/dev/null || true
	cd "$out"
	exec "./fuzz_$name" -max_total_time="$secs" -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 "corpus-$name"
fi
