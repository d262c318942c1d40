# Tab completion for bash (and zsh through bashcompinit): installed where
# bash-completion looks for a command's script by the command's name.
# (bashcompletiondir comes from configure: --with-bash-completion-dir).
EXTRA_DIST += completion/gully.bash

install-data-local: install-bash-completion
uninstall-local: uninstall-bash-completion
install-bash-completion:
	$(MKDIR_P) '$(DESTDIR)$(bashcompletiondir)'
	$(INSTALL_DATA) '$(srcdir)/completion/gully.bash' '$(DESTDIR)$(bashcompletiondir)/gully'
uninstall-bash-completion:
	rm -f '$(DESTDIR)$(bashcompletiondir)/gully'
.PHONY: install-bash-completion uninstall-bash-completion
