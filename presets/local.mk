# The shipped presets; `gully -p NAME` finds them in $(pkgdatadir)/presets.
dist_presets_DATA += \
	presets/default.yaml \
	presets/ridges-and-plateaus.yaml \
	presets/river-valley.yaml \
	presets/lake-chain.yaml \
	presets/seed-hydrology-2020.yaml \
	presets/vegetation-comparison.yaml \
	presets/emitter-canyon.yaml \
	presets/emitter-spiral.yaml \
	presets/cone-gullies.yaml \
	presets/plane-rills.yaml \
	presets/sph-wetting.yaml \
	presets/sph-craters.yaml \
	presets/sph-vertical-jet.yaml \
	presets/sph-horizontal-jet.yaml \
	presets/sph-two-jets.yaml \
	presets/sph-rain-valley.yaml

# A gully run from the build tree reads the presets of the source it was built
# from through this link beside it (src/io/preset_find.c), installed gully or
# not; the installed gully has no such link and reads $(pkgdatadir)/presets.
all-local: gully-presets
gully-presets:
	$(AM_V_GEN)rm -f $@ && ln -s '$(abs_top_srcdir)/presets' $@
CLEANFILES += gully-presets

# The presets' directories are gully's own (no other package shares them),
# so uninstall takes them too once empty, after the files (a hook runs after
# every uninstall rule); rmdir leaves them where a user put files of theirs.
uninstall-hook:
	-rmdir '$(DESTDIR)$(presetsdir)' '$(DESTDIR)$(pkgdatadir)' 2>/dev/null
