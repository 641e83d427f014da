// The "PyPTO Lens" output channel: the extension's own log, the server's log (its stderr)
// and the LSP trace, filtered by `pyptoLens.logLevel`. That one setting also sets the LSP
// trace: `debug` traces the messages' names, `trace` the messages in full.
//
// The channel is a plain output channel behind the LogOutputChannel interface that
// vscode-languageclient writes to, so that the setting (not VS Code's global log level)
// decides what is shown.
import * as readline from 'readline';
import { Readable } from 'stream';
import * as vscode from 'vscode';
import { Trace } from 'vscode-languageclient/node';

export const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
type Severity = Exclude<LogLevel, 'off'>;

export function parseLogLevel(value: unknown): LogLevel {
    return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value)
        ? (value as LogLevel)
        : 'info';
}

export function lspTrace(level: LogLevel): Trace {
    switch (level) {
        case 'trace':
            return Trace.Verbose;
        case 'debug':
            return Trace.Messages;
        default:
            return Trace.Off;
    }
}

/** The level name Python's logging module understands (the server reads it at start). */
export function pythonLogLevel(level: LogLevel): string {
    return { off: 'CRITICAL', error: 'ERROR', warn: 'WARNING', info: 'INFO', debug: 'DEBUG', trace: 'DEBUG' }[level];
}

const VSCODE_LEVELS: Record<LogLevel, vscode.LogLevel> = {
    off: vscode.LogLevel.Off,
    error: vscode.LogLevel.Error,
    warn: vscode.LogLevel.Warning,
    info: vscode.LogLevel.Info,
    debug: vscode.LogLevel.Debug,
    trace: vscode.LogLevel.Trace,
};

/** Python logging's level names, as the server prints them at the start of each line. */
const PYTHON_LEVELS: Record<string, Severity> = {
    CRITICAL: 'error', ERROR: 'error', WARNING: 'warn', INFO: 'info', DEBUG: 'debug',
};

export class Logger implements vscode.LogOutputChannel {
    readonly name: string;
    private readonly channel: vscode.OutputChannel;
    private level: LogLevel = 'info';
    private readonly levelChanged = new vscode.EventEmitter<vscode.LogLevel>();
    readonly onDidChangeLogLevel = this.levelChanged.event;

    constructor(name: string) {
        this.name = name;
        this.channel = vscode.window.createOutputChannel(name);
    }

    get logLevel(): vscode.LogLevel {
        return VSCODE_LEVELS[this.level];
    }

    getLevel(): LogLevel {
        return this.level;
    }

    setLevel(level: LogLevel): void {
        if (level !== this.level) {
            this.level = level;
            this.levelChanged.fire(this.logLevel);
        }
    }

    /** vscode-languageclient writes the LSP trace here; it is on at `debug` and `trace` (see lspTrace). */
    trace(message: string, ...args: unknown[]): void {
        if (this.level === 'debug' || this.level === 'trace') {
            this.write('trace', message, args, true);
        }
    }

    debug(message: string, ...args: unknown[]): void {
        this.write('debug', message, args);
    }

    info(message: string, ...args: unknown[]): void {
        this.write('info', message, args);
    }

    warn(message: string, ...args: unknown[]): void {
        this.write('warn', message, args);
    }

    error(error: string | Error, ...args: unknown[]): void {
        this.write('error', typeof error === 'string' ? error : (error.stack ?? error.message), args);
    }

    /**
     * The server's stderr: Python log lines (`LEVEL name: message`) at their own level; other
     * lines (a traceback, say) at the level of the line before them.
     */
    pipeServerLog(input: Readable): void {
        let last: Severity = 'error';
        readline.createInterface({ input, crlfDelay: Infinity, terminal: false, historySize: 0 }).on('line', (line) => {
            const first = /^([A-Z]+) /.exec(line)?.[1];
            if (first !== undefined && PYTHON_LEVELS[first] !== undefined) {
                last = PYTHON_LEVELS[first];
            }
            this.write(last, `[server] ${line}`, []);
        });
    }

    append(value: string): void {
        this.channel.append(value);
    }

    appendLine(value: string): void {
        this.channel.appendLine(value);
    }

    replace(value: string): void {
        this.channel.replace(value);
    }

    clear(): void {
        this.channel.clear();
    }

    show(preserveFocus?: boolean): void;
    show(column?: vscode.ViewColumn, preserveFocus?: boolean): void;
    show(first?: boolean | vscode.ViewColumn, second?: boolean): void {
        this.channel.show(typeof first === 'boolean' ? first : second ?? true);
    }

    hide(): void {
        this.channel.hide();
    }

    dispose(): void {
        this.levelChanged.dispose();
        this.channel.dispose();
    }

    private write(severity: Severity, message: string, args: unknown[], always = false): void {
        if (!always && LOG_LEVELS.indexOf(severity) > LOG_LEVELS.indexOf(this.level)) {
            return;
        }
        const extra = args.length > 0 ? ' ' + args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ') : '';
        this.channel.appendLine(`${new Date().toISOString()} [${severity}] ${message}${extra}`);
    }
}

export function describe(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
