# Manual pages.
dist_man_MANS += man/gully-snapshot.5
