# gully.1's parameter list and KEYS are generated from the registry and the key
# table (`gully params --man`, `gully --keys-man`), so the manual cannot disagree
# with the code.
man_MANS = man/gully.1
EXTRA_DIST += man/gully.1.in
CLEANFILES += man/gully.1

man/gully.1: $(srcdir)/man/gully.1.in gully$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) man && \
	./gully$(EXEEXT) params --man > man/gully.1.params && \
	./gully$(EXEEXT) --keys-man | sed -e '/^\.SH KEYS/s/^\.SH/.SS/' > man/gully.1.keys && \
	sed -e 's/[@]VERSION[@]/$(PACKAGE_VERSION)/' -e 's|@PKGDATADIR@|$(pkgdatadir)|' \
	    -e 's|@BASHCOMPLETIONDIR@|$(bashcompletiondir)|' \
	    -e '/@PARAMETERS@/{r man/gully.1.params' -e 'd;}' \
	    -e '/@KEYS@/{r man/gully.1.keys' -e 'd;}' \
	    $(srcdir)/man/gully.1.in > $@.tmp && \
	rm -f man/gully.1.params man/gully.1.keys && mv $@.tmp $@
# Manual pages.
dist_man_MANS += man/gully-snapshot.5
