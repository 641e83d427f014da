// When the server process ends without being asked to (an out-of-memory kill, a bug), the
// language client starts it again, at most CRASH_LIMIT times within CRASH_WINDOW_MS; the next
// unexpected end within that window stops it for good, until the user restarts it (Restart
// Server, or a setting that needs a new process). Pure logic: no vscode here (unit-tested).

/** Restarts allowed within the window: the fifth unexpected end within 3 minutes gives up. */
export const CRASH_LIMIT = 4;
export const CRASH_WINDOW_MS = 3 * 60 * 1000;

/** How the process ended, as node's 'exit' event gives it (both null: unknown, e.g. not seen). */
export interface Exit {
    code: number | null;
    signal: string | null;
}

/** One unexpected end, counted. */
export interface Crash {
    /** Unexpected ends within the window, this one included. */
    count: number;
    /** Whether the client starts the server again. */
    restart: boolean;
    /** What happened, in words: "was killed with SIGKILL (...)". */
    how: string;
    /** ... in one word or two, for the status item: "SIGKILL", "exit code 1". */
    short: string;
}

/**
 * Whether a failed write to the server says its process is gone (its pipe closed: EPIPE, or the
 * stream already destroyed). Under load many such writes fail before the process's 'exit' arrives;
 * the connection's close follows them and decides whether to start it again.
 */
export function writeToEndedProcess(error: unknown): boolean {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/** The unexpected ends of the last window; `reset` when the user (re)starts the server. */
export class CrashWindow {
    private times: number[] = [];

    constructor(readonly limit = CRASH_LIMIT, readonly windowMs = CRASH_WINDOW_MS) {}

    /** An unexpected end at `now` (ms): counts it and says whether to start the server again. */
    record(now: number, exit: Exit): Crash {
        this.times = this.times.filter((t) => now - t < this.windowMs);
        this.times.push(now);
        return { count: this.times.length, restart: this.times.length <= this.limit, how: describeExit(exit), short: shortExit(exit) };
    }

    reset(): void {
        this.times = [];
    }

    /** "3 minutes", "90 seconds". */
    windowText(): string {
        const seconds = Math.round(this.windowMs / 1000);
        return seconds % 60 === 0 ? plural(seconds / 60, 'minute') : plural(seconds, 'second');
    }

    /** The output channel's line for this end. */
    line(crash: Crash): string {
        const what = `the server ${crash.how}, the ${ordinal(crash.count)} unexpected end within ${this.windowText()}`;
        return crash.restart
            ? `${what}: restarting it (restart ${crash.count} of at most ${this.limit})`
            : `${what}: not restarted again; run "PyPTO Lens: Restart Server" to start it`;
    }

    /** The notification once it gave up: the whole story. */
    gaveUpMessage(crash: Crash): string {
        return `the server stopped unexpectedly ${plural(crash.count, 'time')} within ${this.windowText()} `
            + `and is not restarted again; the last time it ${crash.how}`;
    }

    /**
     * The status item's detail (short: its hover is as wide as the window leaves it, the Restart link
     * after the text): once it gave up, or while the client starts it again.
     */
    statusDetail(crash: Crash): string {
        return crash.restart
            ? `restart ${crash.count} of at most ${this.limit} in ${this.windowText()} (${crash.short})`
            : `crashed ${plural(crash.count, 'time')} in ${this.windowText()} (last: ${crash.short})`;
    }
}

/** "was killed with SIGKILL (as the out-of-memory killer does)", "exited with code 1". */
export function describeExit(exit: Exit): string {
    if (exit.signal === 'SIGKILL') {
        return 'was killed with SIGKILL (as the out-of-memory killer does)';
    }
    if (exit.signal !== null) {
        return `was killed with ${exit.signal}`;
    }
    if (exit.code !== null) {
        return exit.code === 0 ? 'exited (code 0) without being asked to' : `exited with code ${exit.code}`;
    }
    return 'closed its connection';
}

/** "SIGKILL", "exit code 1", "connection closed". */
export function shortExit(exit: Exit): string {
    if (exit.signal !== null) {
        return exit.signal;
    }
    return exit.code !== null ? `exit code ${exit.code}` : 'connection closed';
}

function plural(n: number, word: string): string {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function ordinal(n: number): string {
    const tens = n % 100;
    const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
    return `${n}${suffix}`;
}
