// Creating, starting and stopping the language client that runs the bundled PyPTO Lens server, and
// what the client does when that process ends unexpectedly (CrashHandler: the library restarts it).
import { ChildProcess } from 'child_process';
import * as path from 'path';
import * as vscode from 'vscode';
import {
    CloseAction, CloseHandlerResult, ErrorAction, ErrorHandler, ErrorHandlerResult, LanguageClient, LanguageClientOptions,
    RevealOutputChannelOn, ServerOptions, State, TransportKind,
} from 'vscode-languageclient/node';
import { Crash, CrashWindow, Exit, writeToEndedProcess } from './crashes';
import { withReadOnlyCodes } from './docs';
import { Logger, lspTrace, pythonLogLevel } from './logging';
import { ExtensionSettings, readServerSettings, SECTION } from './settings';

export const CLIENT_ID = 'pyptoLens';
export const CLIENT_NAME = 'PyPTO Lens';

/** Python and C/C++ files: the server decides which hold pl programs or REGISTER_OP chains. */
export const DOCUMENT_SELECTOR = [
    { scheme: 'file', language: 'python' },
    { scheme: 'untitled', language: 'python' },
    { scheme: 'file', language: 'cpp' },
    { scheme: 'file', language: 'c' },
];

/** The server's entry script inside the extension (it sets up sys.path from bundled/libs). */
export function serverScript(extensionPath: string): string {
    return path.join(extensionPath, 'bundled', 'tool', 'pypto_lens_server.py');
}

/**
 * The process: `<python> -I bundled/tool/pypto_lens_server.py`. `-I` keeps the user's
 * PYTHONPATH, user site-packages and working directory out of the server's imports; the
 * import strategy tells the script where to put the bundled libraries.
 */
export function serverOptions(extensionPath: string, python: string[], settings: ExtensionSettings): ServerOptions {
    const [command, ...args] = python;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return {
        command,
        args: [...args, '-I', serverScript(extensionPath)],
        transport: TransportKind.stdio,
        options: {
            cwd: folder ?? extensionPath,
            env: {
                ...process.env,
                PYPTO_LENS_IMPORT_STRATEGY: settings.importStrategy,
                PYPTO_LENS_LOG_LEVEL: pythonLogLevel(settings.logLevel),
                PYTHONUTF8: '1',
            },
        },
    };
}

/**
 * `lensesAsked`: VS Code asks a document's code lenses again, after its edit or when the server says
 * what it shows changed (a kernel changed in another file or on disk): the task graph view asks too.
 */
export function clientOptions(log: Logger, errorHandler: ErrorHandler,
    lensesAsked: (uri: string) => void = () => undefined): LanguageClientOptions {
    return {
        documentSelector: DOCUMENT_SELECTOR,
        errorHandler,
        outputChannel: log,
        traceOutputChannel: log,
        stdioOptions: {
            stdout: (input) => log.pipeServerLog(input),
            stderr: (input) => log.pipeServerLog(input),
        },
        revealOutputChannelOn: RevealOutputChannelOn.Never,
        // The server reads `pyptoLens` (and the editor's hint length cap, editor.inlayHints) through
        // workspace/configuration; it hears of changes here.
        synchronize: { configurationSection: [SECTION, 'editor.inlayHints'] },
        // asked at every start: a server the client starts again after a crash gets today's settings
        initializationOptions: () => ({ settings: readServerSettings() }),
        // a diagnostic code's link opens the shipped page read-only (docs.ts)
        middleware: {
            provideCodeLenses: (document, token, next) => {
                lensesAsked(document.uri.toString());
                return next(document, token);
            },
            handleDiagnostics: (uri, diagnostics, next) => next(uri, withReadOnlyCodes(diagnostics)),
            provideDiagnostics: async (document, previousResultId, token, next) => {
                const report = await next(document, previousResultId, token);
                if (report && report.kind === 'full') {
                    report.items = withReadOnlyCodes(report.items);
                }
                return report;
            },
        },
    };
}

/** What the extension hears of the crash handler's decisions. */
export interface CrashListener {
    /** The process ended unexpectedly and the client starts it again. */
    restarting(crash: Crash): void;
    /** ... once too often within the window: it stays stopped. */
    gaveUp(crash: Crash): void;
}

