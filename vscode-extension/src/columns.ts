// The task graph's columns count code points (1-based); VS Code's positions count UTF-16 units.

/** The 0-based UTF-16 character offset of the 1-based code-point column `column` in `line`. */
export function utf16Character(line: string, column: number): number {
    let units = 0;
    let points = 1;
    for (const char of line) {
        if (points >= column) {
            return units;
        }
        units += char.length;
        points += 1;
    }
    return units + Math.max(0, column - points); // past the end: as far as it says
}
