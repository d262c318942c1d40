# view: maps -> RGB pixels (curses-free). Filled in by the explorer work.