/**
 * The client's error handler: an unexpected end of the server process is counted in `window` (shared
 * by the clients of one extension, reset when the user restarts); the client starts the server again
 * while the window allows (CloseAction.Restart), else leaves it stopped. One line in the output channel
 * for each end. A close the client asked for (stop, dispose) never comes here.
 */
export class CrashHandler implements ErrorHandler {
    private exit: Promise<Exit> | undefined;
    private exited = false;

    constructor(private readonly window: CrashWindow, private readonly listener: CrashListener) {}

    /** The process the client runs now: its 'exit' says how it ended. */
    watch(child: ChildProcess | undefined): void {
        this.exited = false;
        this.exit = child && new Promise<Exit>((resolve) => {
            const done = (code: number | null, signal: string | null) => {
                this.exited = true;
                resolve({ code, signal });
            };
            if (child.exitCode !== null || child.signalCode !== null) {
                done(child.exitCode, child.signalCode);
            } else {
                child.once('exit', done);
            }
        });
    }

    error(error: Error, _message: unknown, count: number | undefined): ErrorHandlerResult {
        // writing to a process that is gone fails: its close, about to come, decides (a shutdown here
        // would stop the client while the close restarts it, and no server would run)
        if (this.exited || writeToEndedProcess(error) || (count !== undefined && count <= 3)) {
            return { action: ErrorAction.Continue };
        }
        return { action: ErrorAction.Shutdown };
    }

    async closed(): Promise<CloseHandlerResult> {
        // the connection may close a moment before the process's exit is reported
        const unknown: Exit = { code: null, signal: null };
        const exit = this.exit
            ? await Promise.race([this.exit, new Promise<Exit>((resolve) => setTimeout(() => resolve(unknown), 2000))])
            : unknown;
        this.exit = undefined;
        const crash = this.window.record(Date.now(), exit);
        if (crash.restart) {
            this.listener.restarting(crash);
            return { action: CloseAction.Restart, message: this.window.line(crash), handled: true };
        }
        this.listener.gaveUp(crash);
        return { action: CloseAction.DoNotRestart, message: this.window.line(crash), handled: true };
    }
}

export async function startClient(extensionPath: string, python: string[], settings: ExtensionSettings,
    log: Logger, crashes: CrashHandler, lensesAsked?: (uri: string) => void): Promise<LanguageClient> {
    const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions(extensionPath, python, settings),
        clientOptions(log, crashes, lensesAsked));
    // every start, the first and those after a crash: the process to watch, and its pid in the output
    const running = client.onDidChangeState((event) => {
        if (event.newState === State.Running) {
            const child = client.serverProcess;
            crashes.watch(child);
            const info = client.initializeResult?.serverInfo;
            log.info(`server started: ${`${info?.name ?? 'pypto-lens'} ${info?.version ?? ''}`.trim()}`
                + (child?.pid !== undefined ? ` (pid ${child.pid})` : ''));
        }
    });
    log.info(`starting the server: ${python.join(' ')} -I ${serverScript(extensionPath)} `
        + `(import strategy ${settings.importStrategy})`);
    try {
        await client.start();
    } catch (error) {
        running.dispose();
        await client.dispose(2000).catch(() => undefined);
        throw error;
    }
    await client.setTrace(lspTrace(settings.logLevel));
    return client;
}

/**
 * The client sets its trace again on every configuration change (from VS Code's own log
 * level); registered after the client started, this listener runs after the client's and puts
 * back the trace that `pyptoLens.logLevel` asks for.
 */
export function keepTrace(client: LanguageClient, log: Logger): vscode.Disposable {
    const again = () => {
        if (client.isRunning()) {
            void client.setTrace(lspTrace(log.getLevel()));
        }
    };
    // ... and on a start after a crash, which sets the client's own trace
    return vscode.Disposable.from(vscode.workspace.onDidChangeConfiguration(again),
        client.onDidChangeState((event) => event.newState === State.Running && again()));
}

export async function stopClient(client: LanguageClient | undefined, log: Logger): Promise<void> {
    if (!client) {
        return;
    }
    try {
        await client.dispose(2000);
    } catch (error) {
        log.debug(`stopping the server: ${String(error)}`);
    }
}
