// Imported first by TUI tests: chalk decides on colour when it loads, and a pipe gets none.
process.env.FORCE_COLOR = '1';
