# gully.1's parameter list is generated from the registry by `gully params --man`,
# so the manual can never disagree with the code.
man_MANS = man/gully.1
EXTRA_DIST += man/gully.1.in
CLEANFILES += man/gully.1

man/gully.1: $(srcdir)/man/gully.1.in gully$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) man && \
	./gully$(EXEEXT) params --man > man/gully.1.params && \
	sed -e 's/@VERSION@/$(PACKAGE_VERSION)/' -e 's|@PKGDATADIR@|$(pkgdatadir)|' \
	    -e '/@PARAMETERS@/{r man/gully.1.params' -e 'd;}' \
	    $(srcdir)/man/gully.1.in > $@.tmp && \
	rm -f man/gully.1.params && mv $@.tmp $@
# Manual pages.
dist_man_MANS += man/gully-snapshot.5
