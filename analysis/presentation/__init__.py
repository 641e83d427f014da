"""What the user reads of an analysis, as plain data (no LSP types): hint labels, hover and explain
markdown, quick fixes, and the diagnostics of C++ registration sources. The CLI and the server render it."""
