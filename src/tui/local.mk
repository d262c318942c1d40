# tui: the ncurses explorer. Filled in by the explorer work.
